package evidence

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/unicode/norm"
)

func TestQuoteNormalize(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"", " "},
		{"  \n\t ", " "},
		{"Hello,   World!", " hello world "},
		{"“Only” man‑made — object’s", " only man made object s "},
		{"ＦＵＬＬ　ｗｉｄｔｈ", " full width "},
		{"grew by 130 percent", " grew by 130 percent "},
		{"3.5% vs 35%", " 3.5 % vs 35 % "},
		{"1,000 and 1.000,5", " 1,000 and 1.000,5 "},
		{"ends in 1990. Next, 2.", " ends in 1990 next 2 "},
		{"fell to -5, −5, –5 or +5", " fell to -5 -5 -5 or +5 "},
		{"2020-2021 and COVID-19", " 2020 2021 and covid 19 "},
		{"a-5 x - 5", " a 5 x 5 "},
		{"C++ and 5+ years, x<5, ±2", " c + + and 5 + years x < 5 ± 2 "},
		{"$5 or €4.50", " $ 5 or € 4.50 "},
		{"長城在太空", " 長 城 在 太 空 "},
		{"2020年", " 2020 年 "},
		{"ΟΔΟΣ οδος", " οδοσ οδοσ "},
		{"e\u0301te\u0301", " été "},
		{"x…y", " x y "},
	} {
		if got := quoteNormalize(tc.in); got != tc.want {
			t.Errorf("quoteNormalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMatchQuote(t *testing.T) {
	const (
		growth  = "Revenue grew by 130 percent in 2023, according to the annual report."
		rate    = "Inflation rose to 3.5% last year, the bank said."
		bridge  = "The bridge was not built in 1990 because the funds ran out."
		wall    = "The Great Wall of China — frequently billed as the “only man-made object visible from space” — generally isn't.\nMore text here."
		greek   = "alpha beta gamma delta. epsilon zeta eta theta. iota kappa lambda mu. nu xi omicron pi. rho sigma tau upsilon."
		chinese = "长城在太空中肉眼不可见。"
		spaced  = "Alpha beta gamma delta one. Epsilon zeta eta theta two. Iota kappa lambda mu three."
	)
	page := func(text string) []source { return []source{{OnPage, 0, text}} }
	onPage := Match{Place: OnPage}
	for _, tc := range []struct {
		name    string
		quote   string
		sources []source
		want    Match
	}{
		{"exact", "grew by 130 percent in 2023", page(growth), onPage},
		{"number cut at start", "30 percent in 2023 according", page(growth), Match{}},
		{"number cut at end", "Revenue grew by 13", page(growth), Match{}},
		{"word cut at start", "evenue grew by 130 percent", page(growth), Match{}},
		{"word cut at end", "according to the annual rep", page(growth), Match{}},
		{"decimal point kept", "Inflation rose to 35% last year", page(rate), Match{}},
		{"decimal point kept other way", "Inflation rose to 3.5% last year", page("Inflation rose to 35% last year."), Match{}},
		{"percent sign kept", "Inflation rose to 3.5 last year", page(rate), Match{}},
		{"spaced percent", "inflation rose to 3.5 % last year", page(rate), onPage},
		{"thousands separator kept", "1000 people were evacuated overnight", page("Officials said 1,000 people were evacuated overnight."), Match{}},
		{"thousands separator", "1,000 people were evacuated overnight", page("Officials said 1,000 people were evacuated overnight."), onPage},
		{"sign kept", "temperatures fell to 5 degrees overnight", page("Temperatures fell to -5 degrees overnight."), Match{}},
		{"minus sign folds", "temperatures fell to −5 degrees overnight", page("Temperatures fell to -5 degrees overnight."), onPage},
		{"en dash as minus folds", "temperatures fell to –5 degrees overnight", page("Temperatures fell to -5 degrees overnight."), onPage},
		{"plus sign kept", "the index closed at 5 points", page("The index closed at +5 points."), Match{}},
		{"negation dropped", "The bridge was built in 1990", page(bridge), Match{}},
		{"negation elided with a short part", "The bridge was … built in 1990", page(bridge), Match{}},
		{"negation elided", "The bridge was not … built in 1990 because the", page(bridge), onPage},
		{"tiny parts", "a … e", page(greek), Match{}},
		{"one short part", "alpha beta gamma delta … eta", page(greek), Match{}},
		{"in order", "alpha beta gamma delta … epsilon zeta eta theta", page(greek), onPage},
		{"three dots", "alpha beta gamma delta...iota kappa lambda mu", page(greek), onPage},
		{"spaced dots", "alpha beta gamma delta . . . iota kappa lambda mu", page(greek), onPage},
		{"dots spaced by any white space", "alpha beta gamma delta .\v.\u2028. iota kappa lambda mu", page(greek), onPage},
		{"bracketed ellipsis", "alpha beta gamma delta […] iota kappa lambda mu", page(greek), onPage},
		{"out of order", "epsilon zeta eta theta … alpha beta gamma delta", page(greek), Match{}},
		{"overlapping parts", "alpha beta gamma delta … gamma delta epsilon zeta", page(greek), Match{}},
		{"four parts", "alpha beta gamma delta … epsilon zeta eta theta … iota kappa lambda mu … nu xi omicron pi", page(greek), onPage},
		{"five parts", "alpha beta gamma delta … epsilon zeta eta theta … iota kappa lambda mu … nu xi omicron pi … rho sigma tau upsilon", page(greek), Match{}},
		{"leading and trailing ellipses", "… alpha beta gamma delta …", page(greek), onPage},
		{"empty", "", page(greek), Match{}},
		{"blank", " \n ", page(greek), Match{}},
		{"only ellipses", "… ...", page(greek), Match{}},
		{"only punctuation", "“—”", page(greek), Match{}},
		{"too short", "generally isn't", page(wall), Match{}},
		{"three words", "alpha beta gamma", page(greek), Match{}},
		{"folds case, quotes, spaces", "FREQUENTLY   billed as the \"only man-made object\"", page(wall), onPage},
		{"folds Unicode form", "ｆｒｅｑｕｅｎｔｌｙ billed as the", page(wall), onPage},
		{"crosses lines", "generally isn't. More text here", page(wall), onPage},
		{"elided across the page", "The Great Wall of China … isn't. More text here", page(wall), onPage},
		{"elided, a part runs on", "Alpha beta gamma delta … one. Epsilon zeta eta theta", page(spaced), onPage},
		{"elided, parts run on", "beta gamma delta one. Epsilon … eta theta two. Iota kappa", page(spaced), onPage},
		{"elision across sentences", "Alpha beta gamma delta … epsilon zeta eta theta", page(spaced), Match{}},
		{"elision across sentences, later part", "Alpha beta gamma delta one. Epsilon … zeta eta theta two … kappa lambda mu three", page(spaced), Match{}},
		{"elided with a short part", "The Great Wall of China … more text here", page(wall), Match{}},
		{"not on the page", "visible from the Moon with the naked eye", page(wall), Match{}},
		{"han characters", "长城在太空中肉眼", page(chinese), onPage},
		{"han characters mid-sentence", "城在太空中肉眼不", page(chinese), onPage},
		{"too few han characters", "太空中", page(chinese), Match{}},
		{"no sources", "alpha beta gamma delta", nil, Match{}},
		{"snippet only", "alpha beta gamma delta", []source{
			{InTitle, 0, "Greek letters"},
			{InSnippet, 0, greek},
			{OnPage, 0, "nothing here"},
		}, Match{Place: InSnippet}},
		{"title only", "alpha beta gamma delta", []source{
			{InTitle, 0, "Alpha, beta, gamma, delta"},
			{InSnippet, 0, "alpha beta gamma"},
		}, Match{Place: InTitle}},
		{"page beats snippet and title", "alpha beta gamma delta", []source{
			{InTitle, 0, greek},
			{InSnippet, 0, greek},
			{OnPage, 0, greek},
		}, onPage},
		{"page beats PDF", "alpha beta gamma delta", []source{
			{InPDF, 2, greek},
			{OnPage, 0, greek},
		}, onPage},
		{"first PDF page", "iota kappa lambda mu", []source{
			{InSnippet, 0, greek},
			{InPDF, 1, "nothing"},
			{InPDF, 3, greek},
			{InPDF, 4, greek},
		}, Match{Place: InPDF, Page: 3}},
		{"parts in one text", "alpha beta gamma delta … iota kappa lambda mu", []source{
			{OnPage, 0, "alpha beta gamma delta"},
			{InSnippet, 0, "iota kappa lambda mu"},
		}, Match{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := locateIn(tc.quote, tc.sources, Add)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Locate(%q) mismatch (-want +got):\n%s", tc.quote, diff)
			}
			if got.Found() != (tc.want != Match{}) {
				t.Errorf("Found() = %v for %+v", got.Found(), got)
			}
		})
	}
}

// TestLocateElidedCitesWhole shows that an elided quote whose last part
// runs on into the next sentence cites both sentences whole.
func TestLocateElidedCitesWhole(t *testing.T) {
	var ps Passages
	ps.Add(OnPage, 0, "Zero one two three. The Great Wall of China is long. It is not visible from space, NASA says. Four five six seven.")
	for _, tc := range []struct {
		quote       string
		first, last int
		text        string
		widened     bool
	}{
		{"The Great Wall of China … long. It is not visible from space", 1, 2, "The Great Wall of China is long. It is not visible from space, NASA says.", true},
		// Within one sentence, the pair before it is not cited.
		{"It is not visible … from space, NASA says", 2, 2, "It is not visible from space, NASA says.", false},
	} {
		c := Locate(&ps, nil, "https://example.com/", tc.quote)
		got := []any{c.First, c.Last, c.Quote, c.Widened}
		if diff := cmp.Diff([]any{tc.first, tc.last, tc.text, tc.widened}, got); diff != "" {
			t.Errorf("Locate(%q) mismatch (-want +got):\n%s", tc.quote, diff)
		}
	}
}

func TestQuoteMatchJSON(t *testing.T) {
	type evidence struct {
		QuoteFound bool `json:"quote_found"`
		Match
	}
	for _, tc := range []struct {
		m        Match
		json     string
		str      string
		document bool
	}{
		{Match{}, `{"quote_found":false}`, "", false},
		{Match{Place: OnPage}, `{"quote_found":true,"quote_place":"page"}`, "page text", true},
		{Match{Place: InPDF, Page: 3}, `{"quote_found":true,"quote_place":"pdf","quote_page":3}`, "PDF page 3", true},
		{Match{Place: InSnippet}, `{"quote_found":true,"quote_place":"snippet"}`, "search snippet", false},
		{Match{Place: InTitle}, `{"quote_found":true,"quote_place":"title"}`, "title", false},
	} {
		b, err := json.Marshal(evidence{tc.m.Found(), tc.m})
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.json {
			t.Errorf("JSON of %+v = %s, want %s", tc.m, b, tc.json)
		}
		var back evidence
		if err := json.Unmarshal(b, &back); err != nil || back.Match != tc.m {
			t.Errorf("JSON round trip of %+v = %+v, %v", tc.m, back.Match, err)
		}
		if got := tc.m.String(); got != tc.str {
			t.Errorf("String(%+v) = %q, want %q", tc.m, got, tc.str)
		}
		if got := tc.m.InDocument(); got != tc.document {
			t.Errorf("InDocument(%+v) = %v, want %v", tc.m, got, tc.document)
		}
	}
}

// The reference matcher below is slow and written for obviousness: the text
// becomes a list of tokens, the quote a list of token lists, and every
// in-order placement of the parts at token positions is tried.

// refTokens tokenises s by the rules documented on quoteNormalize, one rune
// at a time with a look at its neighbours.
func refTokens(s string) []string {
	rs := []rune(norm.NFKC.String(s))
	var toks []string
	var cur []rune
	kind := "" // "word", "unspaced" or "" (no open token)
	flush := func() {
		if cur != nil {
			toks = append(toks, string(cur))
		}
		cur, kind = nil, ""
	}
	digit := func(i int) bool { return i >= 0 && i < len(rs) && unicode.IsDigit(rs[i]) }
	for i, r := range rs {
		lower := unicode.ToLower(r)
		if lower == 'ς' {
			lower = 'σ'
		}
		switch {
		case unicode.IsMark(r):
			if kind != "" {
				cur = append(cur, r)
			}
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar):
			flush()
			cur, kind = []rune{lower}, "unspaced"
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			if kind != "word" {
				flush()
				kind = "word"
			}
			cur = append(cur, lower)
		case (r == '.' || r == ',') && kind == "word" && digit(i-1) && digit(i+1):
			cur = append(cur, r)
		case strings.ContainsRune("-−﹣－+", r) || unicode.Is(unicode.Pd, r):
			if kind != "word" && digit(i+1) {
				flush()
				sign := '-'
				if r == '+' {
					sign = '+'
				}
				cur, kind = []rune{sign}, "word"
			} else {
				flush()
				if r == '+' {
					toks = append(toks, "+")
				}
			}
		case strings.ContainsRune("%‰‱<>=≤≥≠≈±×÷", r) || unicode.Is(unicode.Sc, r):
			flush()
			toks = append(toks, string(r))
		default:
			flush()
		}
	}
	flush()
	return toks
}

