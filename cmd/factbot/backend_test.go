package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/postgres"
)

// TestCheckAndHistoryOnPostgres runs factbot check, then history, prune and
// backup, with FACTBOT_DB naming a PostgreSQL database: the commands choose
// the backend from it.
func TestCheckAndHistoryOnPostgres(t *testing.T) {
	dsn := testPostgres(t)
	w := newWorld(t, wallFirst(func(r *geminitest.Request) geminitest.Reply {
		if r.Turns() == 0 {
			return searchCall("great wall visible from space")
		}
		return verdictReply("unverifiable", "low", "Not enough evidence.")
	}))
	w.env["FACTBOT_DB"] = dsn
	if _, stderr, code := w.run("check", wallClaim); code != exitOK {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	models := w.gemini.Calls()
	// The verdict cache is PostgreSQL's: the same claim again calls no model.
	if _, stderr, code := w.run("check", wallClaim); code != exitOK {
		t.Fatalf("second check: exit %d\n%s", code, stderr)
	}
	if got := w.gemini.Calls() - models; got != 0 {
		t.Errorf("second check made %d model calls, want 0 (cached in PostgreSQL)", got)
	}
	out, stderr, code := w.run("history", "--json")
	if code != exitOK {
		t.Fatalf("history: exit %d\n%s", code, stderr)
	}
	var hist []map[string]any
	if err := json.Unmarshal([]byte(out), &hist); err != nil {
		t.Fatalf("history --json: %v\n%s", err, out)
	}
	if len(hist) != 2 {
		t.Errorf("history has %d checks, want 2", len(hist))
	}

	id, _ := hist[0]["id"].(string)
	if out, stderr, code := w.run("show", id); code != exitOK || !strings.Contains(out, "Great Wall") {
		t.Errorf("show %s: exit %d\n%s%s", id, code, out, stderr)
	}
	if out, stderr, code := w.run("export"); code != exitOK || strings.Count(out, "\n") != 2 {
		t.Errorf("export: exit %d, want 2 lines:\n%s%s", code, out, stderr)
	}

	// The checks are in PostgreSQL, not in a bbolt file.
	db, err := postgres.Open(context.Background(), dsn, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := db.History(context.Background(), cliTenant, store.HistoryQuery{})
	db.Close()
	if err != nil || len(h) != 2 {
		t.Errorf("PostgreSQL history: %d checks, %v; want 2", len(h), err)
	}

	// backup is bbolt's: it says to use pg_dump.
	_, stderr, code = w.run("backup", t.TempDir()+"/copy")
	if code != exitUsage || !strings.Contains(stderr, "pg_dump") {
		t.Errorf("backup on PostgreSQL: exit %d, stderr %q; want exit %d naming pg_dump", code, stderr, exitUsage)
	}
	if _, stderr, code := w.run("prune", "--older-than", "1d"); code != exitOK {
		t.Errorf("prune on PostgreSQL: exit %d\n%s", code, stderr)
	}
	if out, stderr, code := w.run("forget", "--tenant", cliTenant); code != exitOK {
		t.Errorf("forget --tenant on PostgreSQL: exit %d\n%s%s", code, out, stderr)
	}
	if out, _, _ := w.run("history", "--json"); strings.TrimSpace(out) != "[]" && strings.TrimSpace(out) != "null" {
		t.Errorf("history after forget --tenant: %s", out)
	}
}

func TestOpenBackendUnreachablePostgres(t *testing.T) {
	env := map[string]string{"FACTBOT_DB": "postgres://factbot@/nodb?host=" + t.TempDir() + "&connect_timeout=1"}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	_, err = openBackend(context.Background(), &app{}, cfg)
	var ce *usererr.Config
	if !errors.As(err, &ce) || ce.Var != "FACTBOT_DB" {
		t.Fatalf("openBackend of an unreachable database: %v; want a *usererr.Config naming FACTBOT_DB", err)
	}
}

// TestManyWorkspacesPostgres: multi-workspace Slack keeps its
// installations on PostgreSQL as on bbolt: config counts them, rotate-key
// re-encrypts them.
func TestManyWorkspacesPostgres(t *testing.T) {
	dsn := testPostgres(t)
	db, err := postgres.Open(context.Background(), dsn, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	kr, err := keyring.New(bytes.Repeat([]byte{1}, keyring.KeySize)) // testKey1
	if err != nil {
		t.Fatal(err)
	}
	inst := &store.Installation{Platform: "slack", ID: "T1", Name: "Acme", BotToken: "xoxb-secret", InstalledAt: time.Now()}
	if err := db.Installations(kr).Put(context.Background(), inst); err != nil {
		t.Fatal(err)
	}
	db.Close()
	env := map[string]string{
		"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "client-secret", "SLACK_APP_TOKEN": "xapp-test",
		"FACTBOT_ENCRYPTION_KEY": testKey1, "FACTBOT_PUBLIC_URL": "https://factbot.example",
		"FACTBOT_DB": dsn, "FACTBOT_HTTP_ADDR": "127.0.0.1:0", "GEMINI_API_KEY": "k",
	}
	if code, out, errs := runCmd(t, env, "config"); code != exitOK || !strings.Contains(out, "Slack workspaces installed: 1") || strings.Contains(out+errs, "client-secret") {
		t.Errorf("config on PostgreSQL: exit %d\n%s%s", code, out, errs)
	}
	env["FACTBOT_ENCRYPTION_KEY"], env["FACTBOT_ENCRYPTION_KEY_OLD"] = testKey2, testKey1
	if code, out, errs := runCmd(t, env, "rotate-key"); code != exitOK || !strings.Contains(out, "Re-encrypted 1 installations") {
		t.Errorf("rotate-key on PostgreSQL: exit %d\n%s%s", code, out, errs)
	}
}
