package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/eval"
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

func TestExportFeedback(t *testing.T) {
	e := newStEnv(t)
	a := stCheck("cli", "ann", "The Eiffel Tower is 330 m tall and was built in 1889", stT0, factcheck.Supported)
	second := *a.Report.Claims[0]
	second.Claim, second.Verdict = "The Eiffel Tower was built in 1889", factcheck.Contradicted
	a.Report.Claims[0].Claim = "The Eiffel Tower is 330 m tall"
	a.Report.Claims = append(a.Report.Claims, &second)
	b := stCheck("cli", "bob", "No feedback here", stT0.Add(time.Second), factcheck.Supported)
	c := stCheck("cli", "cat", "Bad index", stT0.Add(2*time.Second), factcheck.Contested)
	other := stCheck("T9", "eve", "Other tenant's claim", stT0, factcheck.Supported)
	e.seed(a, b, c, other)
	db, err := store.Open(e.path, store.Options{})
	mustOK(t, err)
	at := stT0.Add(time.Hour)
	for _, f := range []struct {
		tenant, id string
		fb         store.Feedback
	}{
		{"cli", a.ID, store.Feedback{User: "U2", Claim: 0, Note: " It is 300 m <without> antennas. ", At: at}},
		{"cli", a.ID, store.Feedback{User: "U3", Claim: -1, At: at.Add(time.Minute)}},
		{"cli", c.ID, store.Feedback{User: "U4", Claim: 4, Note: "no such claim", At: at}},
		{"T9", other.ID, store.Feedback{User: "U9", Claim: -1, Note: "wrong", At: at}},
	} {
		mustOK(t, db.AddFeedback(context.Background(), f.tenant, f.id, f.fb))
	}
	mustOK(t, db.Close())

	stdout, stderr, code := e.run("export", "--feedback")
	if code != exitOK {
		t.Fatalf("export --feedback: code %d, stderr %q", code, stderr)
	}
	want := []feedbackCase{
		{ID: a.ID + "-1", Claim: "The Eiffel Tower is 330 m tall", PreviousVerdict: "supported",
			Notes: "flagged wrong by U2 at 2026-11-29T13:00:00Z: was supported; It is 300 m <without> antennas. | flagged wrong by U3 at 2026-11-29T13:01:00Z: was supported"},
		{ID: a.ID + "-2", Claim: "The Eiffel Tower was built in 1889", PreviousVerdict: "contradicted",
			Notes: "flagged wrong by U3 at 2026-11-29T13:01:00Z: was contradicted"},
	}
	var got []feedbackCase
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	for dec.More() {
		var fc feedbackCase
		if err := dec.Decode(&fc); err != nil {
			t.Fatal(err)
		}
		got = append(got, fc)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("export --feedback (-want +got):\n%s", diff)
	}
	if lines := strings.Split(strings.TrimSpace(stdout), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], `{"id":"`+a.ID+`-2","claim":"The Eiffel Tower was built in 1889","label":"",`) {
		t.Errorf("raw lines: %q", lines)
	}
	for _, s := range []string{"on claim 5 of check " + c.ID + ", which has 1 claims: skipped", "Exported 2 flagged claims of 1 checks of tenant cli (1 remarks", `Each "label" is empty`} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}

	// The eval loader refuses the empty labels, and takes the file once
	// someone has labeled it; it ignores previous_verdict.
	if _, err := eval.LoadJSONL(strings.NewReader(stdout)); err == nil || !strings.Contains(err.Error(), `label "" is not one of`) {
		t.Errorf("eval.LoadJSONL of the unlabeled export: %v, want the empty label refused", err)
	}
	cases, err := eval.LoadJSONL(strings.NewReader(strings.ReplaceAll(stdout, `"label":""`, `"label":"contradicted"`)))
	mustOK(t, err)
	wantCases := []eval.Case{
		{ID: want[0].ID, Claim: want[0].Claim, Label: factcheck.Contradicted, Notes: want[0].Notes},
		{ID: want[1].ID, Claim: want[1].Claim, Label: factcheck.Contradicted, Notes: want[1].Notes},
	}
	if diff := cmp.Diff(wantCases, cases); diff != "" {
		t.Errorf("labeled export through eval.LoadJSONL (-want +got):\n%s", diff)
	}

	stdout, _, _ = e.run("export", "--feedback", "--tenant", "T9")
	if !strings.Contains(stdout, `"id":"`+other.ID+`-1","claim":"Other tenant's claim"`) || strings.Contains(stdout, "Eiffel") {
		t.Errorf("export --feedback --tenant T9: %s", stdout)
	}
	if _, stderr, code := e.run("export", "--feedback", "--format", "csv"); code != exitUsage || !strings.Contains(stderr, "drop --format") {
		t.Errorf("export --feedback --format csv: code %d, stderr %q", code, stderr)
	}
	if stdout, stderr, code := e.run("export", "--feedback", "--tenant", "T0"); code != exitOK || stdout != "" || !strings.Contains(stderr, "Exported 0 flagged claims") {
		t.Errorf("export --feedback of a tenant without feedback: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// A thumbs-down on Slack's feedback buttons is recorded as "Wrong
// verdict?" is (bot.Service.Feedback with Once set, see bot/slack), and
// export --feedback exports it like any other.
func TestExportFeedbackThumbsDown(t *testing.T) {
	e := newStEnv(t)
	a := stCheck("T1", "ann", "The Eiffel Tower is 330 m tall", stT0, factcheck.Supported)
	e.seed(a)
	db, err := store.Open(e.path, store.Options{})
	mustOK(t, err)
	f := store.Feedback{User: "U5", Claim: -1, Note: "wrong verdict", Once: "slack_feedback_buttons", At: stT0.Add(time.Hour)}
	mustOK(t, db.AddFeedback(context.Background(), "T1", a.ID, f))
	if err := db.AddFeedback(context.Background(), "T1", a.ID, f); !errors.Is(err, store.ErrFeedbackExists) {
		t.Errorf("the thumbs-down again: %v, want ErrFeedbackExists", err)
	}
	mustOK(t, db.Close())
	stdout, stderr, code := e.run("export", "--feedback", "--tenant", "T1")
	want := `{"id":"` + a.ID + `-1","claim":"The Eiffel Tower is 330 m tall","label":"","previous_verdict":"supported","notes":"flagged wrong by U5 at 2026-11-29T13:00:00Z: was supported; wrong verdict"}`
	if code != exitOK || strings.TrimSpace(stdout) != want {
		t.Errorf("export --feedback: code %d, stderr %q\n got %s\nwant %s", code, stderr, stdout, want)
	}
}