// refParts splits quote at ellipses ("…" after NFKC is "...", three or more
// dots with optional white space between them, or "⋯") and tokenises the
// parts; ok is false when the quote cannot be verified.
func refParts(quote string) (parts [][]string, ok bool) {
	rs := []rune(norm.NFKC.String(quote))
	var pieces []string
	start := 0
	for i := 0; i < len(rs); i++ {
		if rs[i] == '⋯' {
			pieces = append(pieces, string(rs[start:i]))
			start = i + 1
			continue
		}
		if rs[i] != '.' {
			continue
		}
		dots, j, end := 0, i, i
		for j < len(rs) && (rs[j] == '.' || unicode.IsSpace(rs[j])) {
			if rs[j] == '.' {
				dots++
				end = j + 1
			}
			j++
		}
		if dots >= 3 {
			pieces = append(pieces, string(rs[start:i]))
			start = end
			i = end - 1
		}
	}
	pieces = append(pieces, string(rs[start:]))
	for _, p := range pieces {
		toks := refTokens(p)
		if len(toks) == 0 {
			continue
		}
		units := 0
		for _, tok := range toks {
			r, _ := utf8.DecodeRuneInString(tok)
			switch {
			case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar):
				units++
			case unicode.IsLetter(r) || unicode.IsNumber(r) || (r == '-' || r == '+') && len(tok) > 1:
				units += 2
			}
		}
		if units < quoteMinUnits {
			return nil, false
		}
		parts = append(parts, toks)
	}
	return parts, len(parts) > 0 && len(parts) <= quoteMaxParts
}

