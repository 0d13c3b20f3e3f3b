package geminitest

import (
	"encoding/json"
	"strings"
	"testing"
)

// Request is one generateContent call as the fake server parsed it from the
// wire. Field names follow the Gemini REST API.
type Request struct {
	// Model is the model name from the URL path, without "models/",
	// e.g. "gemini-flash-latest".
	Model string
	// APIKey is the x-goog-api-key header the client sent.
	APIKey string
	// System is the text of systemInstruction's parts, joined by newlines.
	System string
	// Contents is the conversation, oldest first.
	Contents []Content
	// Tools are the function declarations of all tools, in order.
	Tools []FunctionDeclaration
	// Mode is toolConfig.functionCallingConfig.mode ("AUTO", "ANY", "NONE"),
	// or "" when the client did not set it.
	Mode string
	// Allowed is toolConfig.functionCallingConfig.allowedFunctionNames.
	Allowed []string
	// Temperature is generationConfig.temperature, if set.
	Temperature *float64
	// MaxOutputTokens is generationConfig.maxOutputTokens, 0 if unset.
	MaxOutputTokens int
	// Body is the raw request body, e.g. to measure prompt size.
	Body []byte

	t testing.TB
}

// Content is one turn of the conversation on the wire.
type Content struct {
	Role  string `json:"role,omitempty"`
	Parts []Part `json:"parts,omitempty"`
}

// Part is one part of a Content. Exactly one of Text, InlineData,
// FunctionCall and FunctionResponse is normally set.
type Part struct {
	Text             string            `json:"text,omitempty"`
	InlineData       *Blob             `json:"inlineData,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	ThoughtSignature []byte            `json:"thoughtSignature,omitempty"`
	FunctionCall     *FunctionCall     `json:"functionCall,omitempty"`
	FunctionResponse *FunctionResponse `json:"functionResponse,omitempty"`
}

// Blob is inline data: a picture sent with the text (base64 on the wire,
// decoded here).
type Blob struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"`
}

// InlineData returns the inline data parts of the conversation, in order.
func (r *Request) InlineData() []Blob {
	var out []Blob
	for _, c := range r.Contents {
		for _, p := range c.Parts {
			if p.InlineData != nil {
				out = append(out, *p.InlineData)
			}
		}
	}
	return out
}

// FunctionCall is a call the model asked for (role "model").
type FunctionCall struct {
	ID   string         `json:"id,omitempty"`
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
}

// FunctionResponse answers a FunctionCall (role "user").
type FunctionResponse struct {
	ID       string         `json:"id,omitempty"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response,omitempty"`
}

// FunctionDeclaration declares one tool.
type FunctionDeclaration struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// ParametersJSONSchema is the raw parametersJsonSchema, if any.
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
	// Parameters is the raw OpenAPI-style parameters, if any.
	Parameters json.RawMessage `json:"parameters,omitempty"`
}

// wireRequest is the generateContent request body.
type wireRequest struct {
	Contents          []Content `json:"contents"`
	SystemInstruction *Content  `json:"systemInstruction,omitempty"`
	Tools             []struct {
		FunctionDeclarations []FunctionDeclaration `json:"functionDeclarations,omitempty"`
	} `json:"tools,omitempty"`
	ToolConfig *struct {
		FunctionCallingConfig *struct {
			Mode                 string   `json:"mode,omitempty"`
			AllowedFunctionNames []string `json:"allowedFunctionNames,omitempty"`
		} `json:"functionCallingConfig,omitempty"`
	} `json:"toolConfig,omitempty"`
	GenerationConfig *struct {
		Temperature     *float64 `json:"temperature,omitempty"`
		MaxOutputTokens int      `json:"maxOutputTokens,omitempty"`
	} `json:"generationConfig,omitempty"`
}

func parseRequest(model, apiKey string, body []byte) (*Request, error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	r := &Request{Model: model, APIKey: apiKey, Contents: w.Contents, Body: body}
	if w.SystemInstruction != nil {
		r.System = joinText(w.SystemInstruction.Parts)
	}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, t.FunctionDeclarations...)
	}
	if w.ToolConfig != nil && w.ToolConfig.FunctionCallingConfig != nil {
		r.Mode = w.ToolConfig.FunctionCallingConfig.Mode
		r.Allowed = w.ToolConfig.FunctionCallingConfig.AllowedFunctionNames
	}
	if g := w.GenerationConfig; g != nil {
		r.Temperature = g.Temperature
		r.MaxOutputTokens = g.MaxOutputTokens
	}
	return r, nil
}

func joinText(parts []Part) string {
	var texts []string
	for _, p := range parts {
		if p.Text != "" && !p.Thought {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// ToolNames returns the names of the declared functions, in order.
func (r *Request) ToolNames() []string {
	var names []string
	for _, d := range r.Tools {
		names = append(names, d.Name)
	}
	return names
}

// FirstUserText returns the text of the first user turn.
func (r *Request) FirstUserText() string {
	for _, c := range r.Contents {
		if c.Role == "user" {
			return joinText(c.Parts)
		}
	}
	return ""
}

// LastText returns the text of the last turn that has text.
func (r *Request) LastText() string {
	for i := len(r.Contents) - 1; i >= 0; i-- {
		if s := joinText(r.Contents[i].Parts); s != "" {
			return s
		}
	}
	return ""
}

// AllText returns every text part and function response of the request,
// system instruction included, joined by newlines: what the model sees,
// for "does the prompt contain X" checks.
func (r *Request) AllText() string {
	var b strings.Builder
	b.WriteString(r.System)
	for _, c := range r.Contents {
		for _, p := range c.Parts {
			switch {
			case p.Text != "":
				b.WriteString("\n" + p.Text)
			case p.FunctionResponse != nil:
				j, _ := json.Marshal(p.FunctionResponse.Response)
				b.WriteString("\n" + string(j))
			case p.FunctionCall != nil:
				j, _ := json.Marshal(p.FunctionCall.Args)
				b.WriteString("\n" + p.FunctionCall.Name + string(j))
			}
		}
	}
	return b.String()
}

// LastFunctionResponses returns the function responses of the latest turn
// that has any, or nil.
func (r *Request) LastFunctionResponses() []FunctionResponse {
	for i := len(r.Contents) - 1; i >= 0; i-- {
		var out []FunctionResponse
		for _, p := range r.Contents[i].Parts {
			if p.FunctionResponse != nil {
				out = append(out, *p.FunctionResponse)
			}
		}
		if out != nil {
			return out
		}
	}
	return nil
}

// LastFunctionCalls returns the function-call parts (with their thought
// signatures) of the latest model turn that has any, or nil.
func (r *Request) LastFunctionCalls() []Part {
	for i := len(r.Contents) - 1; i >= 0; i-- {
		var out []Part
		for _, p := range r.Contents[i].Parts {
			if p.FunctionCall != nil {
				out = append(out, p)
			}
		}
		if out != nil {
			return out
		}
	}
	return nil
}

// Turns returns the number of model turns so far: those in the
// conversation, and the earlier ones a compact transcript folds into its
// first user turn, one numbered line each inside <steps>.
func (r *Request) Turns() int {
	n := 0
	for _, c := range r.Contents {
		if c.Role == "model" {
			n++
		}
	}
	if _, steps, ok := strings.Cut(r.FirstUserText(), "<steps>"); ok {
		steps, _, _ = strings.Cut(steps, "</steps>")
		for _, line := range strings.Split(steps, "\n") {
			if i := strings.Index(line, ". "); i > 0 && strings.Trim(line[:i], "0123456789") == "" {
				n++
			}
		}
	}
	return n
}
