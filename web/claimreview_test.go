package web

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// breakout is a claim that would end a script block written without
// escaping, and start one of its own.
const breakout = `Vaccines contain microchips </script><script>alert("x")</script> & more`

// reviewedCheck is a check of three claims, the first with </script> in
// it, the third one that could not be checked, with its speaker and date.
func reviewedCheck() *store.Check {
	return &store.Check{Tenant: "T1", Channel: "C1", User: "U1", Text: "Three claims", CreatedAt: t0,
		Speaker: "A council member", ClaimDate: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC),
		Report: &factcheck.Report{Language: "en", Claims: []*factcheck.Verdict{
			{Claim: breakout, Verdict: factcheck.Contradicted, Confidence: factcheck.High, CheckedAt: t0},
			{Claim: "The library opened in 1901", Verdict: factcheck.Contested, Confidence: factcheck.Medium, CheckedAt: t0},
			{Claim: "The mayor wrote a novel", Verdict: factcheck.Unverifiable, Error: "the model could not be reached", CheckedAt: t0},
		}}}
}

// wantReviews are reviewedCheck's ClaimReviews as JSON values, field by
// field, for a check id published at base by org.
func wantReviews(base, org, id string) []map[string]any {
	review := func(n, claim, verdict, name string, rating float64) map[string]any {
		return map[string]any{
			"@context":      "https://schema.org",
			"@type":         "ClaimReview",
			"url":           base + "/web/check/T1/" + id + "#claim-" + n,
			"claimReviewed": claim,
			"itemReviewed": map[string]any{"@type": "Claim", "datePublished": "2024-03-01",
				"author": map[string]any{"@type": "Person", "name": "A council member"}},
			"reviewRating":  map[string]any{"@type": "Rating", "name": name, "ratingValue": rating, "bestRating": 5.0, "worstRating": 1.0, "alternateName": verdict},
			"author":        map[string]any{"@type": "Organization", "name": org, "url": base + "/"},
			"datePublished": "2026-11-30T09:30:00Z",
			"inLanguage":    "en",
		}
	}
	return []map[string]any{review("1", breakout, "contradicted", "Contradicted", 1), review("2", "The library opened in 1901", "contested", "Contested", 3)}
}

var jsonLD = regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`)

// pageReviews parses every JSON-LD block out of a page.
func pageReviews(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, m := range jsonLD.FindAllStringSubmatch(body, -1) {
		var v map[string]any
		if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
			t.Fatalf("a JSON-LD block is not JSON: %v\n%s", err, m[1])
		}
		out = append(out, v)
	}
	return out
}

func TestClaimReviewOnCheckPage(t *testing.T) {
	f := newFixture(t)
	c := reviewedCheck()
	if err := f.db.SaveCheck(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		opts      Options
		base, org string
	}{
		{"configured", Options{PublicURL: "https://checks.example.org/", Organization: "Example Checks"}, "https://checks.example.org", "Example Checks"},
		// Without a public address, the request's own; without an
		// organisation, factbot.
		{"defaults", Options{}, "http://example.com", "factbot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.opts
			o.Store, o.Secret, o.AdminToken, o.Now, o.Burst = f.db, testSecret, testAdmin, testNow, 1000
			f.srv = New(o)
			w := f.get(t, CheckPath("T1", c.ID), "Authorization", "Bearer "+testAdmin)
			if w.Code != http.StatusOK {
				t.Fatalf("status %d", w.Code)
			}
			body := w.Body.String()
			if diff := cmp.Diff(wantReviews(tt.base, tt.org, c.ID), pageReviews(t, body)); diff != "" {
				t.Errorf("ClaimReview JSON-LD (-want +got):\n%s", diff)
			}
			// The claim's </script> did not end the block: the page has
			// no script but the JSON-LD blocks.
			if strings.Contains(body, `<script>`) || strings.Count(body, "</script>") != 2 {
				t.Errorf("the claim broke out of its JSON-LD block:\n%s", body)
			}
			if !strings.Contains(body, `\u003c/script\u003e`) {
				t.Errorf("the claim's </script> is not escaped as \\u003c/script\\u003e in the JSON-LD")
			}
			// Each review's url points at its claim on this page.
			for _, r := range pageReviews(t, body) {
				u, _ := r["url"].(string)
				_, frag, _ := strings.Cut(u, "#")
				if frag == "" || !regexp.MustCompile(`<article [^>]*id="`+regexp.QuoteMeta(frag)+`"`).MatchString(body) {
					t.Errorf("review url %q: the page has no claim with id %q", u, frag)
				}
			}
		})
	}
}

func TestClaimReviewsOfCheckWithoutReport(t *testing.T) {
	c := &store.Check{Tenant: "T1", ID: "x", CreatedAt: t0}
	if got := ClaimReviews(c, ReviewSite{PublicURL: "https://a.example"}); len(got) != 0 {
		t.Errorf("ClaimReviews of a check without a report = %v, want none", got)
	}
	// Without a speaker or a date the reviewed claim is a bare Claim.
	c.Report = &factcheck.Report{Claims: []*factcheck.Verdict{{Claim: "a", Verdict: factcheck.Supported}}}
	got := ClaimReviews(c, ReviewSite{PublicURL: "https://a.example"})
	if len(got) != 1 || !cmp.Equal(got[0].ItemReviewed, Claim{Type: "Claim"}) || got[0].ReviewRating.RatingValue != 5 {
		t.Errorf("ClaimReviews = %+v", got)
	}
}
