package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/eval"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
)

// leakFreeSites is the exclusion list of a leak-free check (every eval
// run, check --as-of): the shipped fact-checking organisations, then
// extra (FACTBOT_EXCLUDE_SITES or --exclude-sites).
func leakFreeSites(extra []string) []string {
	sites, err := search.NormalizeSites(append(search.FactCheckers(), extra...))
	if err != nil { // both lists are normalised already
		panic(err)
	}
	return sites
}

// runExclusions is factbot eval --exclusions: how the leak-free rules fit
// an AVeriTeC file, each claim as of its claim_date as a leak-free run
// checks it (not with --no-as-of).
func runExclusions(a *app, f *evalFlags, pos []string) error {
	switch {
	case len(pos) > 0:
		return usagef("unexpected argument %q (the dataset is given with --dataset)", pos[0])
	case f.dataset == "" || f.dataset == "-":
		return usagef("--exclusions needs an AVeriTeC file: factbot eval --exclusions --dataset dev.json")
	}
	var extra []string
	if f.excludeSites != "" {
		var err error
		if extra, err = readExcludeSites(f.excludeSites); err != nil {
			return err
		}
	}
	fh, err := os.Open(f.dataset)
	if err != nil {
		return &usageError{msg: err.Error(), err: err}
	}
	defer fh.Close()
	r := search.Restriction{ExcludeSites: leakFreeSites(extra), FactCheckPaths: true}
	rep, err := eval.Exclusions(fh, func(u string, asOf time.Time) bool {
		rs := r // as a leak-free run checks the claim: as of its date, unless --no-as-of
		rs.Before = asOf
		_, late := rs.AddressAfter(u)
		return rs.Excluded(u) || late
	}, !f.noAsOf)
	if err != nil {
		return &usageError{msg: f.dataset + ": " + err.Error(), err: err}
	}
	if f.json {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return eval.WriteExclusions(a.stdout, rep)
}

// refuseUndatable refuses a dated eval whose search providers include one
// that cannot search as of a date: Google Search through Gemini takes no
// date and writes its own snippets, and failing over to it would change
// what the run measures without a word.
func refuseUndatable(a *app, f *evalFlags, cases []eval.Case) error {
	if f.noAsOf || !slices.ContainsFunc(cases, func(c eval.Case) bool { return !c.Date.IsZero() }) {
		return nil
	}
	cfg, err := a.config()
	if err != nil || !slices.Contains(cfg.Search.Order, config.SearchGemini) {
		return err
	}
	return usagef("the dataset's claims are dated, and Google Search through Gemini (in FACTBOT_SEARCH: %s) cannot search as of a date: "+
		"set FACTBOT_SEARCH to providers that can (tavily, brave), or pass --no-as-of to measure without dates", strings.Join(cfg.Search.Order, ","))
}

// writePredictions writes the shared task's predictions file for the
// run's results, when --predictions names one; claims without a result
// are predicted Not Enough Evidence, and stderr says how many.
func writePredictions(a *app, path string, cases []eval.Case, results []eval.Result) error {
	if path == "" {
		return nil
	}
	preds, missing := eval.Predictions(cases, results)
	var b bytes.Buffer
	if err := eval.WritePredictions(&b, preds); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("--predictions: %w", err)
	}
	if missing > 0 {
		fmt.Fprintf(a.stderr, "%s: %d of %d claims have no result (not run or failed) and are predicted Not Enough Evidence\n", path, missing, len(cases))
	}
	return nil
}

// refuseFitted refuses to score claims with offsets fitted on them
// (FACTBOT_CALIBRATION written by eval --fit on a run of the same claims).
func refuseFitted(a *app, cases []eval.Case) error {
	cfg, err := a.config()
	if err != nil || cfg.Calibration == nil {
		return nil // a configuration error is reported when the engine is built
	}
	n := eval.FittedClaims(cfg.Calibration, cases)
	if n == 0 {
		return nil
	}
	on := cfg.Calibration.FittedOn
	return usagef("FACTBOT_CALIBRATION=%s was fitted on %d of these %d claims (on %s, sha256 %.12s…): offsets scored on the claims they were fitted on overstate their gain; fit on another split (train) and score this one, or unset FACTBOT_CALIBRATION",
		cfg.CalibrationFile, n, len(cases), on.File, on.SHA256)
}

// tieFirst names the label ties go to first.
func tieFirst(ties []factcheck.Label) factcheck.Label {
	if len(ties) == 0 {
		return factcheck.Unverifiable
	}
	return ties[0]
}

// newEvalEngine is how the run sets up the engine, after refusing what
// would make its figures dishonest: a search provider that ignores the
// claims' dates, offsets fitted on the claims it scores.
func newEvalEngine(a *app, f *evalFlags, averitec bool, exclude []string, cases []eval.Case) (evalEngine, error) {
	if err := refuseUndatable(a, f, cases); err != nil && !f.closedBook && f.knowledge == "" {
		return evalEngine{}, err
	}
	if err := refuseFitted(a, cases); err != nil {
		return evalEngine{}, err
	}
	e := evalEngine{factChecks: !averitec || f.allowFactChecks, excludeSites: exclude, leakFree: !f.allowFactChecks,
		keepUndated: f.keepUndated, closedBook: f.closedBook}
	if f.knowledge != "" {
		var err error
		if e.store, err = search.NewKnowledgeStore(f.knowledge); err != nil {
			return evalEngine{}, &usageError{msg: "--knowledge-store: " + err.Error(), err: err}
		}
		e.factChecks = false
	}
	return e, nil
}
