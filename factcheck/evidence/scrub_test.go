package evidence

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/search"
)

func linkTexts(text string) []string {
	var out []string
	for _, l := range findLinks(text) {
		out = append(out, text[l.start:l.end])
	}
	return out
}

func TestFindLinks(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"See https://evil.example/x now", []string{"https://evil.example/x"}},
		{"See HTTPS://evil.example/x now", []string{"HTTPS://evil.example/x"}},
		{"hTtP://evil.example", []string{"hTtP://evil.example"}},
		{"ftp://files.evil.example/a and javascript://x", []string{"ftp://files.evil.example/a", "javascript://x"}},
		{"log in at evil.example/login today", []string{"evil.example/login"}},
		{"go to www.evil.example.", []string{"www.evil.example"}},
		{"WWW.Evil.Unknownland is down", []string{"WWW.Evil.Unknownland"}},
		{"evil.co.uk, Evil.COM and evil.zip", []string{"evil.co.uk", "Evil.COM", "evil.zip"}},
		{"(see evil.com:8080/a?b=c#d).", []string{"evil.com:8080/a?b=c#d"}},
		{"evil.com/ and evil.com? yes", []string{"evil.com", "evil.com"}},
		{"https://en.wikipedia.org/wiki/Foo_(bar).", []string{"https://en.wikipedia.org/wiki/Foo_(bar)"}},
		{"[text](https://evil.com/a)", []string{"https://evil.com/a"}},
		{"<https://evil.com/a|label>", []string{"https://evil.com/a"}},
		{"“https://evil.com/a”", []string{"https://evil.com/a"}},
		{"write to jane.doe@evil.com or press_1@evil.com.", []string{"jane.doe@evil.com", "press_1@evil.com"}},
		{"write to press.office@evil.com.", []string{"press.office", "evil.com"}},
		{"192.168.1.1/admin and 10.0.0.1:8080", []string{"192.168.1.1/admin", "10.0.0.1:8080"}},
		{"evil.internal/login", []string{"evil.internal/login"}},
		{"evil。com and ｅｖｉｌ．ｃｏｍ", []string{"evil。com", "ｅｖｉｌ．ｃｏｍ"}},
		{"wait...evil.com", []string{"evil.com"}},
		{"ev\u00adil.com and evil\u200b.com", []string{"ev\u00adil.com", "evil\u200b.com"}},
		{"//evil.com/path", []string{"evil.com/path"}},
		{"https:/evil.com", []string{"evil.com"}},
		{"hxxps://evil[.]com", []string{"hxxps://evil"}},
		{"https://[2001:db8::1]/x and http://[::1]:80", []string{"https://[2001:db8::1]/x", "http://[::1]:80"}},
		{"http://[evil]/x", nil},
		{"bücher.de and пример.рф", []string{"bücher.de", "пример.рф"}},
		{"Amazon.com and ASP.NET", []string{"Amazon.com", "ASP.NET"}},
		{"e.g. i.e. U.S. a.m. Ph.D. etc.", nil},
		{"3.5 and 3.5% and version 1.2.3 and 1.1.1.1", nil},
		{"Node.js, report.pdf, main.go:42, file.txt", nil},
		{"wait...what? ... …", nil},
		{"http:// and ://x and x:// and 1://x", nil},
		{"evil.com ://x https://evil.example", []string{"evil.com", "https://evil.example"}},
		{"", nil},
	} {
		if diff := cmp.Diff(tc.want, linkTexts(tc.text)); diff != "" {
			t.Errorf("findLinks(%q) mismatch (-want +got):\n%s", tc.text, diff)
		}
	}
}

