package mcp

import (
	"fmt"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
)

// Match names the earlier check that answered a claim (claim matching):
// the claim was checked before in other words or another language.
type Match struct {
	CheckID    string    `json:"check_id" jsonschema:"the earlier check, as the show tool takes it"`
	Claim      string    `json:"claim" jsonschema:"the earlier claim's words: what was checked then"`
	CheckedAt  time.Time `json:"checked_at" jsonschema:"when it was checked (RFC 3339)"`
	Similarity float64   `json:"similarity" jsonschema:"the cosine similarity of the two claims' embeddings"`
}

// matchOf is m as the tool's result, nil for none.
func matchOf(m *factcheck.Match) *Match {
	if m == nil {
		return nil
	}
	return &Match{CheckID: m.CheckID, Claim: m.Claim, CheckedAt: m.CheckedAt.UTC(), Similarity: m.Similarity}
}

// renderMatch writes, for text-only clients, which earlier check answered
// a claim.
func renderMatch(b *strings.Builder, m *Match) {
	if m != nil {
		fmt.Fprintf(b, "  Checked before, on %s, as %q (check %s, which the show tool shows)\n", m.CheckedAt.Format(time.DateOnly), m.Claim, m.CheckID)
	}
}
