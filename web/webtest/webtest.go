// Package webtest makes databases for the web view's tests, benchmarks and
// screenshots: a realistic check with its sources as read, and a fast
// filler of many checks.
package webtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

// Page is a page as read, with its hash set from its text.
func Page(u, title, site, published, text string, at time.Time) search.Page {
	sum := sha256.Sum256([]byte(text))
	return search.Page{URL: u, FinalURL: u, Title: title, Site: site, Published: published, Text: text, FetchedAt: at, SHA256: hex.EncodeToString(sum[:]), Bytes: len(text)}
}

// Sample returns a check of tenant made at `at`, in a public channel by
// user: three claims (supported; contradicted, with a published fact-check
// and a PDF of two pages; contested), six pieces of evidence from five
// sources (one quote not found verbatim), the sources each run retrieved,
// traces and one feedback; and the pages as read that its sources' hashes
// name.
func Sample(tenant, channel, user string, at time.Time) (*store.Check, []search.Page) {
	eiffel := Page("https://www.toureiffel.paris/en/the-monument/key-figures", "The Eiffel Tower's key figures", "toureiffel.paris", "2024-03-12",
		"Key figures\nHeight: 330 metres since 2022, with the new antenna.\nWeight: 10,100 tonnes.\nThe tower was completed in 1889 for the World's Fair.", at.Add(-time.Minute))
	britannica := Page("https://www.britannica.com/topic/Eiffel-Tower-Paris-France", "Eiffel Tower | History, Height, & Facts", "Britannica", "",
		"Eiffel Tower, Gustave Eiffel's wrought-iron structure in Paris, was completed in 1889. It is 330 metres (1,083 feet) tall including antennas.", at.Add(-50*time.Second))
	nasa := Page("https://www.nasa.gov/wp-content/uploads/2015/01/great-wall.pdf", "Great Wall from space", "NASA", "2005-05-09",
		"Earth Observatory\n\nThe Great Wall of China is frequently billed as the only human-made object visible from space. It generally is not, at least to the unaided eye in low Earth orbit.", at.Add(-40*time.Second))
	nasa.PageCount, nasa.Pages = 2, []search.PageText{{N: 1, Text: "Earth Observatory"},
		{N: 2, Text: "The Great Wall of China is frequently billed as the only human-made object visible from space. It generally is not, at least to the unaided eye in low Earth orbit."}}
	snopes := Page("https://www.snopes.com/fact-check/great-wall-china-space/", "Is the Great Wall of China Visible from Space?", "Snopes", "2019-10-02",
		"Claim: The Great Wall of China is visible from space with the naked eye. Rating: False.", at.Add(-35*time.Second))
	coffee := Page("https://www.hsph.harvard.edu/nutritionsource/food-features/coffee/", "Coffee | The Nutrition Source", "Harvard T.H. Chan School of Public Health", "2023-08-01",
		"Moderate coffee intake, 2 to 5 cups a day, is linked to a lower likelihood of type 2 diabetes, heart disease and some cancers. Too much caffeine can cause jitters and raise blood pressure.", at.Add(-30*time.Second))
	pages := []search.Page{eiffel, britannica, nasa, snopes, coffee}
	src := func(p search.Page, via string, cited bool) factcheck.Source {
		return factcheck.Source{URL: p.URL, Title: p.Title, Via: via, FetchedAt: p.FetchedAt, SHA256: p.SHA256, Cited: cited}
	}
	tool := func(s time.Duration, name, args string, n int) factcheck.TraceEvent {
		return factcheck.TraceEvent{At: at.Add(-2*time.Minute + s), Kind: "tool", Tool: name, Args: args, ResultBytes: n}
	}
	model := func(s time.Duration, p, o int, reason string) factcheck.TraceEvent {
		return factcheck.TraceEvent{At: at.Add(-2*time.Minute + s), Kind: "model", Usage: &factcheck.Usage{PromptTokens: p, OutputTokens: o}, FinishReason: reason}
	}
	text := "The Eiffel Tower is 330 metres tall, the Great Wall of China is visible from space, and coffee is good for you."
	claims := []*factcheck.Verdict{
		{
			Claim: "The Eiffel Tower is 330 metres tall.", Verdict: factcheck.Supported, Confidence: factcheck.High,
			Reasoning: "The tower's operator and Britannica both give 330 metres including the antennas.",
			Evidence: []factcheck.Evidence{
				{SourceURL: eiffel.URL, SourceTitle: eiffel.Title, Supports: true, QuoteOrSummary: "Height: 330 metres since 2022", QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}},
				{SourceURL: britannica.URL, SourceTitle: britannica.Title, Supports: true, QuoteOrSummary: "It is 330 metres (1,083 feet) tall including antennas.", QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}},
			},
			Start: 0, End: 35, CheckedAt: at, Model: "gemini-2.5-flash", Usage: factcheck.Usage{PromptTokens: 5120, OutputTokens: 310},
			Sources: []factcheck.Source{src(eiffel, "read", true), src(britannica, "search", true)},
			Trace: []factcheck.TraceEvent{model(0, 1200, 40, "tool_calls"), tool(900*time.Millisecond, "web_search", `{"query":"Eiffel Tower height metres"}`, 4200),
				tool(2*time.Second, "read_page", `{"url":"`+eiffel.URL+`"}`, 2400), model(3500*time.Millisecond, 3920, 270, "stop")},
		},
		{
			Claim: "The Great Wall of China is visible from space.", Verdict: factcheck.Contradicted, Confidence: factcheck.High,
			Reasoning: "NASA says the wall is generally not visible to the unaided eye from low Earth orbit; Snopes rates the claim False.",
			Evidence: []factcheck.Evidence{
				{SourceURL: nasa.URL, SourceTitle: nasa.Title, Supports: false, QuoteOrSummary: "It generally is not, at least to the unaided eye in low Earth orbit.", QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}},
				{SourceURL: snopes.URL, SourceTitle: snopes.Title, Supports: false, QuoteOrSummary: "Rated False by Snopes.", Publisher: "Snopes", Rating: "False"},
			},
			Start: 37, End: 81, CheckedAt: at, Model: "gemini-2.5-flash", StoppedBy: "searches", Usage: factcheck.Usage{PromptTokens: 8400, OutputTokens: 420},
			Sources: []factcheck.Source{src(snopes, "fact_check", true), src(nasa, "read", true)},
			Trace: []factcheck.TraceEvent{model(0, 1300, 35, "tool_calls"), tool(700*time.Millisecond, "search_fact_checks", `{"query":"Great Wall visible from space"}`, 1800),
				tool(1500*time.Millisecond, "read_page", `{"url":"`+nasa.URL+`"}`, 2400), {At: at.Add(-2*time.Minute + 4*time.Second), Kind: "note", Note: "searches budget reached"},
				model(5*time.Second, 7100, 385, "stop")},
		},
		{
			Claim: "Coffee is good for you.", Verdict: factcheck.Contested, Confidence: factcheck.Medium,
			Reasoning: "Moderate intake is linked to lower risk of several diseases, but too much caffeine has harms; \"good for you\" depends on the amount and the person.",
			Evidence: []factcheck.Evidence{
				{SourceURL: coffee.URL, SourceTitle: coffee.Title, Supports: true, QuoteOrSummary: "Moderate coffee intake, 2 to 5 cups a day, is linked to a lower likelihood of type 2 diabetes, heart disease", QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}},
				{SourceURL: coffee.URL, SourceTitle: coffee.Title, Supports: false, QuoteOrSummary: "Too much caffeine can cause jitters and raise blood pressure.", QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}},
			},
			Start: 87, End: 110, CheckedAt: at, Model: "gemini-2.5-flash", Usage: factcheck.Usage{PromptTokens: 4300, OutputTokens: 260},
			Sources: []factcheck.Source{src(coffee, "read", true)},
			Trace:   []factcheck.TraceEvent{model(0, 1100, 30, "tool_calls"), tool(800*time.Millisecond, "read_page", `{"url":"`+coffee.URL+`"}`, 2400), model(2*time.Second, 3200, 230, "stop")},
		},
	}
	rep := &factcheck.Report{Input: text, Claims: claims, CheckedAt: at, Model: "gemini-2.5-flash",
		Trace: []factcheck.TraceEvent{model(-3*time.Second, 600, 120, "stop")}}
	c := &store.Check{Tenant: tenant, Platform: "slack", Channel: channel, User: user, Text: text, Report: rep, CreatedAt: at, Visibility: store.VisibilityPublic,
		Feedback: []store.Feedback{{User: "U2", Claim: 2, Note: "depends on the dose", At: at.Add(time.Hour)}}}
	return c, pages
}

