package main

import (
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
)

func TestPruneCommand(t *testing.T) {
	e := newStEnv(t)
	old := stCheck("cli", "ann", "old", time.Now().Add(-40*24*time.Hour), factcheck.Supported)
	recent := stCheck("cli", "ann", "recent", time.Now().Add(-time.Hour), factcheck.Supported)
	e.seed(old, recent)
	stdout, stderr, code := e.run("prune", "--older-than", "30d")
	if code != exitOK || !strings.Contains(stdout, ": 1 checks,") {
		t.Fatalf("prune: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, _, _ = e.run("history")
	if strings.Contains(stdout, old.ID) || !strings.Contains(stdout, recent.ID) {
		t.Errorf("history after prune:\n%s", stdout)
	}
	for _, args := range [][]string{{"prune"}, {"prune", "--older-than", "soon"}, {"prune", "--older-than", "0s"}} {
		if _, stderr, code := e.run(args...); code != exitUsage || stderr == "" {
			t.Errorf("%v: code %d, stderr %q", args, code, stderr)
		}
	}
}
