package main

import (
	"context"
	"fmt"
	"time"
)

func runPrune(ctx context.Context, a *app, args []string) error {
	fs, _ := newStoreFlags(a, "prune", "factbot prune --older-than DURATION\n\nIn every tenant removes checks, finished requests and cached verdicts and extractions older than DURATION (30d, 720h), then the search answers, pages and page snapshots retrieved from the web before then. Pending requests are kept, and so are the snapshots of pages that a remaining check cites.")
	older := fs.String("older-than", "", "age of the records to remove, e.g. 30d or 720h (required)")
	if _, err := parseStoreFlags(a, fs, args, 0); err != nil {
		return err
	}
	if *older == "" {
		return usagef("--older-than is required, e.g. --older-than 90d")
	}
	d, err := parseAge(*older)
	if err != nil || d <= 0 {
		return usagef("--older-than %q: want a positive duration such as 30d or 720h", *older)
	}
	db, err := openData(ctx, a, true)
	if err != nil {
		return err
	}
	defer db.Close()
	cutoff := time.Now().Add(-d)
	st, err := db.Prune(ctx, cutoff)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "Removed records older than %s: %d checks, %d finished requests, %d cached verdicts, %d cached extractions, %d cached web results and page snapshots.\n",
		cutoff.UTC().Format("2006-01-02 15:04Z"), st.Checks, st.Requests, st.Verdicts, st.Extractions, st.Web)
	return nil
}
