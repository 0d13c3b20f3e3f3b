package openai

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/factbot-dev/factbot/factcheck"
)

// chatRequest is a Chat Completions request body, as OpenAI documents it
// and the compatible servers read it.
type chatRequest struct {
	Model               string          `json:"model"`
	Messages            []chatMessage   `json:"messages"`
	Temperature         *float64        `json:"temperature,omitempty"`
	MaxTokens           int             `json:"max_tokens,omitempty"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	Tools               []chatTool      `json:"tools,omitempty"`
	ToolChoice          json.RawMessage `json:"tool_choice,omitempty"`
}

// chatMessage is one message of the conversation. Content is a *string,
// or []contentPart for text with pictures; it is omitted when nil: an
// assistant message with only tool calls has none.
type chatMessage struct {
	Role       string         `json:"role"`
	Content    any            `json:"content,omitempty"`
	ToolCalls  []chatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

// contentPart is one part of a user message's content: text, or a picture.
type contentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

type chatToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function chatFunctionCall `json:"function"`
}

type chatFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatTool struct {
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters"`
}

func text(s string) *string { return &s }

// params maps a factcheck request onto a Chat Completions request.
func (m *Model) params(req *factcheck.ModelRequest) *chatRequest {
	p := &chatRequest{Model: m.name, Messages: messages(req)}
	if req.Temperature != nil {
		t := float64(*req.Temperature)
		p.Temperature = &t
	}
	if req.MaxOutput > 0 {
		// OpenAI's newer models refuse max_tokens; many local servers only
		// know max_tokens.
		if m.hosted {
			p.MaxCompletionTokens = req.MaxOutput
		} else {
			p.MaxTokens = req.MaxOutput
		}
	}
	tools := req.Tools
	if req.ToolMode == factcheck.ToolRequired && len(req.Allowed) > 1 {
		// Only the allowed tools are offered, so "required" means one of them.
		tools = slices.DeleteFunc(slices.Clone(tools), func(t factcheck.ToolSpec) bool { return !slices.Contains(req.Allowed, t.Name) })
	}
	for _, t := range tools {
		fd := chatFunction{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
		if fd.Parameters == nil {
			fd.Parameters = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		p.Tools = append(p.Tools, chatTool{Type: "function", Function: fd})
	}
	if len(p.Tools) > 0 {
		switch req.ToolMode {
		case factcheck.ToolRequired:
			if len(req.Allowed) == 1 {
				p.ToolChoice, _ = json.Marshal(map[string]any{"type": "function", "function": map[string]string{"name": req.Allowed[0]}})
			} else {
				p.ToolChoice = json.RawMessage(`"required"`)
			}
		case factcheck.ToolNone:
			p.ToolChoice = json.RawMessage(`"none"`)
		}
	}
	return p
}

// callID returns the id sent for the j-th call of the i-th message: the
// provider's, or one made from the positions when it gave none.
func callID(c factcheck.ToolCall, i, j int) string {
	if c.ID != "" {
		return c.ID
	}
	return fmt.Sprintf("call_m%d_%d", i, j)
}

// messages maps the conversation. Tool results become "tool" messages whose
// tool_call_id is the result's ID or, when it has none, the id of the
// previous model message's call with the same name (in order).
func messages(req *factcheck.ModelRequest) []chatMessage {
	var out []chatMessage
	if req.System != "" {
		out = append(out, chatMessage{Role: "system", Content: text(req.System)})
	}
	var prev []factcheck.ToolCall // previous model message's calls, ids filled in
	for i, msg := range req.Sent() {
		switch msg.Role {
		case factcheck.RoleModel:
			a := chatMessage{Role: "assistant"}
			if msg.Text != "" {
				a.Content = text(msg.Text)
			}
			prev = prev[:0:0]
			for j, c := range msg.ToolCalls {
				c.ID = callID(c, i, j)
				prev = append(prev, c)
				args := string(c.Args)
				if strings.TrimSpace(args) == "" {
					args = "{}"
				}
				a.ToolCalls = append(a.ToolCalls, chatToolCall{ID: c.ID, Type: "function", Function: chatFunctionCall{Name: c.Name, Arguments: args}})
			}
			if msg.Text == "" && len(a.ToolCalls) == 0 {
				a.Content = text("")
			}
			out = append(out, a)
		default:
			used := make([]bool, len(prev))
			for k, r := range msg.ToolResults {
				id := r.ID
				if id == "" {
					id = matchCall(prev, used, r.Name)
				}
				if id == "" {
					id = fmt.Sprintf("call_m%d_r%d", i, k)
				}
				content := string(r.Content)
				if content == "" {
					content = "{}"
				}
				out = append(out, chatMessage{Role: "tool", Content: text(content), ToolCallID: id})
			}
			if len(msg.Images) > 0 {
				out = append(out, userWithImages(msg))
			} else if msg.Text != "" || len(msg.ToolResults) == 0 {
				out = append(out, chatMessage{Role: "user", Content: text(msg.Text)})
			}
			prev = nil
		}
	}
	return out
}

// matchCall finds the first unused call named name and marks it used.
func matchCall(calls []factcheck.ToolCall, used []bool, name string) string {
	for i, c := range calls {
		if !used[i] && c.Name == name {
			used[i] = true
			return c.ID
		}
	}
	for i, c := range calls { // a result with a wrong name: take the next unused call
		if !used[i] {
			used[i] = true
			return c.ID
		}
	}
	return ""
}

// wireResponse is the part of a Chat Completions response we read, typed
// loosely enough for local servers' variants.
type wireResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		FinishReason string `json:"finish_reason"`
		Message      struct {
			Content          json.RawMessage `json:"content"`
			Refusal          string          `json:"refusal"`
			ToolCalls        []wireToolCall  `json:"tool_calls"`
			FunctionCall     *wireFunction   `json:"function_call"`
			ReasoningContent string          `json:"reasoning_content"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// decode reads a response body into a factcheck response. Text stays text,
// even when it looks like a tool call: reading calls and results written as
// text is the factcheck loop's work, not the provider's.
func (m *Model) decode(body []byte) (*factcheck.ModelResponse, error) {
	var w wireResponse
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("openai: %s: undecodable response: %w", m.name, err)
	}
	if len(w.Choices) == 0 {
		return nil, fmt.Errorf("openai: %s: response has no choices", m.name)
	}
	ch := w.Choices[0]
	resp := &factcheck.ModelResponse{
		Usage:        factcheck.Usage{PromptTokens: w.Usage.PromptTokens, OutputTokens: w.Usage.CompletionTokens, CachedTokens: w.Usage.PromptTokensDetails.CachedTokens},
		Model:        w.Model,
		FinishReason: ch.FinishReason,
	}
	msg := factcheck.Message{Role: factcheck.RoleModel, Text: contentText(ch.Message.Content)}
	if msg.Text == "" && ch.Message.Refusal != "" {
		msg.Text = ch.Message.Refusal
	}
	calls := ch.Message.ToolCalls
	if len(calls) == 0 && ch.Message.FunctionCall != nil && ch.Message.FunctionCall.Name != "" {
		calls = []wireToolCall{{Function: *ch.Message.FunctionCall}}
	}
	for _, c := range calls {
		if c.Function.Name == "" {
			continue
		}
		msg.ToolCalls = append(msg.ToolCalls, factcheck.ToolCall{ID: c.ID, Name: c.Function.Name, Args: factcheck.ArgsObject(c.Function.Arguments)})
	}
	for i := range msg.ToolCalls {
		if msg.ToolCalls[i].ID == "" {
			msg.ToolCalls[i].ID = fmt.Sprintf("call_fb%d", m.ids.Add(1))
		}
	}
	resp.Message = msg
	return resp, nil
}

// contentText reads content given as a string, null, or an array of parts.
func contentText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}

// userWithImages is a user message of text and pictures, each sent as a
// data URL (the chat completions image_url part).
func userWithImages(msg factcheck.Message) chatMessage {
	parts := []contentPart{{Type: "text", Text: msg.Text}}
	for _, im := range msg.Images {
		u := "data:" + im.MIME + ";base64," + base64.StdEncoding.EncodeToString(im.Data)
		parts = append(parts, contentPart{Type: "image_url", ImageURL: &imageURL{URL: u}})
	}
	return chatMessage{Role: "user", Content: parts}
}
