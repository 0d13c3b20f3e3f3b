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
	"github.com/factbot-dev/factbot/search"
)

// evalEngine is how an evaluation sets up the engine beyond the
// configuration.
type evalEngine struct {
	// factChecks offers search_fact_checks (when a key is configured).
	factChecks bool
	// excludeSites, when not nil, replaces FACTBOT_EXCLUDE_SITES.
	excludeSites []string
	// store, if set, is searched and read instead of the web.
	store *search.KnowledgeStore
	// closedBook verifies with no tools.
	closedBook bool
	// keepUndated keeps undated results and pages in dated checks.
	keepUndated bool
	// leakFree adds the shipped fact-checking organisations to the
	// excluded sites and keeps fact-check sections of any site out.
	leakFree bool
}

// evalChecker builds the checker an evaluation runs; tests replace it.
// Evaluations use no database: nothing is cached or kept in history.
var evalChecker = func(ctx context.Context, a *app, e evalEngine) (eval.Checker, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	c, err := newChecker(ctx, cfg, nil)
	if err != nil {
		return nil, err
	}
	if !e.factChecks {
		c.FactChecks = nil
	}
	if e.excludeSites != nil {
		c.ExcludeSites = e.excludeSites
	}
	if e.leakFree {
		c.ExcludeSites, c.ExcludeFactCheckPaths = leakFreeSites(c.ExcludeSites), true
	}
	c.KeepUndated = e.keepUndated
	c.Options.ClosedBook = e.closedBook
	if e.store != nil {
		c.Search, c.Reader, c.FactChecks = e.store, e.store, nil
	}
	return c, nil
}

// evalFlags are the flags of factbot eval.
type evalFlags struct {
	dataset, format, out, html string
	predictions, knowledge     string
	limit, conc                int
	resume, json, quiet        bool
	compare                    bool
	prices                     eval.Prices
	allowFactChecks, noAsOf    bool
	exclusions, keepUndated    bool
	closedBook                 bool
	excludeSites, fit, fitOut  string
}

