// Package openai is a factcheck.Model for any server speaking OpenAI's Chat
// Completions API: OpenAI itself and other hosted services, and local
// servers such as Ollama, vLLM and llama.cpp's llama-server.
//
// Requests go through the official openai-go client. Responses are decoded
// leniently by this package, because local servers return tool calls in
// several shapes: arguments as a JSON object instead of a string, calls
// without ids, finish_reason "stop" next to tool calls. Calls a model wrote
// into its text (as JSON, or inside <tool_call> tags) are returned as text:
// the factcheck loop reads them.
package openai

import (
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

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

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
	client      openai.Client
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
	opts := []option.RequestOption{
		option.WithBaseURL(base),
		// Set explicitly (even when empty) so the SDK's own reading of
		// OPENAI_API_KEY never sends a hosted key to another server.
		option.WithAPIKey(cfg.APIKey),
		// Retries are ours: they honour Retry-After through an injectable
		// sleeper, so the SDK's own (real-time) retries are turned off.
		option.WithMaxRetries(0),
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	m := &Model{
		client:      openai.NewClient(opts...),
		name:        cfg.Model,
		hosted:      hosted,
		maxAttempts: cfg.MaxAttempts,
		sleep:       cfg.Sleep,
		images:      cfg.Images,
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
	params := m.params(req)
	var body []byte
	attempt := 0
	call := func(ctx context.Context) error {
		attempt++
		var res *http.Response
		body = nil
		_, err := m.client.Chat.Completions.New(ctx, params, option.WithResponseBodyInto(&body), option.WithResponseInto(&res))
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		f := failureOf(err, res)
		if f == nil {
			return fmt.Errorf("openai: %s: %w", m.name, err)
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

// failureOf reads an error answer: the SDK's *openai.Error when the body
// had OpenAI's shape, else the raw response (some local servers answer
// {"error": "text"} or plain text, which the SDK cannot decode). nil when
// there was no HTTP answer at all.
func failureOf(err error, res *http.Response) *failure {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		f := &failure{status: apiErr.StatusCode, code: apiErr.Code, message: apiErr.Message}
		if apiErr.Response != nil {
			f.header = apiErr.Response.Header
		}
		if f.message == "" && apiErr.Response != nil && apiErr.Response.Body != nil {
			// No {"error": {…}} object (vLLM puts "message" at the top).
			b, _ := io.ReadAll(io.LimitReader(apiErr.Response.Body, 4096))
			f.message = errorMessage(b)
		}
		return f
	}
	if res == nil || res.StatusCode < 400 {
		return nil
	}
	f := &failure{status: res.StatusCode, header: res.Header}
	if res.Body != nil {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		f.message = errorMessage(b)
	}
	return f
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
