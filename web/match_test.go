package web

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// TestCheckPageLinksTheEarlierCheck: a claim answered from an earlier
// check says what was checked then and when, and links that check's page
// (which the link opens) when the viewer may see it; an earlier check the
// viewer may not see is named without a link.
func TestCheckPageLinksTheEarlierCheck(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	matched := func(earlier *store.Check, claim string) *store.Check {
		c := &store.Check{Tenant: "T1", Channel: "C1", User: "U2", Text: "Cada día, 400 coches cruzan el puente", CreatedAt: t0.Add(30 * time.Minute),
			Visibility: store.VisibilityPublic, Report: &factcheck.Report{Claims: []*factcheck.Verdict{{Claim: "Cada día, 400 coches cruzan el puente",
				Verdict: factcheck.Contradicted, Confidence: factcheck.High, CheckedAt: earlier.CreatedAt,
				Match: &factcheck.Match{CheckID: earlier.ID, Claim: claim, CheckedAt: earlier.CreatedAt, Similarity: 0.93}}}}}
		if err := f.db.SaveCheck(ctx, c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	visibleOne := matched(f.sample, "The bridge carries 400 cars a day")
	body := f.get(t, local(f.links.CheckURL("T1", "U2", visibleOne.ID))).Body.String()
	if !strings.Contains(html.UnescapeString(body), "checked before, on 2026-11-30, as “The bridge carries 400 cars a day”") {
		t.Fatalf("the page does not say what was checked before:\n%s", body)
	}
	link := regexp.MustCompile(`<a href="(/web/check/T1/` + regexp.QuoteMeta(f.sample.ID) + `\?t=[^"]+)">`).FindStringSubmatch(body)
	if link == nil {
		t.Fatalf("no link to the earlier check %s:\n%s", f.sample.ID, body)
	}
	if w := f.get(t, html.UnescapeString(link[1])); w.Code != 200 {
		t.Errorf("the earlier check's link: %d, want 200", w.Code)
	}

	hidden := matched(f.private, "A private question")
	body = f.get(t, local(f.links.CheckURL("T1", "U2", hidden.ID))).Body.String()
	if !strings.Contains(html.UnescapeString(body), "as “A private question”") || strings.Contains(body, "/web/check/T1/"+f.private.ID) {
		t.Errorf("an earlier check the viewer may not see: want its note without a link:\n%s", body)
	}
}
