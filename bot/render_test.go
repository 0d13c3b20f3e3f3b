package bot_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
)

func TestParseLimit(t *testing.T) {
	tests := []struct {
		in      string
		want    bot.Limit
		wantErr bool
	}{
		{"10/10m", bot.Limit{N: 10, Window: 10 * time.Minute}, false},
		{"100/1h", bot.Limit{N: 100, Window: time.Hour}, false},
		{"5/m", bot.Limit{N: 5, Window: time.Minute}, false},
		{"off", bot.Limit{}, false},
		{"10", bot.Limit{}, true},
		{"x/10m", bot.Limit{}, true},
		{"10/soon", bot.Limit{}, true},
	}
	for _, tt := range tests {
		got, err := bot.ParseLimit(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseLimit(%q) = %v, %v; want %v, err %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestTruncateAndSummaries(t *testing.T) {
	tests := []struct{ got, want string }{
		{bot.Truncate("héllo world", 20), "héllo world"},
		{bot.Truncate("héllo world", 6), "héllo…"},
		{bot.English.MoreSources(3), "+3 more sources"},
		{bot.English.MoreSources(1), "+1 more source"},
		{(&bot.Message{CheckID: "ID1"}).MoreClaims(2), "+2 more claims"},
		{(&bot.Message{Actions: []bot.Action{bot.English.ReportLink("https://f.example/c")}}).MoreClaims(1), "+1 more claim in the full report"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	ev := []bot.EvidenceView{{URL: "a"}, {URL: "b"}, {URL: "c"}}
	shown, more := bot.FitEvidence(ev, 2)
	if len(shown) != 2 || more != 1 {
		t.Errorf("FitEvidence = %d shown, %d more; want 2, 1", len(shown), more)
	}
}

func TestRenderReport(t *testing.T) {
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	rep := &factcheck.Report{Notice: "Only the first 8 claims were checked.", Claims: []*factcheck.Verdict{{
		Claim: "A", Verdict: factcheck.Supported, Confidence: factcheck.High, Reasoning: "R",
		Evidence: []factcheck.Evidence{{SourceURL: "https://x.org", SourceTitle: "X", Supports: true, QuoteOrSummary: "q", QuoteFound: true,
			QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInPDF, Page: 3}}},
		Cached: true, CheckedAt: at,
	}, {Claim: "B", Verdict: "", Error: "dial tcp 10.0.0.1: model failed"}},
		NotCheckable: []factcheck.NotCheckable{{Text: "I love it.", Reason: "an opinion"}, {Text: " "}}}
	got := bot.English.RenderReport(rep, "ID9")
	want := &bot.Message{
		Final: true, Title: "Fact-check: 2 claims", Notice: "Only the first 8 claims were checked.", CheckID: "ID9",
		Claims: []bot.ClaimView{
			{Claim: "A", Label: factcheck.Supported, Confidence: factcheck.High, Reasoning: "R", Cached: true, CheckedAt: at,
				Evidence: []bot.EvidenceView{{URL: "https://x.org", Title: "X", Supports: true, Side: factcheck.StanceSupports, Quote: "q", QuoteFound: true,
					QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteInPDF, Page: 3}}}},
			{Claim: "B", Label: factcheck.Unverifiable, Error: "This claim could not be checked."}, // never the internal text
		},
		NotCheckable: []bot.NotCheckableView{{Text: "I love it.", Reason: "an opinion"}},
		Actions:      []bot.Action{{ID: bot.ActionRecheck, Label: "Check again", Value: "ID9"}, {ID: bot.ActionWrong, Label: "Wrong verdict?", Value: "ID9"}},
		Lang:         bot.English,
		Summary:      "2 claims: 1 supported, 1 unverifiable",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RenderReport (-want +got):\n%s", diff)
	}
	if s := got.Lang.CheckedAt(got.Claims[0]); s != "cached, checked 2026-11-28" {
		t.Errorf("CheckedAt = %q", s)
	}
	if e := bot.Emoji(factcheck.Contradicted) + bot.English.Label(factcheck.Contradicted); e != "❌Contradicted" {
		t.Errorf("emoji+label = %q", e)
	}
}

func TestRenderProgress(t *testing.T) {
	claims := []factcheck.ExtractedClaim{{Claim: "A"}, {Claim: "B"}}
	m := bot.English.RenderProgress(claims, map[int]*factcheck.Verdict{1: {Claim: "B", Verdict: factcheck.Contested}})
	if m.Final || m.Title != "Checking 2 claims… (1 done)" || m.Claims[0].Label != "" || m.Claims[1].Label != factcheck.Contested {
		t.Errorf("RenderProgress = %+v", m)
	}
}

func TestQuoteNote(t *testing.T) {
	found := func(place factcheck.QuotePlace, page int) factcheck.Evidence {
		return factcheck.Evidence{QuoteOrSummary: "a quote", QuoteFound: true, QuoteMatch: factcheck.QuoteMatch{Place: place, Page: page}}
	}
	seen := func(place factcheck.QuotePlace) factcheck.Evidence {
		return factcheck.Evidence{QuoteOrSummary: "a quote", QuoteMatch: factcheck.QuoteMatch{Place: place}}
	}
	for _, tc := range []struct {
		e     factcheck.Evidence
		where factcheck.QuotePlace
		want  string
	}{
		{found(factcheck.QuoteOnPage, 0), factcheck.QuoteOnPage, "quote found on the page"},
		{found(factcheck.QuoteInPDF, 3), factcheck.QuoteInPDF, "quote found on page 3 of the PDF"},
		{found(factcheck.QuoteInPDF, 0), factcheck.QuoteInPDF, "quote found in the PDF"},
		{found(factcheck.QuoteInSnippet, 0), factcheck.QuoteInSnippet, "quote seen only in the search result's preview, not on the page itself"},
		{found(factcheck.QuoteInTitle, 0), factcheck.QuoteInTitle, "quote seen only in the page's title"},
		{seen(factcheck.QuoteInTitle), factcheck.QuoteInTitle, "seen only in the page's title, which carries no stance"},
		{seen(factcheck.QuoteInSummary), factcheck.QuoteInSummary, "a search summary written by a model, not the source's own words"},
		{factcheck.Evidence{QuoteOrSummary: "a quote"}, factcheck.QuoteNotFound, "quote not found in what was read"},
		// Saved before quote places existed.
		{factcheck.Evidence{QuoteOrSummary: "a quote", QuoteFound: true}, factcheck.QuoteUnknown, "quote found in the text that was read"},
		{factcheck.Evidence{}, factcheck.QuoteNotFound, ""},
	} {
		if got := tc.e.Where(); got != tc.where {
			t.Errorf("Where(%+v) = %q, want %q", tc.e, got, tc.where)
		}
		if got := words.QuoteNote(tc.e); got != tc.want {
			t.Errorf("QuoteNote(%+v) = %q, want %q", tc.e, got, tc.want)
		}
		// The adapters' view says the same.
		v := bot.English.ClaimFromVerdict(&factcheck.Verdict{Evidence: []factcheck.Evidence{tc.e}}).Evidence[0]
		if got := v.QuoteNote(); got != tc.want {
			t.Errorf("EvidenceView.QuoteNote() for %+v = %q, want %q", tc.e, got, tc.want)
		}
	}
}
