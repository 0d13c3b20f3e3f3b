package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// reply is one scripted answer of the fake server.
type reply struct {
	status int               // default 200
	header map[string]string // extra headers
	body   string            // raw body; JSON unless contentType says otherwise
	// contentType defaults to application/json.
	contentType string
}

// fakeServer speaks the Chat Completions wire format: it records each
// request body and answers from a script, repeating the last reply.
type fakeServer struct {
	t       *testing.T
	srv     *httptest.Server
	mu      sync.Mutex
	script  []reply
	bodies  []map[string]any
	headers []http.Header
}

func newFakeServer(t *testing.T, script ...reply) *fakeServer {
	t.Helper()
	f := &fakeServer{t: t, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"no route","type":"invalid_request_error"}}`, http.StatusNotFound)
		return
	}
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		f.t.Errorf("request body is not JSON: %v: %s", err, b)
	}
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, body)
	f.headers = append(f.headers, r.Header.Clone())
	rep := f.script[min(n, len(f.script)-1)]
	f.mu.Unlock()
	ct := rep.contentType
	if ct == "" {
		ct = "application/json"
	}
	w.Header().Set("Content-Type", ct)
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	if rep.status == 0 {
		rep.status = http.StatusOK
	}
	w.WriteHeader(rep.status)
	io.WriteString(w, rep.body)
}

// requests returns the recorded request bodies.
func (f *fakeServer) requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.bodies...)
}

func (f *fakeServer) url() string { return f.srv.URL + "/v1" }

// completion builds a Chat Completions response body around one message.
func completion(message string, finish string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"test-model-0613",` +
		`"choices":[{"index":0,"message":` + message + `,"finish_reason":"` + finish + `","logprobs":null}],` +
		`"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150}}`
}

// recordingSleep records the waits asked for and returns at once.
type recordingSleep struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *recordingSleep) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return nil
}
