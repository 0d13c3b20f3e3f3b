// Package openai is a factcheck.Model for any server speaking OpenAI's Chat
// Completions API: OpenAI itself and other hosted services, and local
// servers such as Ollama, vLLM and llama.cpp's llama-server.
//
// Requests are sent by this package's own small client for the one endpoint
// it uses (POST {base}/chat/completions): the official openai-go client
// made up a third of factbot's binary for it. Responses are decoded
// leniently, because local servers return tool calls in
// several shapes: arguments as a JSON object instead of a string, calls
// without ids, finish_reason "stop" next to tool calls. Calls a model wrote
// into its text (as JSON, or inside <tool_call> tags) are returned as text:
// the factcheck loop reads them.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/retry"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/internal/wait"
)

// DefaultBaseURL is OpenAI's hosted API.
const DefaultBaseURL = "https://api.openai.com/v1/"

// DefaultMaxAttempts bounds the attempts of one Generate call when the
// server answers 429 or 5xx.
const DefaultMaxAttempts = 4

// maxRetryWait is the longest wait this package accepts between attempts;
// a server asking for more gets its error returned at once.
const maxRetryWait = 60 * time.Second

// Config configures a Model.
type Config struct {
	// APIKey is sent as a bearer token. Required for the hosted default;
	// local servers usually need none.
	APIKey string
	// BaseURL is the API root, e.g. "http://localhost:11434/v1" for Ollama.
	// Empty means DefaultBaseURL.
	BaseURL string
	// Model is the model name, e.g. "gpt-4.1-mini" or "qwen3:8b". Required.
	Model string
	// HTTPClient is used for requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// MaxAttempts bounds attempts per call on 429 and 5xx answers
	// (default DefaultMaxAttempts; 1 disables retries).
	MaxAttempts int
	// Sleep waits between attempts; tests inject one. Default: a timer
	// that gives up when ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
	// Images says the model accepts image input (OPENAI_IMAGES): pictures
	// attached to a chat message are then sent to it as data URLs.
	Images bool
}

// Model is a factcheck.Model on an OpenAI-compatible server.
type Model struct {
	endpoint    string // {base}/chat/completions
	apiKey      string
	hc          *http.Client
	name        string
	hosted      bool
	maxAttempts int
	sleep       func(ctx context.Context, d time.Duration) error
	ids         atomic.Int64 // for synthesised tool call ids
	images      bool
}

// ReadsImages implements factcheck.ImageReader: Config.Images.
func (m *Model) ReadsImages() bool { return m.images }

var _ factcheck.Model = (*Model)(nil)

// New returns a Model. It fails with a *usererr.Config when the model
// name is missing, the base URL is not a URL, or the hosted default is used
// without an API key.
func New(cfg Config) (*Model, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, &usererr.Config{Var: "FACTBOT_MODEL", Msg: "no model name given for the OpenAI-compatible provider",
			Hint: "set FACTBOT_MODEL to a model your server serves, e.g. gpt-4.1-mini, or qwen3:8b on Ollama"}
	}
	base := strings.TrimSpace(cfg.BaseURL)
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &usererr.Config{Var: "OPENAI_BASE_URL", Msg: fmt.Sprintf("%q is not an http(s) URL", cfg.BaseURL),
			Hint: "e.g. http://localhost:11434/v1 for Ollama, http://localhost:8000/v1 for vLLM", Err: err}
	}
	hosted := u.Host == "api.openai.com"
	if hosted && cfg.APIKey == "" {
		return nil, &usererr.Config{Var: "OPENAI_API_KEY", Msg: "no API key for the hosted OpenAI API",
			Hint: "create one at https://platform.openai.com/api-keys, or set OPENAI_BASE_URL to a local server such as http://localhost:11434/v1"}
	}
	m := &Model{
		endpoint:    strings.TrimRight(base, "/") + "/chat/completions",
		apiKey:      cfg.APIKey, // only this: OPENAI_API_KEY is never read here, so a hosted key never reaches another server
		hc:          cfg.HTTPClient,
		name:        cfg.Model,
		hosted:      hosted,
		maxAttempts: cfg.MaxAttempts,
		sleep:       cfg.Sleep,
		images:      cfg.Images,
	}
	if m.hc == nil {
		m.hc = http.DefaultClient
	}
	if m.maxAttempts <= 0 {
		m.maxAttempts = DefaultMaxAttempts
	}
	if m.sleep == nil {
		m.sleep = wait.Sleep
	}
	return m, nil
}

// Name returns the configured model name.
func (m *Model) Name() string { return m.name }

// Generate sends one Chat Completions request, retrying 429 and 5xx answers
// within bounds. A rate limit that outlasts them wraps
// factcheck.ErrRateLimited; a setting to fix is a *usererr.Config.
func (m *Model) Generate(ctx context.Context, req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
	payload, err := json.Marshal(m.params(req))
	if err != nil {
		return nil, fmt.Errorf("openai: %s: encode request: %w", m.name, err)
	}
	var body []byte
	attempt := 0
	call := func(ctx context.Context) error {
		attempt++
		var f *failure
		body, f, err = m.post(ctx, payload)
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			return fmt.Errorf("openai: %s: %w", m.name, err)
		case f == nil:
			return nil
		}
		if cerr := m.configError(f); cerr != nil {
			return cerr
		}
		return f
	}
	classify := func(err error) retry.Decision {
		var f *failure
		if !errors.As(err, &f) || (f.status != http.StatusTooManyRequests && f.status < 500) {
			return retry.Decision{}
		}
		d, ok := retry.AfterHeader(f.header, time.Now())
		if !ok {
			d = min(time.Second<<min(attempt-1, 20), 16*time.Second) // 1s, 2s, 4s, …
		}
		return retry.Decision{Retry: true, After: d}
	}
	policy := retry.Policy{Attempts: m.maxAttempts, MaxWait: maxRetryWait, Sleep: m.sleep}
	if err := retry.Do(ctx, policy, classify, call); err != nil {
		return nil, m.failed(ctx, err)
	}
	return m.decode(body)
}

