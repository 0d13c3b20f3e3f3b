// Package gemini implements factcheck.Model on the Gemini API through the
// google.golang.org/genai SDK.
package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/genai"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/retry"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/internal/wait"
)

// DefaultModel is the model used when Config.Model is empty.
const DefaultModel = "gemini-flash-latest"

const (
	defaultMaxAttempts   = 4
	defaultMaxRetryDelay = 30 * time.Second
)

// ErrBlocked is wrapped when Gemini refuses to answer: the prompt was
// blocked, or the answer was withheld (safety, recitation, …).
var ErrBlocked = errors.New("gemini refused to answer")

// Config configures a Model.
type Config struct {
	// APIKey is the Gemini API key (GEMINI_API_KEY or GOOGLE_API_KEY).
	// Required: the SDK's own environment lookup is not relied upon.
	APIKey string
	// Model is the model name; DefaultModel if empty.
	Model string
	// BaseURL overrides the API endpoint. Leave it empty to use Google's,
	// or the SDK's GOOGLE_GEMINI_BASE_URL environment override.
	BaseURL string
	// HTTPClient is the client for API calls. If nil, a client on a clone
	// of http.DefaultTransport that keeps up to 32 idle connections.
	HTTPClient *http.Client
	// MaxAttempts bounds the calls made for one Generate, retries of rate
	// limits and server errors included. Default 4.
	MaxAttempts int
	// MaxRetryDelay caps the wait between attempts. Default 30s.
	MaxRetryDelay time.Duration
	// Sleep waits d or until ctx is done; tests inject it. Default: a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Model is a Gemini chat model. It is safe for concurrent use.
type Model struct {
	client      *genai.Client
	name        string
	maxAttempts int
	maxDelay    time.Duration
	sleep       func(ctx context.Context, d time.Duration) error
	localIDs    atomic.Uint64
}

// localIDPrefix marks call ids made up here because the API sent none
// (common before Gemini 3); they are sent back as no id at all.
const localIDPrefix = "gemini-local-"

// skipSignature is the thought signature Gemini documents for function
// calls it did not generate (https://ai.google.dev/gemini-api/docs/thought-signatures).
const skipSignature = "skip_thought_signature_validator"

var _ factcheck.Model = (*Model)(nil)

// New returns a Model for cfg. It makes no network calls; a wrong key or
// model name shows up, as a *usererr.Config, on the first Generate.
func New(ctx context.Context, cfg Config) (*Model, error) {
	if cfg.APIKey == "" {
		return nil, &usererr.Config{
			Var:  "GEMINI_API_KEY",
			Msg:  "not set",
			Hint: "get a key at https://aistudio.google.com/apikey; GOOGLE_API_KEY also works",
		}
	}
	name := cfg.Model
	if name == "" {
		name = DefaultModel
	}
	if strings.ContainsAny(name, "?&# \t\r\n") || strings.Contains(name, "..") {
		return nil, &usererr.Config{
			Var:  "FACTBOT_MODEL",
			Msg:  fmt.Sprintf("%q is not a valid Gemini model name", name),
			Hint: "see https://ai.google.dev/gemini-api/docs/models; the default is " + DefaultModel,
			Err:  factcheck.ErrUnknownModel,
		}
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		// Concurrent checks share one host; keep more than the default two
		// idle connections so they are reused, not re-dialled.
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 32
		httpClient = &http.Client{Transport: tr}
	}
	client, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey:     cfg.APIKey,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: httpClient,
		// RetryOptions stays nil: Generate retries itself, within its bounds.
		HTTPOptions: genai.HTTPOptions{BaseURL: cfg.BaseURL},
	})
	if err != nil {
		return nil, fmt.Errorf("gemini: creating client: %w", err)
	}
	m := &Model{
		client:      client,
		name:        name,
		maxAttempts: cfg.MaxAttempts,
		maxDelay:    cfg.MaxRetryDelay,
		sleep:       cfg.Sleep,
	}
	if m.maxAttempts <= 0 {
		m.maxAttempts = defaultMaxAttempts
	}
	if m.maxDelay <= 0 {
		m.maxDelay = defaultMaxRetryDelay
	}
	if m.sleep == nil {
		m.sleep = wait.Sleep
	}
	return m, nil
}