// Seed saves the Sample check and its pages in db and returns the check.
func Seed(ctx context.Context, db *store.DB, tenant, channel, user string, at time.Time) (*store.Check, error) {
	c, pages := Sample(tenant, channel, user, at)
	for _, p := range pages {
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		if err := db.Put(ctx, search.PageBucket, p.URL, b, nil); err != nil {
			return nil, fmt.Errorf("seed page: %w", err)
		}
	}
	if err := db.SaveCheck(ctx, c); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	return c, nil
}

// Fill saves n checks of tenant, one a minute before `at` going back, in
// transactions of 2,000: each has one to three claims with a piece of
// evidence each, one of 50 channels (C40 to C49 private, the others
// public; one answer in 20 private to its asker) and 500 users. It
// returns the IDs,
// oldest first.
func Fill(ctx context.Context, db *store.DB, tenant string, n int, at time.Time) ([]string, error) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"tower", "vaccine", "moon", "coffee", "climate", "election", "river", "budget", "wall", "space", "ocean", "tax", "virus", "city", "record"}
	var ids []string
	const batch = 2000
	for i := 0; i < n; i += batch {
		var cs []*store.Check
		for j := i; j < min(i+batch, n); j++ {
			t := at.Add(-time.Duration(n-j) * time.Minute)
			var vs []*factcheck.Verdict
			text := ""
			for range 1 + rng.IntN(3) {
				cl := fmt.Sprintf("The %s %s is %d.", words[rng.IntN(len(words))], words[rng.IntN(len(words))], rng.IntN(1000))
				text += cl + " "
				l := factcheck.Labels[rng.IntN(len(factcheck.Labels))]
				vs = append(vs, &factcheck.Verdict{Claim: cl, Verdict: l, Confidence: factcheck.Medium, Reasoning: "Filler.", CheckedAt: t,
					Evidence: []factcheck.Evidence{{SourceURL: "https://example.org/" + words[rng.IntN(len(words))], SourceTitle: "Example", Supports: l == factcheck.Supported, QuoteFound: true}}})
			}
			ch := rng.IntN(50)
			vis := store.VisibilityPublic
			if ch >= 40 {
				vis = store.VisibilityPrivate
			}
			cs = append(cs, &store.Check{Tenant: tenant, Platform: "slack", Channel: fmt.Sprintf("C%d", ch), User: fmt.Sprintf("U%d", rng.IntN(500)),
				Text: text, CreatedAt: t, Report: &factcheck.Report{Input: text, Claims: vs, CheckedAt: t}, Private: rng.IntN(20) == 0, Visibility: vis})
		}
		if err := db.SaveChecks(ctx, cs); err != nil {
			return nil, err
		}
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
	}
	return ids, nil
}

