// Package factchecktest has in-process fakes of the engine's own
// interfaces (Model, Searcher, Reader) for unit tests. Tests that go through
// a real SDK use the network-level fakes (factcheck/gemini/geminitest,
// httptest servers) instead.
package factchecktest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
)

// Model is a scripted factcheck.Model. Handle decides each answer; it may
// be called concurrently.
//
// The plan (a request whose only tool is submit_questions) and the critic
// (only submit_review) go to Plan and Review instead, so that a script of
// the research turns stays one; when those are nil the plan gets two
// questions about the claim and the critic approves. Every call is
// recorded, whichever answers it.
type Model struct {
	Handle func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error)
	Plan   func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error)
	Review func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error)
	// Delay is waited before each answer (for concurrency benchmarks).
	Delay time.Duration

	mu    sync.Mutex
	calls int
	reqs  []*factcheck.ModelRequest
}

// Name implements factcheck.Model.
func (m *Model) Name() string { return "fake-model" }

// Generate implements factcheck.Model.
func (m *Model) Generate(ctx context.Context, req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
	cp := *req
	cp.Messages = append([]factcheck.Message(nil), req.Messages...)
	m.mu.Lock()
	m.calls++
	m.reqs = append(m.reqs, &cp)
	m.mu.Unlock()
	if m.Delay > 0 {
		select {
		case <-time.After(m.Delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	switch Step(&cp) {
	case factcheck.ToolSubmitQuestions:
		if m.Plan != nil {
			return m.Plan(&cp)
		}
		return Questions("Is it true that "+ClaimOf(&cp)+"?", "Has it been debunked?"), nil
	case factcheck.ToolSubmitReview:
		if m.Review != nil {
			return m.Review(&cp)
		}
		return Approve(), nil
	}
	return m.Handle(&cp)
}

// Step names the finishing tool of a plan or critic request (the only tool
// offered), or "" for the other requests.
func Step(req *factcheck.ModelRequest) string {
	if len(req.Tools) == 1 {
		switch n := req.Tools[0].Name; n {
		case factcheck.ToolSubmitQuestions, factcheck.ToolSubmitReview:
			return n
		}
	}
	return ""
}

// Questions is the plan's answer.
func Questions(qs ...string) *factcheck.ModelResponse {
	return Call(factcheck.ToolSubmitQuestions, map[string][]string{"questions": qs})
}

// Approve is the critic's answer that the verdict stands.
func Approve() *factcheck.ModelResponse {
	return Call(factcheck.ToolSubmitReview, map[string]any{"ok": true, "note": "The verdict follows from the evidence."})
}

// SendBack is the critic's answer that sends the researcher back.
func SendBack(note string) *factcheck.ModelResponse {
	return Call(factcheck.ToolSubmitReview, map[string]any{"ok": false, "note": note})
}

// Research returns the requests of the research loop: those neither the
// plan's nor the critic's, in order.
func (m *Model) Research() []*factcheck.ModelRequest {
	var out []*factcheck.ModelRequest
	for _, r := range m.Requests() {
		if Step(r) == "" {
			out = append(out, r)
		}
	}
	return out
}

// Calls returns how many requests the model received.
func (m *Model) Calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls
}

// Requests returns the requests received, in order.
func (m *Model) Requests() []*factcheck.ModelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*factcheck.ModelRequest(nil), m.reqs...)
}

// Script answers with the given responses in order and fails with an
// error past the end.
func Script(replies ...*factcheck.ModelResponse) func(*factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
	var mu sync.Mutex
	i := 0
	return func(*factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		mu.Lock()
		defer mu.Unlock()
		if i >= len(replies) {
			return nil, fmt.Errorf("factchecktest: script has only %d replies", len(replies))
		}
		i++
		return replies[i-1], nil
	}
}

// Call is a model response that calls one tool.
func Call(name string, args any) *factcheck.ModelResponse {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return &factcheck.ModelResponse{
		Message: factcheck.Message{Role: factcheck.RoleModel, ToolCalls: []factcheck.ToolCall{{ID: "call-" + name, Name: name, Args: b}}},
		Usage:   factcheck.Usage{PromptTokens: 100, OutputTokens: 20},
	}
}

// Text is a model response in plain text.
func Text(s string) *factcheck.ModelResponse {
	return &factcheck.ModelResponse{
		Message: factcheck.Message{Role: factcheck.RoleModel, Text: s},
		Usage:   factcheck.Usage{PromptTokens: 100, OutputTokens: 20},
	}
}

// Verdict is the argument object of submit_verdict.
type Verdict struct {
	Verdict    string     `json:"verdict"`
	Confidence string     `json:"confidence"`
	Reasoning  string     `json:"reasoning"`
	Evidence   []Evidence `json:"evidence"`
}

// Evidence is one item of Verdict.Evidence.
type Evidence struct {
	SourceURL      string `json:"source_url"`
	SourceTitle    string `json:"source_title"`
	Supports       bool   `json:"supports"`
	QuoteOrSummary string `json:"quote_or_summary"`
}

// Claims is the argument object of submit_claims.
type Claims struct {
	Claims       []Claim        `json:"claims"`
	NotCheckable []NotCheckable `json:"not_checkable"`
}

// Claim is one item of Claims.Claims.
type Claim struct {
	Claim string `json:"claim"`
	Span  string `json:"span"`
}

// NotCheckable is one item of Claims.NotCheckable.
type NotCheckable struct {
	Span   string `json:"span"`
	Reason string `json:"reason"`
}

// Searcher answers queries from a table; unknown queries get no results.
type Searcher struct {
	Results map[string][]search.Result
	Err     error

	mu    sync.Mutex
	calls int
}

// Search implements factcheck.Searcher.
func (s *Searcher) Search(ctx context.Context, sq search.Query) (*search.Response, error) {
	q, max := sq.Text, sq.Max
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	if s.Err != nil {
		return nil, s.Err
	}
	res := s.Results[q]
	if len(res) > max {
		res = res[:max]
	}
	return &search.Response{Query: q, Results: res, Provider: "fake"}, nil
}

// Calls returns how many searches were made.
func (s *Searcher) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// Reader serves pages from a table.
type Reader struct {
	Pages map[string]*search.Page

	mu    sync.Mutex
	calls int
}

// ReadPage implements factcheck.Reader.
func (r *Reader) ReadPage(ctx context.Context, req search.PageRequest) (*search.Page, error) {
	return r.Read(ctx, req.URL)
}

// Read serves the page at u.
func (r *Reader) Read(ctx context.Context, u string) (*search.Page, error) {
	r.mu.Lock()
	r.calls++
	r.mu.Unlock()
	p, ok := r.Pages[u]
	if !ok {
		return nil, fmt.Errorf("404 Not Found")
	}
	cp := *p
	if cp.URL == "" {
		cp.URL = u
	}
	if cp.FinalURL == "" {
		cp.FinalURL = u
	}
	return &cp, nil
}

// Calls returns how many pages were read.
func (r *Reader) Calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

// FirstUserText returns the text of the request's first user message.
func FirstUserText(req *factcheck.ModelRequest) string {
	for _, m := range req.Messages {
		if m.Role == factcheck.RoleUser && m.Text != "" {
			return m.Text
		}
	}
	return ""
}

// ClaimOf returns the claim inside a verification request's first message,
// or "" for an extraction request.
func ClaimOf(req *factcheck.ModelRequest) string {
	t := FirstUserText(req)
	i := strings.Index(t, "<claim>\n")
	j := strings.Index(t, "\n</claim>")
	if i < 0 || j < i {
		return ""
	}
	return t[i+len("<claim>\n") : j]
}
