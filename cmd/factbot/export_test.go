package main

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

func TestExportCommand(t *testing.T) {
	e := newStEnv(t)
	a := stCheck("cli", "ann", "=HYPERLINK(\"http://evil\") is a claim", stT0, factcheck.Supported)
	b := stCheck("cli", "bob", "Second", stT0.Add(1e9), factcheck.Contradicted)
	other := stCheck("T9", "eve", "other tenant", stT0, factcheck.Supported)
	e.seed(a, b, other)

	stdout, stderr, code := e.run("export")
	if code != exitOK {
		t.Fatalf("export: code %d, stderr %q", code, stderr)
	}
	var ids []string
	dec := json.NewDecoder(strings.NewReader(stdout))
	for dec.More() {
		var c store.Check
		if err := dec.Decode(&c); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	if diff := cmp.Diff([]string{a.ID, b.ID}, ids); diff != "" {
		t.Errorf("jsonl export, oldest first, cli only (-want +got):\n%s", diff)
	}
	stdout, _, code = e.run("export", "--format", "csv")
	if code != exitOK {
		t.Fatalf("export csv: code %d", code)
	}
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || !cmp.Equal(rows[0], csvHeader) {
		t.Fatalf("csv rows: %q", rows)
	}
	if got := rows[1][9]; got != `'=HYPERLINK("http://evil") is a claim` {
		t.Errorf("formula cell not neutralised: %q", got)
	}
	if rows[2][12] != "contradicted" || rows[2][7] != "bob" {
		t.Errorf("csv row: %q", rows[2])
	}
	if stdout, _, _ := e.run("export", "--tenant", "T9"); !strings.Contains(stdout, "other tenant") || strings.Contains(stdout, "Second") {
		t.Errorf("export --tenant T9: %s", stdout)
	}
	if _, _, code := e.run("export", "--format", "xml"); code != exitUsage {
		t.Errorf("export --format xml: code %d", code)
	}
}
