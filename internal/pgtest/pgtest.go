// Package pgtest gives tests a throwaway PostgreSQL database on the server
// named by FACTBOT_TEST_POSTGRES, and drops it so that no other session on
// that server can make the drop fail.
//
// Tests that use it skip, saying how to get PostgreSQL, when the variable is
// unset. .ci/run installs Debian's postgresql and starts a cluster for them.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// EnvVar names the PostgreSQL server the tests use.
const EnvVar = "FACTBOT_TEST_POSTGRES"

// SkipMessage is what a test without PostgreSQL says when it skips.
const SkipMessage = "no PostgreSQL: set " + EnvVar + "=postgres://… (in CI, .ci/run starts one; locally: apt-get install postgresql and see .ci/run)"

// ServerDSN returns the server's URL, skipping tb when there is none.
func ServerDSN(tb testing.TB) string {
	tb.Helper()
	dsn := os.Getenv(EnvVar)
	if dsn == "" {
		tb.Skip(SkipMessage)
	}
	return dsn
}

// DSN creates an empty database, dropped when tb ends, and returns its URL.
func DSN(tb testing.TB) string {
	tb.Helper()
	server := ServerDSN(tb)
	name, drop, err := Create(context.Background(), server, "factbot_t_")
	if err != nil {
		tb.Fatalf("%s: %v", EnvVar, err)
	}
	tb.Cleanup(func() {
		if err := drop(); err != nil {
			tb.Errorf("%v", err)
		}
	})
	u, err := url.Parse(server)
	if err != nil {
		tb.Fatalf("%s: %v", EnvVar, err)
	}
	u.Path = "/" + name
	return u.String()
}

// Config is DSN as a pool configuration.
func Config(tb testing.TB) *pgxpool.Config {
	tb.Helper()
	cfg, err := pgxpool.ParseConfig(DSN(tb))
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}

// Create makes a database named prefix plus a random suffix on server and
// returns its name and the function that drops it.
func Create(ctx context.Context, server, prefix string) (name string, drop func() error, err error) {
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		return "", nil, err
	}
	defer admin.Close(ctx)
	b := make([]byte, 6)
	rand.Read(b)
	name = prefix + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	return name, func() error { return Drop(server, name) }, nil
}

// Drop drops database name on server. It first forbids new connections and
// ends the ones of the test's own role; DROP … WITH (FORCE) then ends the
// rest. That needs the right to signal other roles' backends (an autovacuum
// worker, say: SQLSTATE 42501 without pg_signal_backend), so a refusal, or
// a database still in use (55006), is retried for a few seconds.
func Drop(server, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, server)
	if err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	defer c.Close(ctx)
	ident := pgx.Identifier{name}.Sanitize()
	_, _ = c.Exec(ctx, "ALTER DATABASE "+ident+" ALLOW_CONNECTIONS false")
	_, _ = c.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = $1 AND usename = current_user AND pid <> pg_backend_pid()`, name)
	for delay := 50 * time.Millisecond; ; delay *= 2 {
		_, err = c.Exec(ctx, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)")
		var pgErr *pgconn.PgError
		if err == nil || !errors.As(err, &pgErr) || (pgErr.Code != "42501" && pgErr.Code != "55006") {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("drop database %s: %w (last: %w)", name, ctx.Err(), err)
		case <-time.After(min(delay, time.Second)):
		}
	}
	if err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}
