package main

import (
	"strings"
	"testing"
	"time"

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

// TestForgetEveryTenant: forget --user without --tenant forgets the user in
// every tenant, says which and how much in each, and touches no one else.
func TestForgetEveryTenant(t *testing.T) {
	e := newStEnv(t)
	inCLI := stCheck("cli", "U1", "from the terminal", stT0, factcheck.Supported)
	inT1 := stCheck("T1", "U1", "in T1", stT0, factcheck.Supported)
	inT1b := stCheck("T1", "U1", "in T1 again", stT0.Add(time.Minute), factcheck.Contradicted)
	inT2 := stCheck("T2", "U1", "in T2", stT0, factcheck.Supported)
	other := stCheck("T3", "U2", "someone else", stT0, factcheck.Supported)
	e.seed(inCLI, inT1, inT1b, inT2, other)
	stdout, stderr, code := e.run("forget", "--user", "U1")
	if code != exitOK {
		t.Fatalf("forget --user U1: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, want := range []string{
		"Forgot user U1 in tenant T1: 2 checks,",
		"Forgot user U1 in tenant T2: 1 checks,",
		"Forgot user U1 in tenant cli: 1 checks,",
		"Forgot user U1 in 3 of 4 tenants, in all: 4 checks,",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("forget --user U1: stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "tenant T3") {
		t.Errorf("forget --user U1 names T3, where U1 asked nothing:\n%s", stdout)
	}
	for _, tenant := range []string{"cli", "T1", "T2"} {
		if stdout, _, _ := e.run("history", "--tenant", tenant); strings.Contains(stdout, "U1") {
			t.Errorf("%s history after forgetting U1 everywhere:\n%s", tenant, stdout)
		}
	}
	if stdout, _, _ := e.run("history", "--tenant", "T3"); !strings.Contains(stdout, other.ID) {
		t.Errorf("forgetting U1 touched U2 in T3:\n%s", stdout)
	}
	// Asked again, nothing is left, and it says so.
	if stdout, _, code := e.run("forget", "--user", "U1"); code != exitOK || !strings.Contains(stdout, "Nothing of user U1 found in any of the ") {
		t.Errorf("forget --user U1 again: code %d, stdout %q", code, stdout)
	}
}
