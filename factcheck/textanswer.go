package factcheck

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Models, local ones especially, sometimes write what should have been a
// tool call into their text: the call itself as JSON or inside
// <tool_call> tags, or the finishing tool's arguments as a JSON object,
// often in a code fence. The loop reads them here, and only here:
// providers return the model's text as text.

var fenceRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("(?s)```(?:json|JSON)?\\s*(.*?)```")
})

// jsonCandidates returns the JSON objects a text answer may hold, most
// likely first: the whole text, each fenced block, the outermost braces.
func jsonCandidates(text string) []string {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	cands := []string{text}
	for _, m := range fenceRE().FindAllStringSubmatch(text, -1) {
		cands = append(cands, strings.TrimSpace(m[1]))
	}
	if i, j := strings.Index(text, "{"), strings.LastIndex(text, "}"); i >= 0 && j > i {
		cands = append(cands, text[i:j+1])
	}
	return slices.DeleteFunc(cands, func(c string) bool {
		return !strings.HasPrefix(c, "{") || !json.Valid([]byte(c))
	})
}

var (
	toolCallTag = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?s)<tool_call>\s*(.*?)\s*(?:</tool_call>|$)`)
	})
	codeFence = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?s)^```[a-zA-Z]*\\s*(.*?)\\s*```$") })
)

// callsFromText finds tool calls a model wrote into its text: inside
// <tool_call>…</tool_call> tags (Hermes/Qwen style), or as the whole text,
// a JSON object {"name": …, "arguments"|"parameters": …} or an array of
// them, possibly in a code fence. Only names of offered tools count. It
// returns the calls (without ids) and the text left around them.
func callsFromText(text string, tools []ToolSpec) ([]ToolCall, string, bool) {
	known := func(n string) bool {
		return slices.ContainsFunc(tools, func(t ToolSpec) bool { return t.Name == n })
	}
	if strings.Contains(text, "<tool_call>") {
		var calls []ToolCall
		for _, m := range toolCallTag().FindAllStringSubmatch(text, -1) {
			cs, ok := parseCallJSON(m[1], known)
			if !ok {
				return nil, "", false
			}
			calls = append(calls, cs...)
		}
		if len(calls) == 0 {
			return nil, "", false
		}
		return calls, strings.TrimSpace(toolCallTag().ReplaceAllString(text, "")), true
	}
	t := strings.TrimSpace(text)
	if m := codeFence().FindStringSubmatch(t); m != nil {
		t = m[1]
	}
	if calls, ok := parseCallJSON(t, known); ok {
		return calls, "", true
	}
	return nil, "", false
}

// textCall is one call written as JSON, in the shapes models use.
type textCall struct {
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	Parameters json.RawMessage `json:"parameters"`
	Function   *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

func parseCallJSON(s string, known func(string) bool) ([]ToolCall, bool) {
	s = strings.TrimSpace(s)
	var list []textCall
	if strings.HasPrefix(s, "[") {
		if json.Unmarshal([]byte(s), &list) != nil {
			return nil, false
		}
	} else {
		var c textCall
		if json.Unmarshal([]byte(s), &c) != nil {
			return nil, false
		}
		list = []textCall{c}
	}
	var out []ToolCall
	for _, c := range list {
		if c.Function != nil && c.Name == "" {
			c.Name, c.Arguments = c.Function.Name, c.Function.Arguments
		}
		if !known(c.Name) {
			return nil, false
		}
		args := c.Arguments
		if len(args) == 0 {
			args = c.Parameters
		}
		out = append(out, ToolCall{Name: c.Name, Args: ArgsObject(args)})
	}
	return out, len(out) > 0
}

// ArgsObject turns a tool call's arguments given as a JSON string, a JSON
// object, or nothing into a JSON object's bytes, as models and servers send
// them all three ways. Text that is not JSON is passed on as a JSON string,
// so that the loop reports the bad arguments to the model. Providers call
// it on the arguments they receive.
func ArgsObject(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return raw
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return json.RawMessage("{}")
		}
		if json.Valid([]byte(s)) {
			return json.RawMessage(s)
		}
		return raw
	}
	return slices.Clone(raw)
}
