package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/factbot-dev/factbot/eval"
	"github.com/factbot-dev/factbot/internal/usererr"
)

func init() {
	register("eval", command{
		summary: "measure verdict quality on labeled claims: factbot eval [--dataset FILE] [--out RESULTS --resume] [--html FILE]; --compare A B",
		run:     runEval,
	})
}

// evalChecker builds the checker an evaluation runs; tests replace it.
// Evaluations use no database: nothing is cached or kept in history.
var evalChecker = func(ctx context.Context, a *app) (eval.Checker, error) {
	return newChecker(ctx, a, nil)
}

func runEval(ctx context.Context, a *app, args []string) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	dataset := fs.String("dataset", "", "labeled claims: JSON Lines {\"claim\",\"label\",\"id\"?,\"notes\"?} or AVeriTeC's dev.json; '-' reads stdin (default: the built-in set)")
	format := fs.String("format", "auto", "dataset format: auto, jsonl or averitec")
	limit := fs.Int("limit", 0, "check only the first N claims (0: all)")
	conc := fs.Int("concurrency", 2, "claims checked at once")
	out := fs.String("out", "", "write each claim's result to this JSON Lines file as soon as it is known")
	resume := fs.Bool("resume", false, "continue the run in --out, re-checking nothing already done there")
	jsonOut := fs.Bool("json", false, "print the summary, with every result, as JSON on stdout")
	htmlOut := fs.String("html", "", "also write a self-contained HTML report to this file")
	priceIn := fs.Float64("price-in", eval.DefaultPrices.InputPerM, "model price in USD per million input tokens (default: Gemini 2.5 Flash)")
	priceOut := fs.Float64("price-out", eval.DefaultPrices.OutputPerM, "model price in USD per million output tokens, thinking included (default: Gemini 2.5 Flash)")
	priceCached := fs.Float64("price-cached", eval.DefaultPrices.CachedPerM, "price in USD per million input tokens served from the prompt cache (default: Gemini's implicit caching, 10% of input)")
	quiet := fs.Bool("quiet", false, "draw no progress bar on stderr")
	compare := fs.Bool("compare", false, "compare two runs instead: factbot eval --compare A.json B.json (summaries from --json or files from --out)")
	fs.Usage = func() {
		fmt.Fprintln(a.stderr, `Usage: factbot eval [flags]
       factbot eval --compare A.json B.json

Checks each labeled claim (fresh, no cache) and reports accuracy, per-label
precision, recall and F1, macro-F1, the confusion matrix, provenance, effort
and cost. AVeriTeC's dev.json is downloaded separately: see the README.

Flags:`)
		fs.PrintDefaults()
	}
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if *compare {
		return runCompare(a, pos, *jsonOut)
	}
	if len(pos) > 0 {
		fmt.Fprintf(a.stderr, "factbot eval: unexpected argument %q (the dataset is given with --dataset)\n", pos[0])
		return exitUsage
	}
	switch {
	case *limit < 0:
		fmt.Fprintln(a.stderr, "factbot eval: --limit must be 0 or more")
		return exitUsage
	case *conc < 1 || *conc > 64:
		fmt.Fprintln(a.stderr, "factbot eval: --concurrency must be between 1 and 64")
		return exitUsage
	case *priceIn < 0 || *priceOut < 0:
		fmt.Fprintln(a.stderr, "factbot eval: prices cannot be negative")
		return exitUsage
	case *resume && *out == "":
		fmt.Fprintln(a.stderr, "factbot eval: --resume continues the run in --out: give --out RESULTS too")
		return exitUsage
	}
	f := eval.Format(*format)
	if f == "auto" {
		f = eval.FormatAuto
	}
	if f != eval.FormatAuto && f != eval.FormatJSONL && f != eval.FormatAVeriTeC {
		fmt.Fprintf(a.stderr, "factbot eval: unknown --format %q (want auto, jsonl or averitec)\n", *format)
		return exitUsage
	}

	// The dataset.
	var cases []eval.Case
	var err error
	name := eval.ShippedName
	switch *dataset {
	case "":
		cases = eval.Shipped()
	case "-":
		name = "stdin"
		cases, err = eval.Load(a.stdin, f)
	default:
		name = filepath.Base(*dataset)
		cases, err = eval.LoadFile(*dataset, f)
	}
	if err == nil && len(cases) == 0 {
		err = errors.New("no claims in the dataset")
	}
	if err != nil {
		fmt.Fprintf(a.stderr, "factbot eval: %v\n", err)
		return exitUsage
	}
	if *limit > 0 && *limit < len(cases) {
		cases = cases[:*limit]
	}

	// The results file, and what an earlier run already did.
	var done []eval.Result
	var outFile *os.File
	if *out != "" {
		done, outFile, err = openResults(*out, *resume, cases)
		if err != nil {
			fmt.Fprintf(a.stderr, "factbot eval: %v\n", err)
			return exitUsage
		}
		defer outFile.Close()
	}

	checker, err := evalChecker(ctx, a)
	if err != nil {
		fmt.Fprintf(a.stderr, "factbot eval: %v\n", err)
		return exitUsage
	}
	r := &eval.Runner{Checker: checker, Concurrency: *conc}
	if outFile != nil {
		r.Out = outFile
	}
	if !*quiet {
		r.Progress = a.stderr
	}
	results, runErr := r.Run(ctx, cases, done)
	if outFile != nil {
		if err := outFile.Sync(); err != nil && runErr == nil {
			runErr = fmt.Errorf("writing %s: %w", *out, err)
		}
	}

	s := eval.Summarize(results, len(cases), eval.Prices{InputPerM: *priceIn, OutputPerM: *priceOut, CachedPerM: *priceCached})
	s.Dataset = name
	if s.Scored+s.Errors > 0 {
		if *jsonOut {
			err = eval.WriteJSON(a.stdout, s)
		} else {
			err = eval.WriteTable(a.stdout, s)
		}
		if err != nil {
			fmt.Fprintf(a.stderr, "factbot eval: %v\n", err)
			return exitFailed
		}
		if *htmlOut != "" {
			if err := writeHTMLReport(*htmlOut, s); err != nil {
				fmt.Fprintf(a.stderr, "factbot eval: %v\n", err)
				return exitFailed
			}
		}
	}

	resumeHint := ""
	if *out != "" {
		resumeHint = fmt.Sprintf("; continue with: factbot eval --resume --out %s (and the same --dataset)", *out)
	}
	if runErr != nil {
		var ce *usererr.Config
		switch {
		case errors.As(runErr, &ce):
			fmt.Fprintf(a.stderr, "factbot eval: stopped: %v\n", ce)
			return exitUsage
		case errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded):
			fmt.Fprintf(a.stderr, "factbot eval: interrupted after %d of %d claims%s\n", s.Scored+s.Errors, s.Cases, resumeHint)
		default:
			fmt.Fprintf(a.stderr, "factbot eval: stopped: %v\n", runErr)
		}
		return exitFailed
	}
	if s.Errors > 0 {
		fmt.Fprintf(a.stderr, "factbot eval: %d of %d claims could not be checked (see \"error\" in the results)%s\n", s.Errors, s.Cases, resumeHint)
		return exitFailed
	}
	return exitOK
}

