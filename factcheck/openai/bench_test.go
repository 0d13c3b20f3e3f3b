package openai

import (
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
)

// BenchmarkDecode decodes a response carrying a tool call written into the
// text inside <tool_call> tags, the slowest of the accepted shapes.
func BenchmarkDecode(b *testing.B) {
	m := &Model{name: "m"}
	body := []byte(completion(`{"role":"assistant","content":"Let me search.\n<tool_call>\n{\"name\": \"web_search\", \"arguments\": {\"query\": \"eiffel tower height\"}}\n</tool_call>"}`, "stop"))
	req := &factcheck.ModelRequest{Tools: testTools}
	for b.Loop() {
		if _, err := m.decode(body, req); err != nil {
			b.Fatal(err)
		}
	}
}
