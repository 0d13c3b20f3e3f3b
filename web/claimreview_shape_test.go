package web

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/goldentest"
	"github.com/factbot-dev/factbot/store"
)

// linkCheck is a check of a message that was only a link: its claims
// were read from the page it links to, as factcheck notes.
func linkCheck(platform string, vis store.Visibility, private bool, link string) *store.Check {
	rep := &factcheck.Report{Input: "<https://news.example.org/story|story>", Language: "de", Claims: []*factcheck.Verdict{
		{Claim: "Die Brücke wurde 1990 gebaut", Verdict: factcheck.Contradicted, Confidence: factcheck.High, CheckedAt: t0},
		{Claim: "Der Fluss ist 80 km lang", Verdict: factcheck.Supported, Confidence: factcheck.Medium, CheckedAt: t0},
	}}
	rep.AddNote(factcheck.Note{Code: factcheck.NoteLinkOnly, Title: "Story", Text: "The message was only a link."})
	return &store.Check{ID: "20261130T093000Z-abcd", Tenant: "G1", Platform: platform, Channel: "C1", User: "U1", Link: link,
		Visibility: vis, Private: private, Text: rep.Input, Report: rep, CreatedAt: t0}
}

// TestClaimReviewAppearance: a claim's appearance is given only where its
// source is public: a chat message's permalink when the check was made
// where the whole workspace may see it (the visibility rule of chat's
// history), with the page the claims were read from; the page alone for a
// check made outside chat; nothing for a private channel, a group or
// direct message, a private answer, or a check whose place is unknown.
func TestClaimReviewAppearance(t *testing.T) {
	const permalink = "https://discord.com/channels/1/2/3"
	page := CreativeWork{Type: "CreativeWork", URL: "https://news.example.org/story"}
	msg := CreativeWork{Type: "CreativeWork", URL: permalink}
	for _, tc := range []struct {
		name string
		c    *store.Check
		want []CreativeWork
	}{
		{"public channel, permalink kept", linkCheck("discord", store.VisibilityPublic, false, permalink), []CreativeWork{msg, page}},
		{"public channel, no permalink", linkCheck("slack", store.VisibilityPublic, false, ""), []CreativeWork{page}},
		{"public channel, answered in private", linkCheck("slack", store.VisibilityPublic, true, permalink), nil},
		{"private channel", linkCheck("slack", store.VisibilityPrivate, false, permalink), nil},
		{"group message", linkCheck("slack", store.VisibilityGroup, false, permalink), nil},
		{"direct message", linkCheck("discord", store.VisibilityDM, false, permalink), nil},
		{"chat, place unknown (an older record)", linkCheck("slack", store.VisibilityUnknown, false, permalink), nil},
		{"the terminal", linkCheck("cli", store.VisibilityUnknown, false, ""), []CreativeWork{page}},
		{"an MCP agent", linkCheck("mcp", store.VisibilityUnknown, false, ""), []CreativeWork{page}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := ClaimReviews(tc.c, ReviewSite{PublicURL: "https://checks.example.org"})
			if len(rs) != 2 {
				t.Fatalf("%d reviews, want 2", len(rs))
			}
			for _, r := range rs {
				if diff := cmp.Diff(tc.want, r.ItemReviewed.Appearance); diff != "" {
					t.Errorf("appearance (-want +got):\n%s", diff)
				}
			}
		})
	}
	// A public message that was not only a link: its permalink alone.
	c := linkCheck("discord", store.VisibilityPublic, false, permalink)
	c.Report.Notes, c.Report.Input, c.Text = nil, "Die Brücke wurde 1990 gebaut.", "Die Brücke wurde 1990 gebaut."
	if diff := cmp.Diff([]CreativeWork{msg}, ClaimReviews(c, ReviewSite{})[0].ItemReviewed.Appearance); diff != "" {
		t.Errorf("appearance of a public message (-want +got):\n%s", diff)
	}
}

