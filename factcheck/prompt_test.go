package factcheck

import (
	"strings"
	"testing"
	"time"
)

// The labels follow AVeriTeC: misleading-but-true is contested, not
// contradicted; finding nothing is unverifiable.
func TestVerifyPromptLabels(t *testing.T) {
	p := verifySystemPrompt(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), DefaultBudget, false, true)
	for _, want := range []string{
		"contradicted: reliable sources refute the substantial part of the claim",
		"contested: the evidence conflicts, or the claim is technically true but misleading",
		"cherry-picked",
		"Finding nothing is unverifiable, never contradicted",
		"Crime fell 10% under the mayor",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "false or misleading") {
		t.Error("system prompt still counts misleading claims as contradicted")
	}
	for _, l := range Labels {
		if strings.Count(p, "- "+string(l)+": ") != 1 {
			t.Errorf("label %s is not defined exactly once", l)
		}
	}
}
