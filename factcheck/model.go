package factcheck

import (
	"context"
	"encoding/json"
)

// Model is a chat model that can call tools. Providers live in subpackages
// (factcheck/gemini, factcheck/openai); the loop only sees this interface.
type Model interface {
	// Name is the model's name as reported in verdicts, e.g. "gemini-flash-latest".
	Name() string
	// Generate sends one request. Providers retry rate limits and server
	// errors themselves, within bounds, before returning an error.
	Generate(ctx context.Context, req *ModelRequest) (*ModelResponse, error)
}

// Role says who wrote a message.
type Role string

const (
	RoleUser  Role = "user"
	RoleModel Role = "model"
)

// Message is one turn of the conversation.
type Message struct {
	Role Role   `json:"role"`
	Text string `json:"text,omitempty"`
	// ToolCalls are the calls the model asked for (RoleModel).
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolResults answer the previous message's calls (RoleUser).
	ToolResults []ToolResult `json:"tool_results,omitempty"`
	// Images are pictures sent with the text (RoleUser), only to a model
	// that reads them (see ImageReader).
	Images []File `json:"-"`
}

// ToolCall is one function call requested by the model.
type ToolCall struct {
	// ID is the provider's call id, if it has one; results echo it.
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
	// Signature is opaque provider data that must be sent back with the
	// call in later turns (Gemini's thought signature).
	Signature []byte `json:"signature,omitempty"`
}

// ToolResult is the observation returned for one ToolCall. Content is a
// JSON object; errors are reported inside it as {"error": "..."}.
type ToolResult struct {
	ID      string          `json:"id,omitempty"`
	Name    string          `json:"name"`
	Content json.RawMessage `json:"content"`
}

// ToolSpec declares a tool to the model.
type ToolSpec struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is a JSON Schema object for the arguments.
	Parameters map[string]any `json:"parameters"`
}

// ToolMode says whether the model may, must or must not call tools.
type ToolMode string

const (
	ToolAuto     ToolMode = ""         // the model chooses
	ToolRequired ToolMode = "required" // the model must call one of Allowed (or any tool if empty)
	ToolNone     ToolMode = "none"     // no tool calls
)

// ModelRequest is one call to the model.
type ModelRequest struct {
	System   string
	Messages []Message
	// Folded, when set, is what a provider sends in place of Messages: a
	// compact transcript, the turns before the model's latest written as
	// text after the first message (see Sent).
	Folded   []Message
	Tools    []ToolSpec
	ToolMode ToolMode
	// Allowed restricts ToolRequired to these tool names.
	Allowed     []string
	Temperature *float32
	MaxOutput   int
}

// Sent returns the conversation a provider sends: Folded when set, else
// Messages.
func (r *ModelRequest) Sent() []Message {
	if r.Folded != nil {
		return r.Folded
	}
	return r.Messages
}

// Usage counts tokens for one call.
type Usage struct {
	PromptTokens int `json:"prompt_tokens"`
	OutputTokens int `json:"output_tokens"`
	// CachedTokens is the part of PromptTokens the provider served from its
	// prompt cache (billed at a discount), when it says.
	CachedTokens int `json:"cached_tokens,omitempty"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{PromptTokens: u.PromptTokens + o.PromptTokens, OutputTokens: u.OutputTokens + o.OutputTokens, CachedTokens: u.CachedTokens + o.CachedTokens}
}

// ModelResponse is the model's answer.
type ModelResponse struct {
	Message Message
	Usage   Usage
	// Model is the model version that answered, if the provider says.
	Model string
	// FinishReason is the provider's reason, for the trace.
	FinishReason string
}
