package factcheck

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzFindSpan: offsets are in bounds, on rune boundaries, and name text
// that is the span up to case and white space — also where lower-casing
// changes a character's length in bytes (K, İ, ẞ).
func FuzzFindSpan(f *testing.F) {
	for _, s := range [][2]string{
		{"The Great Wall is visible from space. It is long.", "It is long."},
		{"the  great\nwall", "The Great Wall"},
		{"\u212a\u212a The Kelvin sign is K", "the kelvin sign"},
		{"İstanbul is big. İS IT", "is it"},
		{"", "x"}, {"abc", ""}, {"ABC abc", "abc"},
	} {
		f.Add(s[0], s[1], 0)
	}
	f.Fuzz(func(t *testing.T, text, span string, cursor int) {
		if cursor < 0 {
			cursor = -cursor
		}
		if !utf8.ValidString(text) || !utf8.ValidString(span) {
			return
		}
		start, end := findSpan(text, span, cursor%(len(text)+1))
		if start == -1 && end == -1 {
			return
		}
		if start < 0 || end < start || end > len(text) {
			t.Fatalf("findSpan(%q, %q) = %d, %d: out of bounds", text, span, start, end)
		}
		if !utf8.RuneStart(text[start]) || (end < len(text) && !utf8.RuneStart(text[end])) {
			t.Fatalf("findSpan(%q, %q) = %d, %d: not on rune boundaries", text, span, start, end)
		}
		got := strings.Fields(text[start:end])
		want := strings.Fields(strings.TrimSpace(span))
		if len(got) != len(want) {
			t.Fatalf("findSpan(%q, %q) = %q, want the span's %d words", text, span, text[start:end], len(want))
		}
		for i := range got {
			first, last := i == 0, i == len(got)-1
			g, w := strings.ToLower(got[i]), strings.ToLower(want[i])
			// Inner words are whole; the first may start inside a word and
			// the last may end inside one.
			ok := g == w || (first && strings.HasSuffix(g, w)) || (last && strings.HasPrefix(g, w)) || (first && last && strings.Contains(g, w))
			if !ok && !strings.EqualFold(got[i], want[i]) {
				t.Fatalf("findSpan(%q, %q) = %q: word %q is not %q", text, span, text[start:end], got[i], want[i])
			}
		}
	})
}

// FuzzJSONCandidates: every candidate is a JSON object found in the text.
func FuzzJSONCandidates(f *testing.F) {
	for _, s := range []string{`{"verdict":"supported"}`, "Here:\n```json\n{\"a\":1}\n```\nthanks", `prose {"a": {"b": 2}} more`, "```\n{}\n```", "{", "}{", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range jsonCandidates(text) {
			if !strings.HasPrefix(c, "{") || !json.Valid([]byte(c)) || !strings.Contains(text, c) {
				t.Fatalf("jsonCandidates(%q) gave %q: not a JSON object from the text", text, c)
			}
		}
	})
}

// FuzzCallsFromText: calls read from text only name offered tools, and carry
// JSON as arguments.
func FuzzCallsFromText(f *testing.F) {
	for _, s := range []string{
		`<tool_call>{"name":"web_search","arguments":{"query":"x"}}</tool_call>`,
		`{"name":"submit_verdict","parameters":{"verdict":"supported"}}`,
		`[{"name":"web_search","arguments":"{\"query\":\"y\"}"},{"name":"read_page","arguments":{"url":"https://a.example"}}]`,
		"```json\n{\"name\":\"web_search\",\"arguments\":{}}\n```",
		`{"name":"rm_rf","arguments":{}}`, `<tool_call>{"name":`, "",
	} {
		f.Add(s)
	}
	tools := []ToolSpec{{Name: "web_search"}, {Name: "read_page"}, {Name: "submit_verdict"}}
	f.Fuzz(func(t *testing.T, text string) {
		calls, _, ok := callsFromText(text, tools)
		if !ok {
			return
		}
		for _, c := range calls {
			if c.Name != "web_search" && c.Name != "read_page" && c.Name != "submit_verdict" {
				t.Fatalf("callsFromText(%q) called %q, a tool never offered", text, c.Name)
			}
			// Arguments that are not an object are passed on as JSON, so
			// that the tool runtime tells the model what was wrong.
			if !json.Valid(c.Args) {
				t.Fatalf("callsFromText(%q): arguments %s are not JSON", text, c.Args)
			}
		}
	})
}