func TestScrubLinks(t *testing.T) {
	retrieved := map[string]bool{}
	for _, u := range []string{"https://www.nasa.gov/great-wall/", "http://old.example.org/page?id=3", "https://en.wikipedia.org/wiki/Foo_(bar)"} {
		retrieved[search.Canonical(u)] = true
	}
	allowed := func(u string) bool { return retrieved[u] }
	for _, tc := range []struct {
		text, want string
		removed    []string
	}{
		{"No links here.", "No links here.", nil},
		{"Per https://nasa.gov/great-wall?utm_source=x it is not.", "Per https://nasa.gov/great-wall?utm_source=x it is not.", nil},
		{"Per HTTPS://WWW.NASA.GOV/great-wall/ it is not.", "Per HTTPS://WWW.NASA.GOV/great-wall/ it is not.", nil},
		{"Per nasa.gov/great-wall and www.nasa.gov/great-wall.", "Per nasa.gov/great-wall and www.nasa.gov/great-wall.", nil},
		{"Old: old.example.org/page?id=3.", "Old: old.example.org/page?id=3.", nil},
		{"See https://en.wikipedia.org/wiki/Foo_(bar).", "See https://en.wikipedia.org/wiki/Foo_(bar).", nil},
		{"Per nasa.gov/other it is.", "Per [link removed] it is.", []string{"nasa.gov/other"}},
		{"Not visible, as https://evil.example/x explains.", "Not visible, as [link removed] explains.", []string{"https://evil.example/x"}},
		{"Not visible, as HTTPS://evil.example/x explains.", "Not visible, as [link removed] explains.", []string{"HTTPS://evil.example/x"}},
		{"Log in at evil.example/login or www.evil.example or evil.co.uk!", "Log in at [link removed] or [link removed] or [link removed]!", []string{"evil.example/login", "www.evil.example", "evil.co.uk"}},
		{"Mail nasa@nasa.gov.", "Mail [link removed].", []string{"nasa@nasa.gov"}},
		{"e.g. the U.S. grew 3.5% (report.pdf).", "e.g. the U.S. grew 3.5% (report.pdf).", nil},
		{"[link removed] stays", "[link removed] stays", nil},
	} {
		got, removed := ScrubLinks(tc.text, allowed)
		if got != tc.want {
			t.Errorf("ScrubLinks(%q) = %q, want %q", tc.text, got, tc.want)
		}
		if diff := cmp.Diff(tc.removed, removed); diff != "" {
			t.Errorf("ScrubLinks(%q) removed mismatch (-want +got):\n%s", tc.text, diff)
		}
	}
}

// checkLinks checks that the links found in text are in order, do not
// overlap, and are not empty.
func checkLinks(t *testing.T, text string) []link {
	t.Helper()
	links := findLinks(text)
	last := 0
	for _, l := range links {
		if l.start < last || l.end <= l.start || l.end > len(text) || len(l.keys) == 0 {
			t.Fatalf("findLinks(%q): bad link %+v after %d in %+v", text, l, last, links)
		}
		last = l.end
	}
	return links
}

func FuzzScrubLinks(f *testing.F) {
	for _, s := range []string{
		"Not visible, as https://evil.example/x explains.",
		"HTTPS://evil.example/x hTtP://good.example/y",
		"evil.example/login www.evil.example evil.co.uk good.example.org/a",
		"e.g. U.S. 3.5 report.pdf Node.js",
		"[a](https://good.com/a_(b)) <https://evil.com|x>",
		"x.com/https://evil.com good.com/http://evil.com",
		"mail a.b@good.com or c@evil.com:80/x",
		"10.0.0.1:8080 192.168.1.1/admin 1.1.1.1",
		"evil。com ｅｖｉｌ．ｃｏｍ bücher.de",
		"wait...evil.com..good.com",
	} {
		f.Add(s)
	}
	// A link is allowed when its canonical form mentions "good".
	allowed := func(u string) bool { return strings.Contains(u, "good") }
	f.Fuzz(func(t *testing.T, fuzzed string) {
		// Random text seldom looks like a link: also try it inside links.
		for _, text := range []string{fuzzed, "https://" + fuzzed, "www." + fuzzed + ".com", fuzzed + ".good.example/" + fuzzed} {
			checkScrub(t, text, allowed)
		}
		// A link between spaces is found whatever surrounds it.
		for _, marker := range []string{"evil.com", "HTTPS://evil.example/x", "www.evil.example", "evil.example/login", "10.0.0.1:80"} {
			text := fuzzed + " " + marker + " " + fuzzed
			at := len(fuzzed) + 1
			found := false
			for _, l := range checkLinks(t, text) {
				found = found || l.start <= at && at+len(marker) <= l.end
			}
			if !found {
				t.Errorf("findLinks(%q) misses %s", text, marker)
			}
		}
	})
}

// checkScrub checks that scrubbing text keeps no link that allowed refuses
// and that scrubbing the result again changes nothing.
func checkScrub(t *testing.T, text string, allowed func(string) bool) {
	t.Helper()
	checkLinks(t, text)
	out, removed := ScrubLinks(text, allowed)
	if removed == nil && out != text {
		t.Fatalf("ScrubLinks(%q) = %q but removed nothing", text, out)
	}
	for _, l := range checkLinks(t, out) {
		ok := false
		for _, k := range l.keys {
			ok = ok || allowed(k)
		}
		if !ok {
			t.Errorf("ScrubLinks(%q) = %q keeps %q", text, out, out[l.start:l.end])
		}
	}
	if again, removed := ScrubLinks(out, allowed); again != out || removed != nil {
		t.Errorf("ScrubLinks(%q) = %q, but scrubbing that again gives %q removing %q", text, out, again, removed)
	}
}
