package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
)

// otlpReceiver is a local OTLP/HTTP trace receiver: it decodes each
// export request (protobuf, as the exporter sends it) and keeps the spans'
// names and attributes.
type otlpReceiver struct {
	srv   *httptest.Server
	mu    sync.Mutex
	spans map[string]map[string]string // name → attribute key → value
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	r := &otlpReceiver{spans: map[string]map[string]string{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost || req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "not an OTLP/HTTP trace export", http.StatusBadRequest)
			return
		}
		b, _ := io.ReadAll(req.Body)
		var ex coltrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(b, &ex); err != nil {
			t.Errorf("OTLP body: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		for _, rs := range ex.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, sp := range ss.Spans {
					attrs := map[string]string{}
					for _, kv := range sp.Attributes {
						attrs[kv.Key] = kv.Value.String()
					}
					r.spans[sp.Name] = attrs
				}
			}
		}
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
		w.Write(out)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *otlpReceiver) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ns []string
	for n := range r.spans {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}

// TestCheckTraces: with OTEL_EXPORTER_OTLP_ENDPOINT set, a check's span,
// its model calls and its tool calls reach an OTLP/HTTP receiver by the
// time factbot check exits.
func TestCheckTraces(t *testing.T) {
	rcv := newOTLPReceiver(t)
	w := newWorld(t, wallFirst(func(r *geminitest.Request) geminitest.Reply {
		if r.Turns() == 0 {
			return searchCall("great wall visible from space")
		}
		return verdictReply("unverifiable", "low", "Nothing found.")
	}))
	w.env["OTEL_EXPORTER_OTLP_ENDPOINT"] = rcv.srv.URL
	if _, stderr, code := w.run("check", "--quiet", wallClaim); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	names := rcv.names()
	for _, want := range []string{"factbot.check", "chat gemini-flash-latest", "execute_tool web_search"} {
		if !slices.Contains(names, want) {
			t.Errorf("spans %q lack %q", names, want)
		}
	}
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if m := rcv.spans["chat gemini-flash-latest"]; m["gen_ai.request.model"] == "" || m["gen_ai.usage.input_tokens"] == "" {
		t.Errorf("model span attributes = %v", m)
	}
}
