package main

import (
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
)

func TestForgetCommand(t *testing.T) {
	e := newStEnv(t)
	mine := stCheck("T1", "U1", "mine", stT0, factcheck.Supported)
	theirs := stCheck("T1", "U2", "theirs", stT0, factcheck.Supported)
	elsewhere := stCheck("T2", "U1", "elsewhere", stT0, factcheck.Supported)
	e.seed(mine, theirs, elsewhere)
	stdout, stderr, code := e.run("forget", "--user", "U1", "--tenant", "T1")
	if code != exitOK || !strings.Contains(stdout, "Forgot user U1 in tenant T1: 1 checks, 0 feedback notes, 0 requests") {
		t.Fatalf("forget: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if stdout, _, _ := e.run("history", "--tenant", "T1"); strings.Contains(stdout, mine.ID) || !strings.Contains(stdout, theirs.ID) {
		t.Errorf("T1 history after forget:\n%s", stdout)
	}
	if stdout, _, _ := e.run("history", "--tenant", "T2"); !strings.Contains(stdout, elsewhere.ID) {
		t.Errorf("forget in T1 touched T2:\n%s", stdout)
	}
	if _, stderr, code := e.run("forget"); code != exitUsage || !strings.Contains(stderr, "--user is required") {
		t.Errorf("forget without --user or --tenant: code %d, stderr %q", code, stderr)
	}
	// --tenant alone deletes everything of that tenant, and nothing else.
	if stdout, stderr, code := e.run("forget", "--tenant", "T1"); code != exitOK || !strings.Contains(stdout, "Forgot tenant T1: 1 checks") {
		t.Errorf("forget --tenant T1: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if stdout, _, _ := e.run("history", "--tenant", "T1"); strings.Contains(stdout, theirs.ID) {
		t.Errorf("T1 history after forgetting the tenant:\n%s", stdout)
	}
	if stdout, _, _ := e.run("history", "--tenant", "T2"); !strings.Contains(stdout, elsewhere.ID) {
		t.Errorf("forgetting T1 touched T2:\n%s", stdout)
	}
}
