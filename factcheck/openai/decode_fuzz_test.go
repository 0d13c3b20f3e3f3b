package openai

import (
	"encoding/json"
	"testing"
)

// FuzzDecode: any response body from an OpenAI-compatible server decodes
// without panicking, into tool calls that each have a name, an id and JSON
// arguments, or into an error.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","choices":[{"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"web_search","arguments":"{\"query\":\"x\"}"}}]}}],"usage":{"prompt_tokens":10,"completion_tokens":2}}`,
		`{"choices":[{"message":{"content":[{"type":"text","text":"hello"}]}}]}`,
		`{"choices":[{"message":{"function_call":{"name":"submit_verdict","arguments":{"verdict":"supported"}}}}]}`,
		`{"choices":[{"message":{"tool_calls":[{"function":{"name":"read_page","arguments":"not json"}}]}}]}`,
		`{"choices":[{"message":{"refusal":"I can't"}}]}`,
		`{"choices":[]}`, `{}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	m := &Model{name: "fuzz"}
	f.Fuzz(func(t *testing.T, body []byte) {
		resp, err := m.decode(body)
		if err != nil {
			return
		}
		for _, c := range resp.Message.ToolCalls {
			if c.Name == "" || c.ID == "" || !json.Valid(c.Args) {
				t.Fatalf("decode(%q) gave the call %+v: want a name, an id and JSON arguments", body, c)
			}
		}
	})
}
