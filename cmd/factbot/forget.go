package main

import (
	"context"
	"fmt"
)

func init() {
	register("forget", command{
		summary: "delete what one user asked, for privacy requests: factbot forget --user U --tenant T",
		run:     runForget,
	})
}

func runForget(ctx context.Context, a *app, args []string) error {
	fs, tenant := newStoreFlags(a, "forget", "factbot forget --user U [--tenant T]\n\nDeletes the user's checks, requests, and the cached verdicts of their claims, in one tenant.")
	user := fs.String("user", "", "the user id as shown by factbot history (required)")
	if _, err := parseStoreFlags(a, fs, args, 0); err != nil {
		return err
	}
	if *user == "" {
		return usagef("--user is required (the id shown by factbot history)")
	}
	db, err := loadAndOpen(a)
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := db.Forget(ctx, *tenant, *user)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "Forgot user %s in tenant %s: %d checks, %d requests, %d cached verdicts, %d cached extractions deleted.\n",
		*user, *tenant, st.Checks, st.Requests, st.Verdicts, st.Extractions)
	return nil
}
