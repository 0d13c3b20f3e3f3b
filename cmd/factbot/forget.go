package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/factbot-dev/factbot/store"
)

func init() {
	register("forget", command{
		summary: "delete what one user asked and what it caused (privacy requests), or a whole tenant: factbot forget --user U [--tenant T] | --tenant T",
		run:     runForget,
	})
}

func runForget(ctx context.Context, a *app, args []string) error {
	fs, tenant := newStoreFlags(a, "forget", "factbot forget --user U [--tenant T]\n       factbot forget --tenant T\n\nDeletes what the user asked in one tenant and everything their requests caused: checks, feedback, requests, cached verdicts and extractions, and the search answers, pages and snapshots no other check cites. With --tenant alone, deletes everything of that tenant (a workspace or server that left).")
	user := fs.String("user", "", "the user id as shown by factbot history (required)")
	if _, err := parseStoreFlags(a, fs, args, 0); err != nil {
		return err
	}
	tenantGiven := false
	fs.Visit(func(f *flag.Flag) { tenantGiven = tenantGiven || f.Name == "tenant" })
	if *user == "" && !tenantGiven {
		return usagef("--user is required (the id shown by factbot history), or --tenant alone to delete a whole tenant")
	}
	cfg, err := a.config()
	if err != nil {
		return err
	}
	db, closeDB, err := openMaintained(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeDB()
	who := "user " + *user + " in tenant " + *tenant
	var st store.ForgetStats
	if *user == "" {
		who = "tenant " + *tenant
		st, err = db.ForgetTenant(ctx, *tenant)
	} else {
		st, err = db.Forget(ctx, *tenant, *user)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "Forgot %s: %d checks, %d feedback notes, %d requests, %d cached verdicts, %d cached extractions, %d cached searches, %d cached pages, %d page snapshots deleted.\n",
		who, st.Checks, st.Feedback, st.Requests, st.Verdicts, st.Extractions, st.Searches, st.Pages, st.Snapshots)
	if st.Installations > 0 {
		fmt.Fprintf(a.stdout, "Its installation of the app, with its tokens, deleted too: the bot no longer answers there until it is added again.\n")
	}
	return nil
}