// Name returns the configured model name.
func (m *Model) Name() string { return m.name }

// ReadsImages implements factcheck.ImageReader: Gemini reads pictures
// sent as inline data.
func (m *Model) ReadsImages() bool { return true }

// Generate sends req to Gemini. Rate limits (429) and server errors (500,
// 502, 503, 504) are retried up to MaxAttempts calls, waiting the delay the
// API asks for (RetryInfo) or an exponential backoff, capped at
// MaxRetryDelay. A 429 that outlasts the retries wraps
// factcheck.ErrRateLimited; an unknown model or a rejected key is a
// *usererr.Config; a refusal wraps ErrBlocked.
func (m *Model) Generate(ctx context.Context, req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
	contents, config, err := convertRequest(req)
	if err != nil {
		return nil, fmt.Errorf("gemini: %w", err)
	}
	var resp *genai.GenerateContentResponse
	call := func(ctx context.Context) error {
		r, err := m.client.Models.GenerateContent(ctx, m.name, contents, config)
		if err == nil {
			resp = r
			return nil
		}
		var apiErr genai.APIError
		if !errors.As(err, &apiErr) {
			return fmt.Errorf("gemini %s: %w", m.name, err)
		}
		if ce := m.configError(apiErr); ce != nil {
			return ce
		}
		return &APIError{APIError: apiErr}
	}
	policy := retry.Policy{Attempts: m.maxAttempts, MaxWait: m.maxDelay, Sleep: m.sleep}
	if err := retry.Do(ctx, policy, m.classify, call); err != nil {
		return nil, m.failed(ctx, err)
	}
	return m.convertResponse(resp)
}

// classify retries rate limits and server errors, waiting the delay the
// API asks for (RetryInfo), capped at MaxRetryDelay.
func (m *Model) classify(err error) retry.Decision {
	var e *APIError
	if !errors.As(err, &e) || !retryable(e.Code) {
		return retry.Decision{}
	}
	d, _ := retry.AfterRetryInfo(e.Details)
	return retry.Decision{Retry: true, After: min(d, m.maxDelay)}
}

// failed wraps the error of a Generate that did not succeed.
func (m *Model) failed(ctx context.Context, err error) error {
	var e *APIError
	if usererr.IsConfig(err) || !errors.As(err, &e) {
		return err // a setting to fix, or already wrapped
	}
	var re *retry.Error
	switch {
	case errors.As(err, &re) && e.Code == http.StatusTooManyRequests:
		return fmt.Errorf("gemini %s: %w %s: %w", m.name, factcheck.ErrRateLimited, re.Reason, e)
	case errors.As(err, &re):
		return fmt.Errorf("gemini %s: server error %s: %w", m.name, re.Reason, e)
	case ctx.Err() != nil && !errors.Is(err, ctx.Err()):
		// Cancelled as the answer arrived, before any wait started.
		return fmt.Errorf("gemini %s: %w (after %w)", m.name, ctx.Err(), err)
	}
	return fmt.Errorf("gemini %s: %w", m.name, err)
}

// APIError is a Gemini API error with a one-line message; it wraps the
// SDK's genai.APIError (errors.As works for both).
type APIError struct {
	genai.APIError
}

func (e *APIError) Error() string {
	return fmt.Sprintf("Gemini API error %d %s: %s", e.Code, e.Status, e.Message)
}

func (e *APIError) Unwrap() error { return e.APIError }

