package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// A command beside the process that holds the database is handed to it
// whole: its relative paths are the caller's folder's, and its output and
// exit status come back as if it had run here (its standard input too:
// cmd/factbot/admin's tests). Help needs no database and is printed here.
func TestCommandHandedToHolder(t *testing.T) {
	e := newStEnv(t)
	e.seed(stCheck("cli", "ann", "The moon orbits the Earth", stT0, factcheck.Supported))
	db, err := store.Open(e.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	holder := &app{command: "web", getenv: func(k string) string { return map[string]string{"FACTBOT_DB": e.path}[k] }}
	stop := serveAdmin(context.Background(), holder, &config.Config{DB: e.path}, &boltFile{DB: db}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer stop()

	caller := t.TempDir()
	runIn := func(stdin string, args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		getenv := func(k string) string { return map[string]string{"FACTBOT_DB": e.path}[k] }
		code := run(context.Background(), &app{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: getenv, dir: caller}, args)
		return out.String(), errb.String(), code
	}
	if out, errs, code := runIn("", "backup", "copy.db"); code != exitOK || !strings.Contains(out, "Backed up") {
		t.Fatalf("backup with a relative path: %d, %q, %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(caller, "copy.db")); err != nil {
		t.Errorf("the backup is not in the caller's folder: %v", err)
	}
	if out, errs, code := runIn("", "history", "--search", "moon"); code != exitOK || !strings.Contains(out, "The moon orbits the Earth") {
		t.Errorf("history: %d, %q, %q", code, out, errs)
	}
	// A usage error there is one here: exit 2, the message on stderr.
	if out, errs, code := runIn("", "show"); code != exitUsage || !strings.Contains(errs, "factbot show") || out != "" {
		t.Errorf("show without an id: %d, %q, %q", code, out, errs)
	}
	// Help needs no database: it is printed here, on stdout.
	if out, _, code := runIn("", "history", "--help"); code != exitOK || !strings.Contains(out, "Usage") {
		t.Errorf("history --help: %d, %q", code, out)
	}
}