// failed wraps the error of a Generate that did not succeed.
func (m *Model) failed(ctx context.Context, err error) error {
	var f *failure
	var re *retry.Error
	switch {
	case ctx.Err() != nil:
		if errors.Is(err, ctx.Err()) {
			return err
		}
		return fmt.Errorf("openai: %s: %w (after %w)", m.name, ctx.Err(), err)
	case errors.As(err, &re) && errors.As(err, &f):
		if f.status == http.StatusTooManyRequests {
			return fmt.Errorf("openai: %s: %s %s: %w", m.name, f, re.Reason, factcheck.ErrRateLimited)
		}
		return fmt.Errorf("openai: %s: %s %s", m.name, f, re.Reason)
	case errors.As(err, &f):
		return fmt.Errorf("openai: %s: %s", m.name, f)
	}
	return err // already wrapped, or a *usererr.Config
}

// failure is an HTTP error answer, whatever shape its body had.
type failure struct {
	status  int
	code    string
	message string
	header  http.Header
}

func (f *failure) Error() string {
	if f.message != "" {
		return fmt.Sprintf("HTTP %d: %s", f.status, f.message)
	}
	return fmt.Sprintf("HTTP %d", f.status)
}

// maxResponse bounds the body of one answer.
const maxResponse = 16 << 20

// post sends one request and returns the body of a 2xx answer, or the
// answer's failure; err is for no HTTP answer at all.
func (m *Model) post(ctx context.Context, payload []byte) ([]byte, *failure, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, m.endpoint, bytes.NewReader(payload))
	if err != nil {
		return nil, nil, err
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json")
	if m.apiKey != "" {
		hr.Header.Set("Authorization", "Bearer "+m.apiKey)
	}
	res, err := m.hc.Do(hr)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	if res.StatusCode >= 400 {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		code, msg := errorBody(b)
		return nil, &failure{status: res.StatusCode, code: code, message: msg, header: res.Header}, nil
	}
	b, err := io.ReadAll(io.LimitReader(res.Body, maxResponse+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read response: %w", err)
	}
	if len(b) > maxResponse {
		return nil, nil, fmt.Errorf("response over %d MiB", maxResponse>>20)
	}
	return b, nil, nil
}

// errorBody reads an error answer of any common shape: OpenAI's
// {"error": {"message", "code"}}, {"error": "text"} (some local servers),
// "message" at the top (vLLM), or plain text.
func errorBody(b []byte) (code, message string) {
	var v struct {
		Error struct {
			Code json.RawMessage `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &v) == nil {
		json.Unmarshal(v.Error.Code, &code) // a string, or null / a number: then none
	}
	return code, errorMessage(b)
}

// errorMessage finds the message in an error body of any common shape.
func errorMessage(b []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if json.Unmarshal(b, &v) == nil {
		var s string
		if json.Unmarshal(v.Error, &s) == nil && s != "" {
			return s
		}
		var o struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(v.Error, &o) == nil && o.Message != "" {
			return o.Message
		}
		if v.Message != "" {
			return v.Message
		}
		if v.Detail != "" {
			return v.Detail
		}
	}
	return strings.TrimSpace(string(b))
}

// configError turns API errors the user can fix into a *usererr.Config;
// nil means the error is not one of those.
func (m *Model) configError(f *failure) error {
	msg := strings.ToLower(f.message)
	switch {
	case f.status == http.StatusUnauthorized:
		return &usererr.Config{Var: "OPENAI_API_KEY", Msg: fmt.Sprintf("the server refused the API key (%s)", f),
			Hint: "check OPENAI_API_KEY for the server at OPENAI_BASE_URL"}
	case f.status == http.StatusNotFound || f.code == "model_not_found":
		return &usererr.Config{Var: "FACTBOT_MODEL", Msg: fmt.Sprintf("the server does not know model %q (%s)", m.name, f),
			Hint: "list the server's models (GET /v1/models, or `ollama list`) and set FACTBOT_MODEL to one of them; check that OPENAI_BASE_URL ends in /v1",
			Err:  factcheck.ErrUnknownModel}
	case f.status >= 400 && f.status < 500 && noToolSupport(msg):
		return &usererr.Config{Var: "FACTBOT_MODEL", Msg: fmt.Sprintf("model %q cannot call tools on this server (%s)", m.name, f),
			Hint: "factbot needs tool (function) calling: pick a model that supports it (e.g. qwen3, llama3.1 or mistral-nemo on Ollama), " +
				"start vLLM with --enable-auto-tool-choice --tool-call-parser, or llama-server with --jinja",
			Err: ErrNoTools}
	}
	return nil
}

// ErrNoTools is wrapped by the ConfigError returned for a model that
// cannot call tools.
var ErrNoTools = errors.New("model does not support tools")

// noToolSupport recognises the servers' ways of saying a model cannot call tools.
func noToolSupport(msg string) bool {
	for _, s := range []string{
		"does not support tools",          // Ollama
		"does not support tool",           // variants
		"tool choice requires",            // vLLM without --enable-auto-tool-choice
		"enable-auto-tool-choice",         // vLLM
		"tools param requires --jinja",    // llama.cpp
		"tool calling is not supported",   // others
		"tools are not supported",         // others
		"function calling is not enabled", // others
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
