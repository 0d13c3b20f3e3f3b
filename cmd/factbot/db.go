package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
)

// Database defaults (the README's configuration table).
const (
	defaultDBPath   = "factbot.db"
	defaultCacheTTL = 168 * time.Hour
)

// dbPath returns FACTBOT_DB or its default.
func dbPath(a *app) string {
	if p := a.getenv("FACTBOT_DB"); p != "" {
		return p
	}
	return defaultDBPath
}

// openStore opens the database named by FACTBOT_DB (default factbot.db)
// with the verdict freshness FACTBOT_CACHE_TTL (default 168h; "30d" works
// too). A file held by another process gives an error wrapping
// store.ErrLocked that says so; a bad FACTBOT_CACHE_TTL a
// *usererr.Config. Commands report either with exit status 2.
func openStore(a *app) (*store.DB, error) {
	ttl := defaultCacheTTL
	if s := a.getenv("FACTBOT_CACHE_TTL"); s != "" {
		d, err := parseAge(s)
		if err != nil || d <= 0 {
			return nil, &usererr.Config{Var: "FACTBOT_CACHE_TTL", Msg: fmt.Sprintf("%q is not a positive duration", s), Hint: "e.g. 168h or 7d", Err: err}
		}
		ttl = d
	}
	return store.Open(dbPath(a), store.Options{CacheTTL: ttl})
}

// openExistingStore is openStore for commands that only make sense on a
// database that exists: it does not create an empty file.
func openExistingStore(a *app) (*store.DB, error) {
	p := dbPath(a)
	if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
		return nil, &usererr.Config{Var: "FACTBOT_DB", Msg: fmt.Sprintf("no database at %s", p), Hint: "run factbot check or factbot serve first, or set FACTBOT_DB to the file"}
	}
	return openStore(a)
}

// storeFailed prints err and returns the exit status: 2 for a locked file,
// a configuration or usage problem, 1 for anything else.
func storeFailed(a *app, err error) int {
	fmt.Fprintf(a.stderr, "factbot: %v\n", err)
	var ce *usererr.Config
	if errors.Is(err, store.ErrLocked) || errors.As(err, &ce) || errors.Is(err, store.ErrNewerSchema) {
		return exitUsage
	}
	if _, ok := usererr.Message(err); ok {
		return exitUsage
	}
	return exitFailed
}

// parseAge parses a Go duration ("36h", "90m") or a number of days ("30d").
func parseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(d, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q: want a duration such as 30d or 72h", s)
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q: want a duration such as 30d or 72h", s)
	}
	return d, nil
}

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
// arguments, or an exit status when the command should stop.
func parseStoreFlags(a *app, fs *flag.FlagSet, args []string, npos int) ([]string, int, bool) {
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return nil, code, false
	}
	if len(pos) != npos {
		fmt.Fprintf(a.stderr, "factbot %s: want %d argument(s), got %d\n", fs.Name(), npos, len(pos))
		fs.Usage()
		return nil, exitUsage, false
	}
	return pos, 0, true
}