func retryable(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// configError turns errors the user must fix in the configuration into a
// *usererr.Config, or returns nil.
func (m *Model) configError(e genai.APIError) error {
	wrapped := &APIError{APIError: e}
	keyHint := "get a key at https://aistudio.google.com/apikey; GOOGLE_API_KEY also works"
	switch {
	case e.Code == http.StatusNotFound:
		return &usererr.Config{
			Var:  "FACTBOT_MODEL",
			Msg:  fmt.Sprintf("the Gemini API does not know model %q", m.name),
			Hint: "see https://ai.google.dev/gemini-api/docs/models; the default is " + DefaultModel,
			Err:  fmt.Errorf("%w: %w", factcheck.ErrUnknownModel, wrapped),
		}
	case e.Code == http.StatusUnauthorized, e.Code == http.StatusForbidden,
		e.Code == http.StatusBadRequest && isKeyError(e):
		return &usererr.Config{
			Var:  "GEMINI_API_KEY",
			Msg:  "the Gemini API rejected the key: " + e.Message,
			Hint: keyHint,
			Err:  wrapped,
		}
	}
	return nil
}

func isKeyError(e genai.APIError) bool {
	for _, d := range e.Details {
		if r, _ := d["reason"].(string); strings.HasPrefix(r, "API_KEY_") {
			return true
		}
	}
	msg := strings.ToLower(e.Message)
	return strings.Contains(msg, "api key not valid") || strings.Contains(msg, "api key expired") ||
		strings.Contains(msg, "api_key_invalid")
}

// convertRequest maps a factcheck request to genai contents and config.
func convertRequest(req *factcheck.ModelRequest) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	config := &genai.GenerateContentConfig{Temperature: req.Temperature}
	if req.System != "" {
		config.SystemInstruction = genai.NewContentFromText(req.System, genai.RoleUser)
	}
	if req.MaxOutput > 0 {
		config.MaxOutputTokens = int32(min(req.MaxOutput, 1<<31-1))
	}

	var contents []*genai.Content
	for i, msg := range req.Sent() {
		var parts []*genai.Part
		switch msg.Role {
		case factcheck.RoleModel:
			if msg.Text != "" {
				parts = append(parts, genai.NewPartFromText(msg.Text))
			}
			for _, tc := range msg.ToolCalls {
				args, err := objectArgs(tc.Args)
				if err != nil {
					return nil, nil, fmt.Errorf("message %d: call %s: %w", i, tc.Name, err)
				}
				sig := tc.Signature
				if len(sig) == 0 && tc.ID == "" {
					// A call the engine read from the model's text: Gemini
					// gave it no signature, and Gemini 3 accepts this
					// documented sentinel for calls it did not make.
					sig = []byte(skipSignature)
				}
				parts = append(parts, &genai.Part{
					FunctionCall:     &genai.FunctionCall{ID: apiID(tc.ID), Name: tc.Name, Args: args},
					ThoughtSignature: sig,
				})
			}
		case factcheck.RoleUser:
			for _, tr := range msg.ToolResults {
				parts = append(parts, &genai.Part{FunctionResponse: &genai.FunctionResponse{
					ID: apiID(tr.ID), Name: tr.Name, Response: resultObject(tr.Content),
				}})
			}
			if msg.Text != "" {
				parts = append(parts, genai.NewPartFromText(msg.Text))
			}
			for _, im := range msg.Images {
				parts = append(parts, &genai.Part{InlineData: &genai.Blob{MIMEType: im.MIME, Data: im.Data}})
			}
		default:
			return nil, nil, fmt.Errorf("message %d: unknown role %q", i, msg.Role)
		}
		if len(parts) == 0 {
			continue // Gemini rejects empty turns; an empty message says nothing.
		}
		contents = append(contents, &genai.Content{Role: string(msg.Role), Parts: parts})
	}
	if len(contents) == 0 {
		return nil, nil, errors.New("request has no messages")
	}

	if err := setTools(config, req); err != nil {
		return nil, nil, err
	}
	return contents, config, nil
}

// setTools declares req's tools in config, with its tool mode.
func setTools(config *genai.GenerateContentConfig, req *factcheck.ModelRequest) error {
	if len(req.Tools) > 0 {
		decls := make([]*genai.FunctionDeclaration, 0, len(req.Tools))
		for _, t := range req.Tools {
			d := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
			if len(t.Parameters) > 0 {
				d.ParametersJsonSchema = t.Parameters
			}
			decls = append(decls, d)
		}
		config.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	}
	switch req.ToolMode {
	case factcheck.ToolAuto:
	case factcheck.ToolRequired:
		if len(req.Tools) == 0 {
			return errors.New("tool use required but no tools declared")
		}
		config.ToolConfig = &genai.ToolConfig{FunctionCallingConfig: &genai.FunctionCallingConfig{
			Mode:                 genai.FunctionCallingConfigModeAny,
			AllowedFunctionNames: req.Allowed,
		}}
	case factcheck.ToolNone:
		if len(req.Tools) > 0 {
			config.ToolConfig = &genai.ToolConfig{FunctionCallingConfig: &genai.FunctionCallingConfig{
				Mode: genai.FunctionCallingConfigModeNone,
			}}
		}
	default:
		return fmt.Errorf("unknown tool mode %q", req.ToolMode)
	}
	return nil
}

