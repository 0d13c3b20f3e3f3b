package mcp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// TestReportNamesTheEarlierCheck: a claim answered from an earlier check
// carries it as the structured field match (its id, claim and date), and
// the text says it.
func TestReportNamesTheEarlierCheck(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	c := &store.Check{ID: "c2", Text: "Cada día, 400 coches cruzan el puente", Report: &factcheck.Report{Claims: []*factcheck.Verdict{
		{Claim: "Cada día, 400 coches cruzan el puente", Verdict: factcheck.Contradicted, Confidence: factcheck.High, Reasoning: "Counts say otherwise.",
			CheckedAt: at, Match: &factcheck.Match{CheckID: "c1", Claim: "The bridge carries 400 cars a day", CheckedAt: at, Similarity: 0.93}}}}}
	r := reportOf(c)
	b, err := json.Marshal(r.Claims[0])
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Match map[string]any `json:"match"`
	}
	json.Unmarshal(b, &got)
	want := map[string]any{"check_id": "c1", "claim": "The bridge carries 400 cars a day", "checked_at": "2026-11-29T12:00:00Z", "similarity": 0.93}
	if diff := cmp.Diff(want, got.Match); diff != "" {
		t.Errorf("match (-want +got):\n%s", diff)
	}
	if text := r.Render(); !strings.Contains(text, `Checked before, on 2026-11-29, as "The bridge carries 400 cars a day" (check c1`) {
		t.Errorf("text does not name the earlier check:\n%s", text)
	}
}
