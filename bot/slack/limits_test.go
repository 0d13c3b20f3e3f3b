package slack_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack"
)

// A report of eight claims, every text as long as it gets, fits Slack's
// limits with every claim shown (each shorter), a source under each, who
// asked, what was not checked, and the summary as the notification text.
func TestEightClaimsFitSlack(t *testing.T) {
	m := bottest.LongMessage(8)
	blocks, fallback := slack.Render(m)
	if len(blocks) > 50 {
		t.Errorf("%d blocks, limit 50", len(blocks))
	}
	b, _ := json.Marshal(blocks)
	var tree []map[string]any
	json.Unmarshal(b, &tree)
	total, all := 0, ""
	for _, bl := range tree {
		for _, s := range texts(bl) {
			if n := len([]rune(s)); n > 3000 {
				t.Errorf("text of %d chars, limit 3000", n)
			}
			total += len([]rune(s))
			all += s + "\n"
		}
	}
	if total > 12000 {
		t.Errorf("%d chars in all, limit about 12000", total)
	}
	for i := range 8 {
		if !strings.Contains(all, fmt.Sprintf(">claim %d ", i+1)) {
			t.Errorf("claim %d not shown", i+1)
		}
	}
	if n := strings.Count(all, "• <https://example.org/"); n < 8 {
		t.Errorf("%d sources shown, want at least one per claim", n)
	}
	for _, want := range []string{"Asked by Ana", "*Not checked*", "more sources", "Check 20261129T120000Z-abcd"} {
		if !strings.Contains(all, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(all, "more claim") {
		t.Errorf("claims left out:\n%s", all)
	}
	if fallback != m.Summary {
		t.Errorf("notification text = %q, want %q", fallback, m.Summary)
	}
}
