package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/factbot-dev/factbot/store"
)

func runForget(ctx context.Context, a *app, args []string) error {
	fs, tenant := newStoreFlags(a, "forget", "factbot forget --user U [--tenant T]\n       factbot forget --tenant T\n\nDeletes what the user asked and everything their requests caused: checks, feedback, requests, cached verdicts and extractions, and the search answers, pages and snapshots no other check cites. Without --tenant, in every tenant, each named with what was deleted there; with it, in that tenant only. With --tenant alone, deletes everything of that tenant (a workspace or server that left).")
	user := fs.String("user", "", "the user id as shown by factbot history (required)")
	if _, err := parseStoreFlags(a, fs, args, 0); err != nil {
		return err
	}
	tenantGiven := false
	fs.Visit(func(f *flag.Flag) { tenantGiven = tenantGiven || f.Name == "tenant" })
	if *user == "" && !tenantGiven {
		return usagef("--user is required (the id shown by factbot history), or --tenant alone to delete a whole tenant")
	}
	db, err := openData(ctx, a, true)
	if err != nil {
		return err
	}
	defer db.Close()
	switch {
	case *user == "":
		st, err := db.ForgetTenant(ctx, *tenant)
		if err != nil {
			return err
		}
		printForgot(a.stdout, "tenant "+*tenant, st)
		if st.Installations > 0 {
			fmt.Fprintf(a.stdout, "Its installation of the app, with its tokens, deleted too: the bot no longer answers there until it is added again.\n")
		}
		return nil
	case tenantGiven:
		st, err := db.Forget(ctx, *tenant, *user)
		if err != nil {
			return err
		}
		printForgot(a.stdout, "user "+*user+" in tenant "+*tenant, st)
		return nil
	}
	return forgetEverywhere(ctx, a.stdout, db, *user)
}

// forgetEverywhere forgets user in every tenant that has records, printing
// a line for each tenant where something was deleted, then the total.
func forgetEverywhere(ctx context.Context, w io.Writer, db maintenance, user string) error {
	tenants, err := db.UserTenants(ctx)
	if err != nil {
		return fmt.Errorf("list tenants: %w", err)
	}
	var total store.ForgetStats
	where := 0
	for _, t := range tenants {
		st, err := db.Forget(ctx, t, user)
		if err != nil {
			return fmt.Errorf("forget user %s in tenant %s (the tenants before it are done; run the command again): %w", user, t, err)
		}
		if st == (store.ForgetStats{}) {
			continue
		}
		where++
		printForgot(w, "user "+user+" in tenant "+t, st)
		total = addForget(total, st)
	}
	if where == 0 {
		fmt.Fprintf(w, "Nothing of user %s found in any of the %d tenants; nothing deleted.\n", user, len(tenants))
		return nil
	}
	printForgot(w, fmt.Sprintf("user %s in %d of %d tenants, in all", user, where, len(tenants)), total)
	return nil
}

func printForgot(w io.Writer, who string, st store.ForgetStats) {
	fmt.Fprintf(w, "Forgot %s: %d checks, %d feedback notes, %d requests, %d cached verdicts, %d cached extractions, %d cached searches, %d cached pages, %d page snapshots deleted.\n",
		who, st.Checks, st.Feedback, st.Requests, st.Verdicts, st.Extractions, st.Searches, st.Pages, st.Snapshots)
}

func addForget(a, b store.ForgetStats) store.ForgetStats {
	return store.ForgetStats{Checks: a.Checks + b.Checks, Requests: a.Requests + b.Requests, Verdicts: a.Verdicts + b.Verdicts,
		Extractions: a.Extractions + b.Extractions, Feedback: a.Feedback + b.Feedback, Searches: a.Searches + b.Searches,
		Pages: a.Pages + b.Pages, Snapshots: a.Snapshots + b.Snapshots, Installations: a.Installations + b.Installations}
}
