package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func TestShowCommand(t *testing.T) {
	e := newStEnv(t)
	c := stCheck("cli", "ann", "The Eiffel Tower is 330 m tall", stT0, factcheck.Supported)
	c.RequestKey = "cli:1"
	other := stCheck("T9", "ann", "secret", stT0, factcheck.Supported)
	e.seed(c, other)

	stdout, stderr, code := e.run("show", c.ID)
	if code != exitOK {
		t.Fatalf("show: code %d, stderr %q", code, stderr)
	}
	for _, want := range []string{
		"Check " + c.ID, "User:     ann", "Request:  cli:1", "The Eiffel Tower is 330 m tall",
		"[supports] Example A <https://example.org/a>", `"it is so" (quote found in the page)`,
		"[refutes] Example B <https://example.com/b>", `"it is not" (quote NOT found in the page)`,
		"2026-11-29 12:00:00Z  read       https://example.org/a sha256:abc123 cited",
		`web_search {"query":"x"}, 100 bytes`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("show output lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, code = e.run("show", "--json", c.ID)
	var got store.Check
	if err := jsonUnmarshal(stdout, &got); code != exitOK || err != nil {
		t.Fatalf("show --json: code %d, %v", code, err)
	}
	if diff := cmp.Diff(c, &got, cmpopts.IgnoreUnexported(factcheck.Verdict{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("show --json (-want +got):\n%s", diff)
	}
	// Another tenant's check is not shown to cli.
	if _, stderr, code := e.run("show", other.ID); code != exitFailed || !strings.Contains(stderr, "no check") {
		t.Errorf("show of T9's check as cli: code %d, stderr %q", code, stderr)
	}
	if _, _, code := e.run("show", other.ID, "--tenant", "T9"); code != exitOK {
		t.Errorf("show --tenant T9: code %d", code)
	}
	if _, _, code := e.run("show"); code != exitUsage {
		t.Errorf("show without ID: code %d", code)
	}
}