// apiID is the id to send for a call or result: none for ids made up here.
func apiID(id string) string {
	if strings.HasPrefix(id, localIDPrefix) {
		return ""
	}
	return id
}

// objectArgs decodes a call's JSON arguments, which must be an object.
func objectArgs(raw json.RawMessage) (map[string]any, error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return map[string]any{}, nil
	}
	var args map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return nil, fmt.Errorf("arguments are not a JSON object: %w", err)
	}
	return args, nil
}

// resultObject decodes a tool result, which should be a JSON object. Any
// other value is kept, under "output", so nothing is lost.
func resultObject(raw json.RawMessage) map[string]any {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return map[string]any{}
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return map[string]any{"output": string(raw)}
	}
	if obj, ok := v.(map[string]any); ok {
		return obj
	}
	return map[string]any{"output": v}
}

// blockedFinish lists finish reasons that mean the answer was withheld.
var blockedFinish = map[genai.FinishReason]bool{
	genai.FinishReasonSafety:            true,
	genai.FinishReasonRecitation:        true,
	genai.FinishReasonBlocklist:         true,
	genai.FinishReasonProhibitedContent: true,
	genai.FinishReasonSPII:              true,
	genai.FinishReasonLanguage:          true,
	genai.FinishReasonImageSafety:       true,
}

func (m *Model) convertResponse(resp *genai.GenerateContentResponse) (*factcheck.ModelResponse, error) {
	if len(resp.Candidates) == 0 || resp.Candidates[0] == nil {
		if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" {
			msg := string(pf.BlockReason)
			if pf.BlockReasonMessage != "" {
				msg += ": " + pf.BlockReasonMessage
			}
			return nil, fmt.Errorf("gemini %s: %w: prompt blocked (%s)", m.name, ErrBlocked, msg)
		}
		return nil, fmt.Errorf("gemini %s: the response has no candidates", m.name)
	}
	c := resp.Candidates[0]
	out := &factcheck.ModelResponse{
		Message:      factcheck.Message{Role: factcheck.RoleModel},
		Model:        resp.ModelVersion,
		FinishReason: string(c.FinishReason),
	}
	var text strings.Builder
	if c.Content != nil {
		for _, p := range c.Content.Parts {
			if p == nil {
				continue
			}
			switch {
			case p.FunctionCall != nil:
				args := []byte("{}")
				if p.FunctionCall.Args != nil {
					b, err := json.Marshal(p.FunctionCall.Args)
					if err != nil {
						return nil, fmt.Errorf("gemini %s: arguments of %s: %w", m.name, p.FunctionCall.Name, err)
					}
					args = b
				}
				id := p.FunctionCall.ID
				if id == "" {
					id = fmt.Sprintf("%s%d", localIDPrefix, m.localIDs.Add(1))
				}
				out.Message.ToolCalls = append(out.Message.ToolCalls, factcheck.ToolCall{
					ID:        id,
					Name:      p.FunctionCall.Name,
					Args:      args,
					Signature: p.ThoughtSignature,
				})
			case p.Thought:
				// Thought summaries are not the answer.
			default:
				text.WriteString(p.Text)
			}
		}
	}
	out.Message.Text = text.String()
	if out.Message.Text == "" && len(out.Message.ToolCalls) == 0 && blockedFinish[c.FinishReason] {
		msg := string(c.FinishReason)
		if c.FinishMessage != "" {
			msg += ": " + c.FinishMessage
		}
		return nil, fmt.Errorf("gemini %s: %w: answer withheld (%s)", m.name, ErrBlocked, msg)
	}
	if u := resp.UsageMetadata; u != nil {
		out.Usage = factcheck.Usage{
			PromptTokens: int(u.PromptTokenCount),
			OutputTokens: int(u.CandidatesTokenCount + u.ThoughtsTokenCount),
			CachedTokens: int(u.CachedContentTokenCount), // implicit prompt caching
		}
	}
	return out, nil
}