// TestClaimReviewGolden: the ClaimReviews of a public link-only check,
// in German (testdata/claimreview.golden): one url per claim, the
// verdict's words in the check's language, the appearance; each object
// of schema.org's ClaimReview shape.
func TestClaimReviewGolden(t *testing.T) {
	rs := ClaimReviews(linkCheck("discord", store.VisibilityPublic, false, "https://discord.com/channels/1/2/3"),
		ReviewSite{PublicURL: "https://checks.example.org/", Organization: "Example Checks"})
	b, err := json.MarshalIndent(rs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var objs []any
	if err := json.Unmarshal(b, &objs); err != nil {
		t.Fatal(err)
	}
	for i, o := range objs {
		for _, p := range schemaShape("ClaimReview", o) {
			t.Errorf("review %d: %s", i+1, p)
		}
	}
	goldentest.Golden(t, filepath.Join("testdata", "claimreview.golden"), append(b, '\n'), *update)
}

// TestClaimReviewShape checks schemaShape against objects that break it.
func TestClaimReviewShape(t *testing.T) {
	var good map[string]any
	b, _ := json.Marshal(ClaimReviews(linkCheck("cli", "", false, ""), ReviewSite{PublicURL: "https://a.example"})[0])
	if err := json.Unmarshal(b, &good); err != nil {
		t.Fatal(err)
	}
	if p := schemaShape("ClaimReview", good); len(p) > 0 {
		t.Fatalf("a review factbot writes breaks the shape: %v", p)
	}
	bad := func(edit func(m map[string]any)) map[string]any {
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		edit(m)
		return m
	}
	item := func(m map[string]any) map[string]any { return m["itemReviewed"].(map[string]any) }
	rating := func(m map[string]any) map[string]any { return m["reviewRating"].(map[string]any) }
	for name, m := range map[string]map[string]any{
		"no url":                   bad(func(m map[string]any) { delete(m, "url") }),
		"item not a Claim":         bad(func(m map[string]any) { item(m)["@type"] = "CreativeWork" }),
		"appearance not a work":    bad(func(m map[string]any) { item(m)["appearance"] = []any{map[string]any{"@type": "Person", "name": "x"}} }),
		"appearance without url":   bad(func(m map[string]any) { item(m)["appearance"] = []any{map[string]any{"@type": "CreativeWork"}} }),
		"rating without name":      bad(func(m map[string]any) { delete(rating(m), "name") }),
		"rating out of its scale":  bad(func(m map[string]any) { rating(m)["ratingValue"] = 9.0 }),
		"a property of no type":    bad(func(m map[string]any) { rating(m)["verdict"] = "x" }),
		"rating alternateName int": bad(func(m map[string]any) { rating(m)["alternateName"] = 1.0 }),
	} {
		if len(schemaShape("ClaimReview", m)) == 0 {
			t.Errorf("%s: not caught", name)
		}
	}
}

// shapes are the schema.org types a ClaimReview is made of, with the
// properties factbot may write (from https://schema.org/ClaimReview,
// Claim, Rating, CreativeWork, Organization, Person and the types they
// inherit from) and the type of each value: "text", "url", "date",
// "number", a schema.org type, or "[]" and a type for a list. required
// are those each object must have.
var shapes = map[string]struct {
	props    map[string]string
	required []string
}{
	"ClaimReview": {map[string]string{"@context": "url", "@type": "text", "url": "url", "claimReviewed": "text", "itemReviewed": "Claim",
		"reviewRating": "Rating", "author": "Organization", "datePublished": "date", "inLanguage": "text"},
		[]string{"@context", "url", "claimReviewed", "itemReviewed", "reviewRating", "author", "datePublished"}},
	"Claim":        {map[string]string{"@type": "text", "author": "Person", "datePublished": "date", "appearance": "[]CreativeWork"}, nil},
	"CreativeWork": {map[string]string{"@type": "text", "url": "url"}, []string{"url"}},
	"Rating": {map[string]string{"@type": "text", "name": "text", "ratingValue": "number", "bestRating": "number", "worstRating": "number", "alternateName": "text"},
		[]string{"name", "ratingValue", "bestRating", "worstRating", "alternateName"}},
	"Organization": {map[string]string{"@type": "text", "name": "text", "url": "url"}, []string{"name"}},
	"Person":       {map[string]string{"@type": "text", "name": "text"}, []string{"name"}},
}

// schemaShape lists how v, decoded JSON, departs from schema.org type
// typ's shape (shapes); none when it has it.
func schemaShape(typ string, v any) []string {
	m, ok := v.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: not an object: %v", typ, v)}
	}
	sh, ok := shapes[typ]
	if !ok {
		return []string{"no shape for " + typ}
	}
	var out []string
	if m["@type"] != typ {
		out = append(out, fmt.Sprintf("@type %v, want %s", m["@type"], typ))
	}
	for _, r := range sh.required {
		if _, ok := m[r]; !ok {
			out = append(out, fmt.Sprintf("%s lacks %s", typ, r))
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		want, ok := sh.props[k]
		if !ok {
			out = append(out, fmt.Sprintf("%s has no property %s", typ, k))
			continue
		}
		out = append(out, valueShape(typ+"."+k, want, m[k])...)
	}
	if typ == "Rating" && len(out) == 0 {
		lo, hi, v := m["worstRating"].(float64), m["bestRating"].(float64), m["ratingValue"].(float64)
		if v < lo || v > hi {
			out = append(out, fmt.Sprintf("ratingValue %v outside %v to %v", v, lo, hi))
		}
	}
	return out
}

// valueShape checks one property's value against its expected type.
func valueShape(at, want string, v any) []string {
	switch want {
	case "text", "url", "date":
		s, ok := v.(string)
		if !ok || s == "" {
			return []string{fmt.Sprintf("%s: %v is not %s", at, v, want)}
		}
		return nil
	case "number":
		if _, ok := v.(float64); !ok {
			return []string{fmt.Sprintf("%s: %v is not a number", at, v)}
		}
		return nil
	}
	if elem, ok := strings.CutPrefix(want, "[]"); ok {
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return []string{fmt.Sprintf("%s: %v is not a list", at, v)}
		}
		var out []string
		for _, e := range list {
			out = append(out, schemaShape(elem, e)...)
		}
		return out
	}
	return schemaShape(want, v)
}
