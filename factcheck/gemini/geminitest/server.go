// Package geminitest is a scripted fake of the Gemini API's generateContent
// endpoint for tests: an httptest server that speaks the REST wire format
// the google.golang.org/genai SDK sends and parses, records every request,
// and answers with replies a test scripts.
//
// Point the real SDK at it with gemini.Config.BaseURL = srv.URL, or with
// t.Setenv("GOOGLE_GEMINI_BASE_URL", srv.URL).
package geminitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a running fake Gemini API.
type Server struct {
	// URL is the base URL, e.g. "http://127.0.0.1:1234".
	URL string

	t     testing.TB
	h     Handler
	delay time.Duration
	srv   *httptest.Server

	mu      sync.Mutex
	reqs    []*Request
	calls   int
	issued  map[string][]byte // call id → signature handed out
	respSeq int
	callSeq int
	lenient bool

	embed      Embedder
	embedCalls int
	embedded   []string
}

// Option configures a Server.
type Option func(*Server)

// WithDelay makes every call wait d before answering (or until the client
// gives up), to measure concurrency in benchmarks.
func WithDelay(d time.Duration) Option {
	return func(s *Server) { s.delay = d }
}

// Lenient turns off the checks the real API makes on conversation shape
// (thought signatures echoed, one function response per call).
func Lenient() Option {
	return func(s *Server) { s.lenient = true }
}

// NewServer starts a fake Gemini API answering with h. It is closed when
// the test ends.
func NewServer(t testing.TB, h Handler, opts ...Option) *Server {
	t.Helper()
	s := &Server{t: t, h: h, issued: map[string][]byte{}}
	for _, o := range opts {
		o(s)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.Close)
	return s
}

// Close shuts the server down. It is safe to call more than once.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the requests received so far, in arrival order.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.reqs...)
}

// Calls returns how many generateContent requests the server received.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// ModelVersion is the modelVersion the server reports for model.
func ModelVersion(model string) string { return model + "-geminitest" }

