package factcheck

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSONCandidates(t *testing.T) {
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
		cands := jsonCandidates(tc.text)
		ok := len(cands) > 0 && json.Unmarshal([]byte(cands[0]), &got) == nil
		if ok != tc.ok || (ok && got.Verdict != "supported") {
			t.Errorf("jsonCandidates(%q) = %q; want ok=%v", tc.text, cands, tc.ok)
		}
	}
}

var textTools = []ToolSpec{{Name: "web_search"}, {Name: "read_page"}, {Name: "submit_verdict"}}

// The shapes local models (Ollama, vLLM, llama.cpp) write calls in.
func TestCallsFromText(t *testing.T) {
	searchArgs := json.RawMessage(`{"query": "eiffel tower height"}`)
	for _, tc := range []struct {
		name     string
		text     string
		want     []ToolCall
		wantRest string
	}{
		{"call as JSON content", `{"name": "web_search", "arguments": {"query": "eiffel tower height"}}`,
			[]ToolCall{{Name: "web_search", Args: searchArgs}}, ""},
		{"call as JSON in a code fence with parameters", "```json\n{\"name\": \"web_search\", \"parameters\": {\"query\": \"eiffel tower height\"}}\n```",
			[]ToolCall{{Name: "web_search", Args: searchArgs}}, ""},
		{"OpenAI's function shape with string arguments", `[{"function": {"name": "read_page", "arguments": "{\"url\": \"https://example.org\"}"}}]`,
			[]ToolCall{{Name: "read_page", Args: json.RawMessage(`{"url": "https://example.org"}`)}}, ""},
		{"tool_call tags (Hermes/Qwen)",
			"Let me search.\n<tool_call>\n{\"name\": \"web_search\", \"arguments\": {\"query\": \"eiffel tower height\"}}\n</tool_call>\n<tool_call>{\"name\": \"read_page\", \"arguments\": \"{\\\"url\\\": \\\"https://example.org\\\"}\"}</tool_call>",
			[]ToolCall{{Name: "web_search", Args: searchArgs}, {Name: "read_page", Args: json.RawMessage(`{"url": "https://example.org"}`)}},
			"Let me search."},
		{"empty arguments", `{"name": "read_page"}`, []ToolCall{{Name: "read_page", Args: json.RawMessage(`{}`)}}, ""},
		{"unknown tool stays text", `{"name": "delete_all", "arguments": {}}`, nil, ""},
		{"a verdict is no call", `{"verdict": "supported", "confidence": "high", "reasoning": "r"}`, nil, ""},
		{"prose", "The claim is supported.", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, rest, ok := callsFromText(tc.text, textTools)
			if ok != (tc.want != nil) {
				t.Fatalf("ok = %v, want %v", ok, tc.want != nil)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if rest != tc.wantRest {
				t.Errorf("rest = %q, want %q", rest, tc.wantRest)
			}
		})
	}
}