// refPlaced reports whether parts[k:] can be placed in order in text at
// token positions from from on.
func refPlaced(parts [][]string, text []string, k, from int) bool {
	if k == len(parts) {
		return true
	}
	for i := from; i+len(parts[k]) <= len(text); i++ {
		if cmp.Equal(text[i:i+len(parts[k])], parts[k]) && refPlaced(parts, text, k+1, i+len(parts[k])) {
			return true
		}
	}
	return false
}

func refMatch(quote, text string) bool {
	parts, ok := refParts(quote)
	return ok && refPlaced(parts, refTokens(text), 0, 0)
}

// cutRunes returns the runes of s from a to b (taken modulo the length).
func cutRunes(s string, a, b uint16) string {
	rs := []rune(s)
	if len(rs) == 0 {
		return ""
	}
	i, j := int(a)%(len(rs)+1), int(b)%(len(rs)+1)
	if i > j {
		i, j = j, i
	}
	return string(rs[i:j])
}

// source is one text retrieved for a URL: its place, PDF page and text.
type source struct {
	place Place
	page  int
	text  string
}

// wholeText adds a text to ps as one sentence, unsplit, so that the fuzz
// test below compares the matching rule over a whole text with the
// reference.
func wholeText(ps *Passages, place Place, page int, text string) (int, int) {
	first := len(ps.Sents)
	ps.Sents = append(ps.Sents, Sentence{Text: text, Place: place, Page: page, Norm: quoteNormalize(text)})
	ps.Groups = append(ps.Groups, [2]int{first, first + 1})
	return first, first + 1
}