// openResults opens the results file for appending. Without resume it
// refuses to touch a file that has results; with resume it reads them,
// checks they belong to this dataset, and drops a last line torn by an
// interruption so new lines start clean.
func openResults(path string, resume bool, cases []eval.Case) ([]eval.Result, *os.File, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	if len(bytes.TrimSpace(data)) > 0 && !resume {
		return nil, nil, fmt.Errorf("%s already holds results: pass --resume to continue that run, or choose another --out", path)
	}
	var done []eval.Result
	if resume && len(data) > 0 {
		done, err = eval.ReadResults(bytes.NewReader(data))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		claims := map[string]string{}
		for _, c := range cases {
			claims[c.ID] = c.Claim
		}
		for _, d := range done {
			if c, ok := claims[d.ID]; ok && c != d.Claim {
				return nil, nil, fmt.Errorf("%s holds a different claim for id %s than the dataset (another dataset?): %q vs %q", path, d.ID, d.Claim, c)
			}
		}
	}
	fh, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	keep := int64(len(data))
	if i := bytes.LastIndexByte(data, '\n'); len(data) > 0 && data[len(data)-1] != '\n' {
		keep = int64(i + 1) // a torn last line: ReadResults ignored it
	}
	if err := fh.Truncate(keep); err != nil {
		fh.Close()
		return nil, nil, err
	}
	if _, err := fh.Seek(keep, io.SeekStart); err != nil {
		fh.Close()
		return nil, nil, err
	}
	return done, fh, nil
}

func writeHTMLReport(path string, s *eval.Summary) error {
	var b bytes.Buffer
	if err := eval.WriteHTML(&b, s); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func runCompare(a *app, files []string, jsonOut bool) int {
	if len(files) != 2 {
		fmt.Fprintln(a.stderr, "factbot eval: --compare needs two runs: factbot eval --compare A.json B.json")
		return exitUsage
	}
	var runs [2][]eval.Result
	for i, f := range files {
		res, err := eval.LoadRun(f)
		if err != nil {
			fmt.Fprintf(a.stderr, "factbot eval: %v\n", err)
			return exitUsage
		}
		runs[i] = res
	}
	c := eval.Compare(runs[0], runs[1])
	var err error
	if jsonOut {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(c)
	} else {
		err = eval.WriteComparison(a.stdout, c)
	}
	if err != nil {
		return exitFailed
	}
	return exitOK
}
