package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/postgres"
)

const migrateUsage = `factbot migrate [--to postgres://…] [--from FILE]

Without --from, applies the schema migrations the PostgreSQL database
(--to, or FACTBOT_DB) lacks; every replica also does this when it opens the
database, under a lock. A bbolt file migrates itself when it is opened.

With --from FILE, copies the bbolt database FILE into PostgreSQL: every
tenant's requests, checks with their feedback, cached verdicts and
extractions, and the web cache with its page snapshots. Records are
upserted, so the copy can be run again (e.g. after an interruption); the
counts are checked afterwards. Stop 'factbot serve' on the file first.`

func runMigrate(ctx context.Context, a *app, args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	from := fs.String("from", "", "a bbolt database file to copy into PostgreSQL")
	to := fs.String("to", "", "the PostgreSQL database, postgres://… (default FACTBOT_DB)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s\n\nFlags:\n", migrateUsage)
		fs.PrintDefaults()
	}
	if _, err := parseStoreFlags(a, fs, args, 0); err != nil {
		return err
	}
	dsn := *to
	if dsn == "" {
		cfg, err := a.config()
		if err != nil {
			return err
		}
		dsn = cfg.DB
	}
	if !postgres.IsDSN(dsn) {
		if *to != "" {
			return usagef("--to %q: want a PostgreSQL URL, postgres://…", *to)
		}
		return &usererr.Config{Var: "FACTBOT_DB", Msg: fmt.Sprintf("%s is a bbolt file, which migrates itself when opened", dsn),
			Hint: "set FACTBOT_DB or --to to postgres://… to migrate a PostgreSQL database"}
	}
	var src *store.DB
	if *from != "" {
		if _, err := os.Stat(*from); err != nil {
			return usagef("--from %s: %v", *from, err)
		}
		var err error
		src, err = store.Open(*from, store.Options{})
		if err = namedHolder(err, *from); errors.Is(err, store.ErrLocked) {
			return usagef("%v", err)
		}
		if err != nil {
			return err
		}
		defer src.Close()
	}
	db, err := postgres.Open(ctx, dsn, store.Options{})
	if err != nil {
		return fmt.Errorf("%s: %w", redact(dsn), err)
	}
	defer db.Close()
	// Open applied what was missing; Migrate reports the schema is current.
	if _, err := db.Migrate(ctx); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "The schema of %s is up to date.\n", redact(dsn))
	if src == nil {
		return nil
	}
	st, err := db.CopyFrom(ctx, src)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "Copied %s: %d tenants, %d requests, %d checks with %d notes of feedback, %d cached verdicts and extractions, %d web cache entries, %d page snapshots. The counts match.\n",
		*from, st.Tenants, st.Requests, st.Checks, st.Feedback, st.Cache, st.Web, st.Snapshots)
	return nil
}

// redact returns a database URL without its password.
func redact(dsn string) string {
	scheme, rest, ok := strings.Cut(dsn, "://")
	if !ok {
		return dsn
	}
	at := strings.LastIndex(rest, "@")
	if slash := strings.Index(rest, "/"); at < 0 || slash >= 0 && slash < at {
		return dsn
	}
	if user, _, hasPw := strings.Cut(rest[:at], ":"); hasPw {
		return scheme + "://" + user + ":xxxxx" + rest[at:]
	}
	return dsn
}
