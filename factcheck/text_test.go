package factcheck

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindSpan(t *testing.T) {
	text := "La tour Eiffel mesure 330 mètres. Elle  fut construite en 1889. La tour Eiffel mesure 330 mètres."
	for _, tc := range []struct {
		span       string
		cursor     int
		start, end int
	}{
		{"La tour Eiffel mesure 330 mètres.", 0, 0, len("La tour Eiffel mesure 330 mètres.")},
		{"La tour Eiffel mesure 330 mètres.", 10, strings.LastIndex(text, "La tour"), len(text)},
		{"elle fut construite en 1889", 0, strings.Index(text, "Elle"), strings.Index(text, " 1889") + 5},
		{"construite en 1890", 0, -1, -1},
		{"", 0, -1, -1},
	} {
		s, e := findSpan(text, tc.span, tc.cursor)
		if s != tc.start || e != tc.end {
			t.Errorf("findSpan(%q, %d) = %d, %d; want %d, %d", tc.span, tc.cursor, s, e, tc.start, tc.end)
		}
	}
}

func TestQuoteFound(t *testing.T) {
	page := []string{"The Great Wall of China — frequently billed as the “only man-made object visible from space” — generally isn't.\nMore text here."}
	for _, tc := range []struct {
		quote string
		want  bool
	}{
		{"frequently billed as the only man-made object visible from space", true},
		{"FREQUENTLY   billed as the \"only man-made object\"", true},
		{"The Great Wall of China … generally isn't", true},
		{"The Great Wall of China... more text here", true},
		{"visible from the Moon", false},
		{"", false},
	} {
		if got := quoteFound(tc.quote, page); got != tc.want {
			t.Errorf("quoteFound(%q) = %v, want %v", tc.quote, got, tc.want)
		}
	}
}

func TestJSONFromText(t *testing.T) {
	type v struct {
		Verdict string `json:"verdict"`
	}
	for _, tc := range []struct {
		text string
		ok   bool
	}{
		{`{"verdict":"supported"}`, true},
		{"```json\n{\"verdict\":\"supported\"}\n```", true},
		{"Sure! {\"verdict\": \"supported\"} Hope that helps.", true},
		{"no json here", false},
		{"{broken", false},
		{"", false},
	} {
		var got v
		if ok := jsonFromText(tc.text, &got); ok != tc.ok || (ok && got.Verdict != "supported") {
			t.Errorf("jsonFromText(%q) = %v, %+v; want %v", tc.text, ok, got, tc.ok)
		}
	}
}

func TestOnlyURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/a?b=c":                   "https://example.com/a?b=c",
		" <https://example.com/a> ":                   "https://example.com/a",
		"<https://example.com/a|example.com/a>":       "https://example.com/a",
		"see https://example.com/a":                   "",
		"https://example.com/a https://example.org/b": "",
		"The Great Wall is visible from space":        "",
	} {
		if got := onlyURL(in); got != want {
			t.Errorf("onlyURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRelevantExcerpt(t *testing.T) {
	paras := []string{"Opening paragraph about the site.", strings.Repeat("Unrelated filler text. ", 20), "The Eiffel Tower is 330 metres tall since 2022.", strings.Repeat("More filler. ", 30)}
	text := strings.Join(paras, "\n")
	got, cut := relevantExcerpt(text, "How tall is the Eiffel Tower in metres?", 120)
	if !cut {
		t.Fatal("a long text was not excerpted")
	}
	if diff := cmp.Diff("Opening paragraph about the site.\n…\nThe Eiffel Tower is 330 metres tall since 2022.", got); diff != "" {
		t.Errorf("excerpt (-want +got):\n%s", diff)
	}
	if short, cut := relevantExcerpt("short", "x", 100); short != "short" || cut {
		t.Errorf("short text changed: %q %v", short, cut)
	}
}

func TestSchemaFor(t *testing.T) {
	s := SchemaFor[webSearchArgs]()
	want := map[string]any{
		"type":       "object",
		"required":   []any{"query"},
		"properties": map[string]any{"query": map[string]any{"type": "string", "description": "A web search query. Short and specific; quote exact phrases when useful."}},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
}

func TestExtractKeepsOnlyTheUsersLinks(t *testing.T) {
	text := "Per https://who.int/report the vaccine is safe."
	m := scriptedExtraction(`{"claims":[{"claim":"The vaccine is safe according to https://who.int/report and https://invented.example/","span":"the vaccine is safe"}]}`)
	x, err := (&Checker{Model: m}).Extract(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := x.Claims[0].Claim, "The vaccine is safe according to https://who.int/report and [link removed]"; got != want {
		t.Errorf("claim = %q, want %q", got, want)
	}
}

// scriptedExtraction answers every request with one submit_claims call.
func scriptedExtraction(args string) Model {
	return modelFunc(func(*ModelRequest) (*ModelResponse, error) {
		return &ModelResponse{Message: Message{Role: RoleModel, ToolCalls: []ToolCall{{ID: "1", Name: ToolSubmitClaims, Args: []byte(args)}}}}, nil
	})
}

type modelFunc func(*ModelRequest) (*ModelResponse, error)

func (f modelFunc) Name() string { return "func" }
func (f modelFunc) Generate(_ context.Context, req *ModelRequest) (*ModelResponse, error) {
	return f(req)
}