func newEvalFlags(a *app) (*flag.FlagSet, *evalFlags) {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	f := &evalFlags{}
	fs.StringVar(&f.dataset, "dataset", "", "labeled claims: JSON Lines {\"claim\",\"label\",\"id\"?,\"notes\"?,\"date\"?,\"speaker\"?,\"source\"?} or AVeriTeC's dev.json; '-' reads stdin (default: the built-in set)")
	fs.StringVar(&f.format, "format", "auto", "dataset format: auto, jsonl or averitec")
	fs.IntVar(&f.limit, "limit", 0, "check only the first N claims (0: all)")
	fs.IntVar(&f.conc, "concurrency", 2, "claims checked at once")
	fs.StringVar(&f.out, "out", "", "write each claim's result to this JSON Lines file as soon as it is known")
	fs.BoolVar(&f.resume, "resume", false, "continue the run in --out, re-checking nothing already done there")
	fs.BoolVar(&f.json, "json", false, "print the summary, with every result, as JSON on stdout")
	fs.StringVar(&f.html, "html", "", "also write a self-contained HTML report to this file")
	fs.StringVar(&f.predictions, "predictions", "", "also write the AVeriTeC shared task's predictions to this file: a JSON array of {claim_id, claim, pred_label, evidence: [{question, answer, url, scraped_text}]}, for its scorer")
	fs.Float64Var(&f.prices.InputPerM, "price-in", eval.DefaultPrices.InputPerM, "model price in USD per million input tokens (default: Gemini 2.5 Flash)")
	fs.Float64Var(&f.prices.OutputPerM, "price-out", eval.DefaultPrices.OutputPerM, "model price in USD per million output tokens, thinking included (default: Gemini 2.5 Flash)")
	fs.Float64Var(&f.prices.CachedPerM, "price-cached", eval.DefaultPrices.CachedPerM, "price in USD per million input tokens served from the prompt cache (default: Gemini's implicit caching, 10% of input)")
	fs.BoolVar(&f.quiet, "quiet", false, "draw no progress bar on stderr")
	fs.BoolVar(&f.compare, "compare", false, "compare two runs instead: factbot eval --compare A.json B.json (summaries from --json or files from --out)")
	fs.BoolVar(&f.allowFactChecks, "allow-fact-checks", false, "lift the leak-free rules: no fact-checking sites or sections excluded, and search_fact_checks offered on AVeriTeC data too (its claims come from published fact-checks, which would hand the model the answer)")
	fs.BoolVar(&f.exclusions, "exclusions", false, "report instead how many claims' own fact_checking_article, and how many gold evidence URLs, of an AVeriTeC --dataset the leak-free rules exclude, each claim as of its claim_date unless --no-as-of")
	fs.BoolVar(&f.noAsOf, "no-as-of", false, "do not check claims as of their dates (by default a claim with a date, such as AVeriTeC's claim_date, only sees what was published by then)")
	fs.StringVar(&f.knowledge, "knowledge-store", "", "research each claim in AVeriTeC's knowledge store in this folder (<claim_id>.json, JSON Lines) instead of the web: no network call but the model's")
	fs.BoolVar(&f.closedBook, "closed-book", false, "verify with no tools (no search, no page, no plan, no critic): what the model already knows, as a baseline")
	fs.BoolVar(&f.keepUndated, "keep-undated", false, "in claims checked as of their date, keep search results and pages whose publication date is unknown (by default they are dropped, and the summary counts them)")
	fs.StringVar(&f.excludeSites, "exclude-sites", "", "a file of domains (one a line, # comments) kept out of every search result and page read, besides the shipped fact-checking sites (default $FACTBOT_EXCLUDE_SITES)")
	fs.StringVar(&f.fit, "fit", "", "fit per-label score offsets on a run instead (its --out or --json file) and write them as JSON for FACTBOT_CALIBRATION")
	fs.StringVar(&f.fitOut, "fit-out", "", "with --fit: write the calibration to this file (default: stdout)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `Usage: factbot eval [flags]
       factbot eval --compare A.json B.json
       factbot eval --fit RESULTS [--fit-out calibration.json]

Checks each labeled claim (fresh, no cache) and reports accuracy, per-label
precision, recall and F1, macro-F1, the confusion matrix, provenance, effort
and cost. AVeriTeC's dev.json is downloaded separately: see docs/evaluation.md. Its
claims are verified as given (no extraction), with their speaker and source,
as of their claim date. Every run is leak-free unless --allow-fact-checks:
the shipped fact-checking sites, the fact-check sections of news sites and
their copies on mirrors are kept out of every search and page read, and
search_fact_checks is not offered on AVeriTeC data.

Flags:`)
		fs.PrintDefaults()
	}
	return fs, f
}

// validate checks the flags' values and returns the dataset format.
func (f *evalFlags) validate(pos []string) (eval.Format, error) {
	switch {
	case len(pos) > 0:
		return "", usagef("unexpected argument %q (the dataset is given with --dataset)", pos[0])
	case f.limit < 0:
		return "", usagef("--limit must be 0 or more")
	case f.conc < 1 || f.conc > 64:
		return "", usagef("--concurrency must be between 1 and 64")
	case f.prices.InputPerM < 0 || f.prices.OutputPerM < 0:
		return "", usagef("prices cannot be negative")
	case f.resume && f.out == "":
		return "", usagef("--resume continues the run in --out: give --out RESULTS too")
	}
	format := eval.Format(f.format)
	if format == "auto" {
		format = eval.FormatAuto
	}
	if format != eval.FormatAuto && format != eval.FormatJSONL && format != eval.FormatAVeriTeC {
		return "", usagef("unknown --format %q (want auto, jsonl or averitec)", f.format)
	}
	return format, nil
}

func runEval(ctx context.Context, a *app, args []string) error {
	fs, f := newEvalFlags(a)
	pos, err := parseArgs(a, fs, args)
	if err != nil {
		return err
	}
	if f.compare {
		return runCompare(a, pos, f.json)
	}
	if f.fit != "" {
		return runFit(a, f, pos)
	}
	if f.exclusions {
		return runExclusions(a, f, pos)
	}
	format, err := f.validate(pos)
	if err != nil {
		return err
	}
	var exclude []string
	if f.excludeSites != "" {
		if exclude, err = readExcludeSites(f.excludeSites); err != nil {
			return err
		}
	}
	name, format, cases, err := loadCases(a, f.dataset, format)
	if err != nil {
		return &usageError{msg: err.Error(), err: err}
	}
	if f.limit > 0 && f.limit < len(cases) {
		cases = cases[:f.limit]
	}
	// The results file, and what an earlier run already did.
	var done []eval.Result
	var outFile *os.File
	if f.out != "" {
		done, outFile, err = openResults(f.out, f.resume, cases)
		if err != nil {
			return &usageError{msg: err.Error(), err: err}
		}
		defer outFile.Close()
	}
	averitec := format == eval.FormatAVeriTeC
	engine, err := newEvalEngine(a, f, averitec, exclude, cases)
	if err != nil {
		return err
	}
	checker, err := evalChecker(ctx, a, engine)
	if err != nil {
		return err
	}
	r := &eval.Runner{Checker: checker, Concurrency: f.conc, AsGiven: averitec, AsOf: !f.noAsOf, ExcludeArticle: engine.leakFree}
	if engine.store != nil {
		r.StoreClaims = true
		r.Hold = func(c eval.Case) (func(), error) { return engine.store.Hold(c.ID) }
	}
	setup := evalSetup(a, f, engine, r, cases)
	if outFile != nil {
		r.Out = outFile
	}
	if !f.quiet {
		r.Progress = a.stderr
	}
	results, runErr := r.Run(ctx, cases, done)
	if outFile != nil {
		if err := outFile.Sync(); err != nil && runErr == nil {
			runErr = fmt.Errorf("writing %s: %w", f.out, err)
		}
	}
	if err := writePredictions(a, f.predictions, cases, results); err != nil && runErr == nil {
		runErr = err
	}
	s := eval.Summarize(results, len(cases), f.prices)
	s.Dataset = name
	s.Setup = setup
	if err := writeEvalSummary(a, f, s); err != nil {
		return err
	}
	return evalOutcome(f, s, runErr)
}

// loadCases reads the dataset: the built-in set, stdin ("-") or a file,
// and says which format it was read as.
func loadCases(a *app, dataset string, format eval.Format) (name string, _ eval.Format, cases []eval.Case, err error) {
	if dataset == "" {
		return eval.ShippedName, eval.FormatJSONL, eval.Shipped(), nil
	}
	var data []byte
	if dataset == "-" {
		name = "stdin"
		data, err = io.ReadAll(a.stdin)
	} else {
		name = filepath.Base(dataset)
		data, err = os.ReadFile(dataset)
	}
	if err != nil {
		return name, format, nil, err
	}
	if format == eval.FormatAuto {
		format = eval.DetectFormat(data)
	}
	cases, err = eval.Load(bytes.NewReader(data), format)
	if err != nil && dataset != "-" {
		err = fmt.Errorf("%s: %w", dataset, err)
	}
	if err == nil && len(cases) == 0 {
		err = errors.New("no claims in the dataset")
	}
	return name, format, cases, err
}

// evalSetup describes how the run checks its claims, for the summary.
func evalSetup(a *app, f *evalFlags, e evalEngine, r *eval.Runner, cases []eval.Case) *eval.Setup {
	s := &eval.Setup{AsGiven: r.AsGiven}
	for _, c := range cases {
		if !c.Date.IsZero() {
			s.Dated++
		}
	}
	s.AsOf = r.AsOf && s.Dated > 0
	s.KeepUndated, s.ClosedBook = e.keepUndated, e.closedBook
	var listed []string
	if cfg, err := a.config(); err == nil {
		s.Search, s.Calibration = cfg.Search.Order, cfg.CalibrationFile
		s.FactChecks = e.factChecks && cfg.Search.FactCheckKey != ""
		if cfg.Search.ExcludeSitesFile != "" {
			s.ExcludeSites, listed = cfg.Search.ExcludeSitesFile, cfg.Search.ExcludeSites
		}
	}
	if f.excludeSites != "" {
		s.ExcludeSites, listed = f.excludeSites, e.excludeSites
	}
	s.ExcludedSites = len(listed)
	if e.leakFree {
		s.LeakFree, s.ExcludedSites = true, len(leakFreeSites(listed))
	}
	if e.store != nil {
		s.Search = []string{"knowledge store " + f.knowledge}
	}
	return s
}

// runFit fits a calibration on a run's results and writes it.
func runFit(a *app, f *evalFlags, pos []string) error {
	if len(pos) > 0 {
		return usagef("unexpected argument %q (the results are given with --fit)", pos[0])
	}
	results, err := eval.LoadRun(f.fit)
	if err != nil {
		return &usageError{msg: err.Error(), err: err}
	}
	fit, err := eval.FitCalibration(results)
	if err != nil {
		return &usageError{msg: fmt.Sprintf("%s: %v", f.fit, err), err: err}
	}
	if fit.FittedOn, err = eval.FittedOn(f.fit, results); err != nil {
		return err
	}
	data, err := json.MarshalIndent(fit, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	fmt.Fprintf(a.stderr, "fitted on %d claims with per-label scores (%s, sha256 %.12s…): macro-F1 %.3f → %.3f; ties go to %s first\n",
		fit.Claims, fit.FittedOn.File, fit.FittedOn.SHA256, fit.MacroF1Before, fit.MacroF1After, tieFirst(fit.Ties))
	if f.fitOut == "" {
		_, err = a.stdout.Write(data)
		return err
	}
	if err := os.WriteFile(f.fitOut, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "wrote %s; use it with FACTBOT_CALIBRATION=%s\n", f.fitOut, f.fitOut)
	return nil
}

// writeEvalSummary prints the summary (a table or JSON) and writes the HTML
// report, when anything was checked.
func writeEvalSummary(a *app, f *evalFlags, s *eval.Summary) error {
	if s.Scored+s.Errors == 0 {
		return nil
	}
	var err error
	if f.json {
		err = eval.WriteJSON(a.stdout, s)
	} else {
		err = eval.WriteTable(a.stdout, s)
	}
	if err != nil {
		return err
	}
	if f.html != "" {
		return writeHTMLReport(f.html, s)
	}
	return nil
}

// evalOutcome is the run's error: a configuration error that stopped it,
// an interruption (with how to resume), claims that could not be checked.
func evalOutcome(f *evalFlags, s *eval.Summary, runErr error) error {
	resumeHint := ""
	if f.out != "" {
		resumeHint = fmt.Sprintf("; continue with: factbot eval --resume --out %s (and the same --dataset)", f.out)
	}
	switch {
	case runErr == nil && s.Errors > 0:
		return fmt.Errorf("%d of %d claims could not be checked (see \"error\" in the results)%s", s.Errors, s.Cases, resumeHint)
	case runErr == nil:
		return nil
	case usererr.IsConfig(runErr):
		return fmt.Errorf("stopped: %w", runErr)
	case errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded):
		return fmt.Errorf("interrupted after %d of %d claims%s", s.Scored+s.Errors, s.Cases, resumeHint)
	}
	return fmt.Errorf("stopped: %w", runErr)
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

func runCompare(a *app, files []string, jsonOut bool) error {
	if len(files) != 2 {
		return usagef("--compare needs two runs: factbot eval --compare A.json B.json")
	}
	var runs [2][]eval.Result
	for i, f := range files {
		res, err := eval.LoadRun(f)
		if err != nil {
			return &usageError{msg: err.Error(), err: err}
		}
		runs[i] = res
	}
	c := eval.Compare(runs[0], runs[1])
	if jsonOut {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	return eval.WriteComparison(a.stdout, c)
}