const pathPrefix = "/v1beta/models/"

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	model, ok := strings.CutPrefix(hr.URL.Path, pathPrefix)
	for suffix, batch := range map[string]bool{":batchEmbedContents": true, ":embedContent": false} {
		if m, isEmbed := strings.CutSuffix(model, suffix); ok && isEmbed && hr.Method == http.MethodPost {
			s.serveEmbed(w, hr, m, batch)
			return
		}
	}
	if ok {
		model, ok = strings.CutSuffix(model, ":generateContent")
	}
	if !ok || hr.Method != http.MethodPost {
		s.t.Errorf("geminitest: unexpected %s %s", hr.Method, hr.URL.Path)
		writeError(w, Error(http.StatusNotFound, "geminitest: only POST /v1beta/models/{model}:generateContent is faked").err)
		return
	}
	body, err := io.ReadAll(hr.Body)
	if err != nil {
		writeError(w, Error(http.StatusBadRequest, "geminitest: reading body: "+err.Error()).err)
		return
	}
	req, err := parseRequest(model, hr.Header.Get("x-goog-api-key"), body)
	if err != nil {
		s.t.Errorf("geminitest: bad request body: %v\n%s", err, body)
		writeError(w, Error(http.StatusBadRequest, "Invalid JSON payload received. "+err.Error()).err)
		return
	}
	req.t = s.t

	s.mu.Lock()
	s.calls++
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()

	if msg := s.check(req); msg != "" {
		s.t.Logf("geminitest: rejecting request like the real API would: %s", msg)
		writeError(w, Error(http.StatusBadRequest, msg).err)
		return
	}

	reply := s.h(req)

	if s.delay > 0 {
		timer := time.NewTimer(s.delay)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-hr.Context().Done():
			return
		}
	}

	if reply.err != nil {
		writeError(w, reply.err)
		return
	}
	resp, err := s.render(req, reply)
	if err != nil {
		s.t.Errorf("geminitest: %v", err)
		writeError(w, Error(http.StatusInternalServerError, err.Error()).err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = json.NewEncoder(w).Encode(resp)
}

// check applies the conversation rules the real API enforces, returning the
// API's complaint or "".
func (s *Server) check(r *Request) string {
	if r.APIKey == "" {
		return "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."
	}
	if len(r.Contents) == 0 {
		return "* GenerateContentRequest.contents: contents is not specified"
	}
	if s.lenient {
		return ""
	}
	for i, c := range r.Contents {
		if len(c.Parts) == 0 {
			return fmt.Sprintf("* GenerateContentRequest.contents[%d].parts: contents.parts must not be empty.", i)
		}
		calls := 0
		for _, p := range c.Parts {
			if p.FunctionCall == nil {
				continue
			}
			calls++
			s.mu.Lock()
			want, issued := s.issued[p.FunctionCall.ID]
			s.mu.Unlock()
			if issued && want != nil && string(p.ThoughtSignature) != string(want) {
				return fmt.Sprintf("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, "+
					"and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:%s` , position %d. "+
					"Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.", p.FunctionCall.Name, i+1)
			}
		}
		if calls == 0 || i+1 >= len(r.Contents) {
			continue
		}
		responses := 0
		for _, p := range r.Contents[i+1].Parts {
			if p.FunctionResponse != nil {
				responses++
			}
		}
		if responses != calls {
			return "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."
		}
	}
	return ""
}

// wire response types.
type (
	wireResponse struct {
		Candidates     []wireCandidate `json:"candidates,omitempty"`
		PromptFeedback *struct {
			BlockReason string `json:"blockReason"`
		} `json:"promptFeedback,omitempty"`
		UsageMetadata wireUsage `json:"usageMetadata"`
		ModelVersion  string    `json:"modelVersion"`
		ResponseID    string    `json:"responseId"`
	}
	wireCandidate struct {
		Content      *Content `json:"content,omitempty"`
		FinishReason string   `json:"finishReason,omitempty"`
		Index        int      `json:"index"`
	}
	wireUsage struct {
		PromptTokenCount     int `json:"promptTokenCount"`
		CandidatesTokenCount int `json:"candidatesTokenCount,omitempty"`
		ThoughtsTokenCount   int `json:"thoughtsTokenCount,omitempty"`
		CachedContentTokens  int `json:"cachedContentTokenCount,omitempty"`
		TotalTokenCount      int `json:"totalTokenCount"`
	}
)

func (s *Server) render(req *Request, reply Reply) (*wireResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respSeq++
	resp := &wireResponse{
		ModelVersion: ModelVersion(req.Model),
		ResponseID:   fmt.Sprintf("geminitest-response-%d", s.respSeq),
	}
	out, thoughts := 0, 0
	if reply.blockReason != "" {
		resp.PromptFeedback = &struct {
			BlockReason string `json:"blockReason"`
		}{reply.blockReason}
	} else {
		content := &Content{Role: "model"}
		signed := false
		for _, p := range reply.parts {
			if p.call == nil && p.text == "" {
				continue
			}
			if p.call == nil {
				content.Parts = append(content.Parts, Part{Text: p.text, Thought: p.thought})
				if p.thought {
					thoughts += len(p.text)/4 + 1
				} else {
					out += len(p.text)/4 + 1
				}
				continue
			}
			raw, err := json.Marshal(p.call.args)
			if err != nil {
				return nil, fmt.Errorf("marshalling args of %s: %v", p.call.name, err)
			}
			var args map[string]any
			if err := json.Unmarshal(raw, &args); err != nil {
				return nil, fmt.Errorf("args of %s are not a JSON object: %s", p.call.name, raw)
			}
			s.callSeq++
			id := fmt.Sprintf("call-%d", s.callSeq)
			part := Part{FunctionCall: &FunctionCall{ID: id, Name: p.call.name, Args: args}}
			if !signed {
				part.ThoughtSignature = FakeSignature(id)
				signed = true
			}
			if reply.noIDs {
				part.FunctionCall.ID = ""
			} else {
				s.issued[id] = part.ThoughtSignature
			}
			content.Parts = append(content.Parts, part)
			out += len(raw)/4 + 5
		}
		finish := reply.finishReason
		if finish == "" {
			finish = "STOP"
		}
		resp.Candidates = []wireCandidate{{Content: content, FinishReason: finish}}
		if len(content.Parts) == 0 {
			resp.Candidates[0].Content = nil
		}
	}
	resp.UsageMetadata = wireUsage{PromptTokenCount: len(req.Body)/4 + 1, CandidatesTokenCount: out, ThoughtsTokenCount: thoughts}
	if u := reply.usage; u != nil {
		resp.UsageMetadata = wireUsage{PromptTokenCount: u.Prompt, CandidatesTokenCount: u.Candidates, ThoughtsTokenCount: u.Thoughts, CachedContentTokens: u.Cached}
	}
	m := resp.UsageMetadata
	resp.UsageMetadata.TotalTokenCount = m.PromptTokenCount + m.CandidatesTokenCount + m.ThoughtsTokenCount
	return resp, nil
}

func writeError(w http.ResponseWriter, e *apiError) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(e.Code)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": e})
}
