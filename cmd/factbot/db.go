package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/factbot-dev/factbot/internal/config"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/admin"
)

// openStore opens the configured database (FACTBOT_DB) with the verdict
// freshness FACTBOT_CACHE_TTL. A file held by another process or written
// by a newer factbot is a *usererr.Config naming FACTBOT_DB that wraps
// store.ErrLocked or store.ErrNewerSchema.
func openStore(cfg *config.Config) (*store.DB, error) {
	db, err := store.Open(cfg.DB, store.Options{CacheTTL: cfg.CacheTTL})
	if errors.Is(err, store.ErrLocked) || errors.Is(err, store.ErrNewerSchema) {
		return nil, &usererr.Config{Var: "FACTBOT_DB", Msg: err.Error(), Err: err}
	}
	return db, err
}

// openExistingStore is openStore for commands that only make sense on a
// database that exists: it does not create an empty file.
func openExistingStore(cfg *config.Config) (*store.DB, error) {
	if _, err := os.Stat(cfg.DB); errors.Is(err, os.ErrNotExist) {
		return nil, &usererr.Config{Var: "FACTBOT_DB", Msg: fmt.Sprintf("no database at %s", cfg.DB), Hint: "run factbot check or factbot serve first, or set FACTBOT_DB to the file"}
	}
	return openStore(cfg)
}

// openMaintained opens the existing database for backup, prune and forget:
// the file itself, or, while 'factbot serve' holds it, serve's admin socket
// next to it (internal/admin), so that maintenance works on a running bot.
func openMaintained(cfg *config.Config) (admin.Store, func() error, error) {
	return admin.Open(cfg.DB, func() (*store.DB, error) { return openExistingStore(cfg) })
}

// loadAndOpen loads the configuration and opens the existing database:
// the start of every command that looks after history.
func loadAndOpen(a *app) (*store.DB, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	return openExistingStore(cfg)
}

// parseAge parses a Go duration ("36h", "90m") or a number of days ("30d").
func parseAge(s string) (time.Duration, error) { return config.ParseAge(s) }

// parseSince parses a --since value: a date (2026-11-01), a time
// (RFC 3339), or an age ("7d", "36h") counted back from now.
func parseSince(s string, now time.Time) (time.Time, error) {
	for _, layout := range []string{"2006-01-02", time.RFC3339, "2006-01-02T15:04", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	if d, err := parseAge(s); err == nil {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--since %q: want a date (2026-11-01), a time (2026-11-01T09:00:00Z) or an age (7d, 36h)", s)
}

// newStoreFlags makes a command's flag set with the --tenant flag.
func newStoreFlags(a *app, name, usage string) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	tenant := fs.String("tenant", cliTenant, "the tenant: a Slack team id, a Discord guild id, or cli for the terminal")
	fs.Usage = func() {
		fmt.Fprintf(a.stderr, "Usage: %s\n\nFlags:\n", usage)
		fs.PrintDefaults()
	}
	return fs, tenant
}

// parseStoreFlags parses args (flags anywhere) and returns the positional
// arguments, of which there must be npos.
func parseStoreFlags(a *app, fs *flag.FlagSet, args []string, npos int) ([]string, error) {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	if len(pos) != npos {
		fmt.Fprintf(a.stderr, "factbot %s: want %d argument(s), got %d\n", fs.Name(), npos, len(pos))
		fs.Usage()
		return nil, &usageError{}
	}
	return pos, nil
}