// Add is (*Passages).Add as a function, as wholeText is.
func Add(ps *Passages, place Place, page int, text string) (int, int) {
	return ps.Add(place, page, text)
}

// locateIn locates quote, the one way a quote string is resolved, in the
// texts of one source added with add; titles are passed as titles.
func locateIn(quote string, sources []source, add func(*Passages, Place, int, string) (int, int)) Match {
	var ps Passages
	var titles []string
	for _, s := range sources {
		if s.place == InTitle {
			titles = append(titles, s.text)
			continue
		}
		add(&ps, s.place, s.page, s.text)
	}
	return Locate(&ps, titles, "https://example.com/", quote).Match
}

func FuzzMatchQuote(f *testing.F) {
	f.Add("grew by 13 percent in", "Revenue grew by 130 percent in 2023.", uint16(8), uint16(30), uint16(40), uint16(60))
	f.Add("The bridge was … built in 1990", "The bridge was not built in 1990 because funds ran out.", uint16(0), uint16(20), uint16(19), uint16(50))
	f.Add("a … e", "alpha beta gamma delta epsilon", uint16(0), uint16(11), uint16(12), uint16(30))
	f.Add("rose to 3.5 % last year", "Inflation rose to 3.5% last year.", uint16(10), uint16(33), uint16(0), uint16(0))
	f.Add("fell to −5 degrees overnight", "Temperatures fell to -5 degrees overnight.", uint16(0), uint16(42), uint16(3), uint16(9))
	f.Add("长城在太空中肉眼", "长城在太空中肉眼不可见。", uint16(1), uint16(9), uint16(0), uint16(4))
	f.Add("one two three four ... five six seven eight", "one two three four five six seven eight", uint16(0), uint16(18), uint16(18), uint16(40))
	f.Fuzz(func(t *testing.T, quote, page string, a, b, c, d uint16) {
		if len(quote) > 200 || len(page) > 400 {
			t.Skip("the reference is exponential in the number of parts")
		}
		check := func(q string) {
			half := len(page) / 2
			for half > 0 && !utf8.RuneStart(page[half]) {
				half--
			}
			first, second := page[:half], page[half:]
			want := Match{}
			switch {
			case refMatch(q, page):
				want.Place = OnPage
			case refMatch(q, second):
				want = Match{Place: InPDF, Page: 2}
			case refMatch(q, first):
				want.Place = InSnippet
			}
			got := locateIn(q, []source{
				{InSnippet, 0, first},
				{InPDF, 2, second},
				{OnPage, 0, page},
			}, wholeText)
			if got != want {
				t.Errorf("Locate(%q) in %q = %+v, reference says %+v", q, page, got, want)
			}
		}
		check(quote)
		// Quotes cut from the page itself match far more often than random
		// ones, and exercise boundaries and elisions.
		check(cutRunes(page, a, b))
		check(cutRunes(page, a, b) + " … " + cutRunes(page, c, d))
		check(cutRunes(page, a, b) + "..." + cutRunes(page, c, d) + "…" + quote)
	})
}

func BenchmarkMatchQuote(b *testing.B) {
	// A 200 KB page of varied sentences, the quote's parts near its end.
	var sb strings.Builder
	words := strings.Fields("the of and a to in is was for on that with as by at from it an be this which or are were has had not but 1990 3.5% −5 “quoted” — report")
	for i := 0; sb.Len() < 200<<10; i++ {
		sb.WriteString(words[(i*7)%len(words)])
		if i%13 == 12 {
			sb.WriteString(".\n")
		} else {
			sb.WriteByte(' ')
		}
	}
	sb.WriteString("Revenue grew by 130 percent in 2023, according to the annual report, which the board approved unanimously.")
	text := sb.String()
	quote := "Revenue grew by 130 percent … according to the annual report … the board approved unanimously"
	b.Run("match", func(b *testing.B) {
		var ps Passages
		ps.Add(InSnippet, 0, text[:300])
		ps.Add(OnPage, 0, text)
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if m := Locate(&ps, nil, "https://example.com/", quote).Match; m.Place != OnPage {
				b.Fatalf("got %+v", m)
			}
		}
	})
	b.Run("prepare", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			var ps Passages
			ps.Add(OnPage, 0, text)
		}
	})
}
