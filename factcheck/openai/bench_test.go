package openai

import (
	"testing"
)

// BenchmarkDecode decodes a response carrying two tool calls whose
// arguments are JSON objects without ids (Ollama's shape), the slowest of
// the accepted shapes.
func BenchmarkDecode(b *testing.B) {
	m := &Model{name: "m"}
	body := []byte(completion(`{"role":"assistant","content":"Let me search.","tool_calls":[`+
		`{"function":{"name":"web_search","arguments":{"query":"eiffel tower height"}}},`+
		`{"function":{"name":"read_page","arguments":{"url":"https://example.org/eiffel"}}}]}`, "stop"))
	for b.Loop() {
		if _, err := m.decode(body); err != nil {
			b.Fatal(err)
		}
	}
}
