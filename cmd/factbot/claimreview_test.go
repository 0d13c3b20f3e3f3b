package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/web"
)

func TestExportClaimReview(t *testing.T) {
	e := newStEnv(t)
	const breakout = `Taxes doubled </script><script>alert(1)</script>`
	a := stCheck("cli", "ann", breakout, stT0, factcheck.Contradicted)
	a.Speaker, a.ClaimDate = "A senator", time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	b := stCheck("cli", "bob", "The bridge opened in 1937", stT0.Add(time.Second), factcheck.Supported)
	b.Report.Claims = append(b.Report.Claims, &factcheck.Verdict{Claim: "not checked", Verdict: factcheck.Unverifiable, Error: "the model failed"})
	// b's text was only a link: its claims were read from that page,
	// where they appeared.
	b.Text, b.Report.Input = "https://bridge.example.org/history", "https://bridge.example.org/history"
	b.Report.AddNote(factcheck.Note{Code: factcheck.NoteLinkOnly, Title: "Bridge history", Text: "The message was only a link."})
	other := stCheck("T9", "eve", "other tenant", stT0, factcheck.Supported)
	e.seed(a, b, other)

	// The url of each review is absolute: without the public address, no
	// export.
	if _, stderr, code := e.run("export", "--format", "claimreview"); code != exitUsage || !strings.Contains(stderr, "FACTBOT_PUBLIC_URL") {
		t.Errorf("export --format claimreview without FACTBOT_PUBLIC_URL: exit %d, %q", code, stderr)
	}
	e.env["FACTBOT_PUBLIC_URL"] = "https://checks.example.org"
	e.env["FACTBOT_ORGANIZATION"] = "Example Checks"
	stdout, stderr, code := e.run("export", "--format", "claimreview")
	if code != exitOK {
		t.Fatalf("export: exit %d, %s", code, stderr)
	}
	if strings.Contains(stdout, "</script>") || !strings.Contains(stdout, `\u003c/script\u003e`) {
		t.Errorf("the claim's </script> is not escaped:\n%s", stdout)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, stdout)
	}
	org := map[string]any{"@type": "Organization", "name": "Example Checks", "url": "https://checks.example.org/"}
	rating := func(v float64, l, name string) map[string]any {
		return map[string]any{"@type": "Rating", "name": name, "ratingValue": v, "bestRating": 5.0, "worstRating": 1.0, "alternateName": l}
	}
	want := []map[string]any{
		{"@context": "https://schema.org", "@type": "ClaimReview", "url": "https://checks.example.org/web/check/cli/" + a.ID + "#claim-1",
			"claimReviewed": breakout,
			"itemReviewed":  map[string]any{"@type": "Claim", "author": map[string]any{"@type": "Person", "name": "A senator"}, "datePublished": "2024-03-01"},
			"reviewRating":  rating(1, "contradicted", "Contradicted"), "author": org, "datePublished": "2026-11-29T12:00:00Z"},
		{"@context": "https://schema.org", "@type": "ClaimReview", "url": "https://checks.example.org/web/check/cli/" + b.ID + "#claim-1",
			"claimReviewed": "The bridge opened in 1937",
			"itemReviewed":  map[string]any{"@type": "Claim", "appearance": []any{map[string]any{"@type": "CreativeWork", "url": "https://bridge.example.org/history"}}},
			"reviewRating":  rating(5, "supported", "Supported"), "author": org, "datePublished": "2026-11-29T12:00:01Z"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("export --format claimreview (-want +got):\n%s", diff)
	}
	if !strings.Contains(stderr, "Exported 2 ClaimReviews of 2 checks of tenant cli") {
		t.Errorf("stderr = %q", stderr)
	}

	// The same objects as the check's page carries.
	db, err := store.Open(e.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const admin = "admin-token-0123456789abcdef0123"
	srv := web.New(web.Options{Store: db, AdminToken: admin, PublicURL: "https://checks.example.org", Organization: "Example Checks"})
	req := httptest.NewRequest(http.MethodGet, web.CheckPath("cli", a.ID), nil)
	req.Header.Set("Authorization", "Bearer "+admin)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	var onPage []map[string]any
	for _, m := range regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`).FindAllStringSubmatch(rec.Body.String(), -1) {
		var v map[string]any
		if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
			t.Fatal(err)
		}
		onPage = append(onPage, v)
	}
	if diff := cmp.Diff(want[:1], onPage); diff != "" {
		t.Errorf("the page's ClaimReview differs from the export's (-export +page):\n%s", diff)
	}
}

// factbot check keeps who made the claim and when (--speaker, --as-of):
// the reviewed claim's author and date.
func TestCheckKeepsSpeakerAndClaimDate(t *testing.T) {
	w := newWorld(t, wallFirst(func(r *geminitest.Request) geminitest.Reply {
		return verdictReply("unverifiable", "low", "Nothing was found.")
	}))
	rep, _ := w.checkJSON("--speaker", "A tour guide", "--as-of", "2020-06-01", wallClaim)
	stdout, stderr, code := w.run("history", "--json")
	if code != exitOK {
		t.Fatalf("history: %d %s", code, stderr)
	}
	var h []store.CheckSummary
	if err := json.Unmarshal([]byte(stdout), &h); err != nil || len(h) != 1 {
		t.Fatalf("history = %s (%v)", stdout, err)
	}
	stdout, stderr, code = w.run("show", "--json", h[0].ID)
	if code != exitOK {
		t.Fatalf("show: %d %s", code, stderr)
	}
	var c store.Check
	if err := json.Unmarshal([]byte(stdout), &c); err != nil {
		t.Fatal(err)
	}
	if c.Speaker != "A tour guide" || !c.ClaimDate.Equal(time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC)) || len(rep.Claims) != 1 {
		t.Errorf("saved speaker %q, claim date %v", c.Speaker, c.ClaimDate)
	}
	rv := web.ClaimReviews(&c, web.ReviewSite{PublicURL: "https://a.example"})
	if len(rv) != 1 || rv[0].ItemReviewed.Author == nil || rv[0].ItemReviewed.Author.Name != "A tour guide" || rv[0].ItemReviewed.DatePublished != "2020-06-01" {
		t.Errorf("ClaimReviews = %+v", rv)
	}
}