// Stories returns a few short checks of tenant, one every 40 minutes
// before `at`, with varied verdicts, channels and people: a history worth
// looking at.
func Stories(tenant string, at time.Time) []*store.Check {
	type claim struct {
		text string
		l    factcheck.Label
	}
	stories := []struct {
		channel, user, text string
		claims              []claim
	}{
		{"C1", "U2", "Drinking eight glasses of water a day is a medical requirement.", []claim{{"Drinking eight glasses of water a day is a medical requirement.", factcheck.Contradicted}}},
		{"C2", "U3", "The Amazon rainforest produces 20% of the world's oxygen, and it covers 5.5 million km².", []claim{{"The Amazon produces 20% of the world's oxygen.", factcheck.Contested}, {"The Amazon rainforest covers 5.5 million km².", factcheck.Supported}}},
		{"C1", "U1", "Lightning never strikes the same place twice.", []claim{{"Lightning never strikes the same place twice.", factcheck.Contradicted}}},
		{"C3", "U4", "Octopuses have three hearts.", []claim{{"Octopuses have three hearts.", factcheck.Supported}}},
		{"C2", "U2", "The new bridge will cut commute times by half, the mayor said on Tuesday.", []claim{{"The new bridge will cut commute times by half.", factcheck.Unverifiable}}},
		{"C1", "U5", "Mount Everest grows about 4 mm every year; K2 is taller.", []claim{{"Mount Everest grows about 4 mm every year.", factcheck.Supported}, {"K2 is taller than Mount Everest.", factcheck.Contradicted}}},
		{"C3", "U1", "Humans only use 10% of their brains.", []claim{{"Humans only use 10% of their brains.", factcheck.Contradicted}}},
	}
	var out []*store.Check
	for i, s := range stories {
		t := at.Add(-time.Duration(i+1) * 40 * time.Minute)
		var vs []*factcheck.Verdict
		for _, c := range s.claims {
			vs = append(vs, &factcheck.Verdict{Claim: c.text, Verdict: c.l, Confidence: factcheck.High, CheckedAt: t, Model: "gemini-2.5-flash"})
		}
		out = append(out, &store.Check{Tenant: tenant, Platform: "slack", Channel: s.channel, User: s.user, Text: s.text, CreatedAt: t, Visibility: store.VisibilityPublic,
			Report: &factcheck.Report{Input: s.text, Claims: vs, CheckedAt: t}})
	}
	return out
}
