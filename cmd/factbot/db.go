package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/postgres"
	"github.com/factbot-dev/factbot/web"
)

// backend is what the commands need of the database: the chat core's
// bot.Store, the web pages' web.Store, the engine's verdict and web caches,
// maintenance and export's walk over the checks. *store.DB
// (bbolt, a file) and *postgres.DB (PostgreSQL, shared by replicas) are
// both backends; FACTBOT_DB chooses (openBackend).
type backend interface {
	bot.Store
	web.Store
	factcheck.Cache
	search.Cache
	maintenance
	EachCheck(ctx context.Context, tenant string, fn func(*store.Check) error) error
	PruneEvery(ctx context.Context, interval, retention time.Duration, report func(store.PruneStats, error))
	Installations(kr *keyring.Keyring) *store.Installations
	Close() error
}

var (
	_ backend = (*store.DB)(nil)
	_ backend = (*boltFile)(nil)
	_ backend = (*postgres.DB)(nil)
)

// maintenance is what backup, prune and forget do to a database.
type maintenance interface {
	BackupFile(ctx context.Context, path string) (int64, error)
	Prune(ctx context.Context, cutoff time.Time) (store.PruneStats, error)
	Forget(ctx context.Context, tenant, user string) (store.ForgetStats, error)
	ForgetTenant(ctx context.Context, tenant string) (store.ForgetStats, error)
	// UserTenants lists the tenants that have records (forget --user
	// without --tenant forgets the user in each).
	UserTenants(ctx context.Context) ([]string, error)
}

// isPostgres reports whether FACTBOT_DB names a PostgreSQL database
// (postgres://…) rather than a bbolt file.
func isPostgres(cfg *config.Config) bool { return postgres.IsDSN(cfg.DB) }

// openBackend opens the configured database (FACTBOT_DB): a path is a
// bbolt file, postgres://… (or postgresql://…) a PostgreSQL database,
// whose missing migrations are applied under a lock. The verdict
// freshness is FACTBOT_CACHE_TTL. A bbolt file held by another process or
// written by a newer factbot, and a PostgreSQL database that cannot be
// reached, is a *usererr.Config naming FACTBOT_DB.
func openBackend(ctx context.Context, a *app, cfg *config.Config) (backend, error) {
	opts := store.Options{CacheTTL: cfg.CacheTTL}
	if isPostgres(cfg) {
		db, err := postgres.Open(ctx, cfg.DB, opts)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, &usererr.Config{Var: "FACTBOT_DB", Msg: fmt.Sprintf("cannot open %s: %v", redact(cfg.DB), err),
				Hint: "a reachable PostgreSQL database, postgres://user:password@host:5432/factbot", Err: err}
		}
		return db, nil
	}
	db, err := openBolt(a, cfg)
	if err != nil {
		return nil, err
	}
	return db, nil
}

// openBolt opens the bbolt file FACTBOT_DB, recording the command a runs
// as its holder (holder.go). A file held by another
// process (named, when it recorded itself) or written by a newer factbot
// is a *usererr.Config naming FACTBOT_DB that wraps store.ErrLocked or
// store.ErrNewerSchema.
func openBolt(a *app, cfg *config.Config) (*boltFile, error) {
	db, err := store.Open(cfg.DB, store.Options{CacheTTL: cfg.CacheTTL})
	err = namedHolder(err, cfg.DB)
	if errors.Is(err, store.ErrLocked) || errors.Is(err, store.ErrNewerSchema) {
		return nil, &usererr.Config{Var: "FACTBOT_DB", Msg: err.Error(), Err: err}
	}
	if err != nil {
		return nil, err
	}
	return holdBolt(db, strings.TrimSpace("factbot "+a.command)), nil
}

// errNoBoltFile is the error of a command that needs an existing bbolt
// file when there is none.
func errNoBoltFile(cfg *config.Config) error {
	return &usererr.Config{Var: "FACTBOT_DB", Msg: fmt.Sprintf("no database at %s", cfg.DB), Hint: "run factbot check or factbot serve first, or set FACTBOT_DB to the file"}
}

// openExistingStore opens the existing database itself (not through a
// running serve's admin socket): a bbolt file that is missing is an error
// rather than created empty.
func openExistingStore(ctx context.Context, a *app, cfg *config.Config) (backend, error) {
	if !isPostgres(cfg) {
		if _, err := os.Stat(cfg.DB); errors.Is(err, os.ErrNotExist) {
			return nil, errNoBoltFile(cfg)
		}
	}
	return openBackend(ctx, a, cfg)
}

// openData opens the database for a command that reads or writes
// history or looks after the database (command.db): the one this process
// holds when the command was handed over to it (forward.go), else the
// database itself. With existing, a missing bbolt file is an error rather
// than created empty.
func openData(ctx context.Context, a *app, existing bool) (backend, error) {
	if a.held != nil {
		return heldDB{a.held}, nil
	}
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	if existing {
		return openExistingStore(ctx, a, cfg)
	}
	return openBackend(ctx, a, cfg)
}

// heldDB is the database of the process a command was handed over to: the
// command's Close leaves it open.
type heldDB struct{ backend }

func (heldDB) Close() error { return nil }

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
		fmt.Fprintf(fs.Output(), "Usage: %s\n\nFlags:\n", usage)
		fs.PrintDefaults()
	}
	return fs, tenant
}

// parseNoArgs parses the arguments of a command that takes no flags and no
// arguments; -h prints usage.
func parseNoArgs(a *app, name, usage string, args []string) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	fs.Usage = func() { fmt.Fprintln(fs.Output(), usage) }
	pos, err := parseArgs(a, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	return nil
}

// parseStoreFlags parses args (flags anywhere) and returns the positional
// arguments, of which there must be npos.
func parseStoreFlags(a *app, fs *flag.FlagSet, args []string, npos int) ([]string, error) {
	pos, err := parseArgs(a, fs, args)
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
