package factcheck

import (
	"strings"
	"testing"
	"time"
)

// The labels follow AVeriTeC's guidelines: misleading-but-true is
// contested, not contradicted; a record that would have to mention the
// claim, found silent or saying otherwise, is contradicted; settling
// sources not found is unverifiable.
func TestVerifyPromptLabels(t *testing.T) {
	p := verifySystemPrompt(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), DefaultBudget, false, false, true)
	for _, want := range []string{
		"contradicted: reliable sources refute the substantial part of the claim",
		"contested: the evidence conflicts, or the claim is technically true but misleading",
		"cherry-picked",
		"the record that would exist if it were true (an official register or database, the speaker's own statements or accounts, the coverage such an event would get) was found and shows otherwise or nothing",
		"unverifiable: the sources that would settle the claim could not be found",
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

// Before a page is read, the research prompt says when the labels come
// instead of defining them (run.system).
func TestVerifyPromptBeforeARead(t *testing.T) {
	p := verifySystemPrompt(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), DefaultBudget, false, false, false)
	if strings.Contains(p, "Labels:") || !strings.Contains(p, "Read a page before you judge: the labels are defined then.") {
		t.Errorf("system prompt before a read:\n%s", p)
	}
}
