package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
)

func TestLoopbackOnly(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:8090": true, "localhost:8090": true, "LOCALHOST:1": true, "[::1]:8090": true, "127.0.0.2:80": true,
		"0.0.0.0:8090": false, ":8090": false, "[::]:8090": false, "192.0.2.1:8090": false, "example.org:8090": false, "8090": false,
	} {
		if err := LoopbackOnly(addr); (err == nil) != ok {
			t.Errorf("LoopbackOnly(%q) = %v, want ok %v", addr, err, ok)
		}
	}
}

// fakeChecks answers every check with one verdict, after progress events,
// or with err; a check of "block" waits until it is cancelled.
type fakeChecks struct {
	mu      sync.Mutex
	saved   []*store.Check
	err     error
	running chan struct{}
	stored  *store.Check // what show opens
	fresh   []bool       // each check's Fresh
}

func (f *fakeChecks) Check(ctx context.Context, req CheckRequest) (*store.Check, error) {
	if f.err != nil {
		return nil, f.err
	}
	if req.Text == "block" {
		f.running <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if req.Progress != nil {
		req.Progress(factcheck.Event{Kind: factcheck.EventClaims, Claim: -1, Claims: []factcheck.ExtractedClaim{{Claim: req.Text}}})
		req.Progress(factcheck.Event{Kind: factcheck.EventSearch, Claim: 0, Text: "query"})
	}
	c := &store.Check{ID: "c1", User: req.Client, Text: req.Text, CreatedAt: time.Now(), Report: &factcheck.Report{Claims: []*factcheck.Verdict{
		{Claim: req.Text, Verdict: factcheck.Supported, Confidence: factcheck.High, Reasoning: "Yes.",
			Evidence: []factcheck.Evidence{{SourceURL: "https://a.example/1", Stance: factcheck.StanceSupports, QuoteOrSummary: "It is so.", QuoteFound: true,
				QuoteMatch: factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}}}}}}}
	f.mu.Lock()
	f.saved = append(f.saved, c)
	f.fresh = append(f.fresh, req.Fresh)
	f.mu.Unlock()
	return c, nil
}

func (f *fakeChecks) History(context.Context, store.HistoryQuery) ([]store.CheckSummary, error) {
	return nil, errors.New("disk on fire at /var/lib/secret")
}

func (f *fakeChecks) Get(_ context.Context, id string) (*store.Check, error) {
	if f.stored != nil && f.stored.ID == id {
		return f.stored, nil
	}
	return nil, store.ErrNotFound
}

func connect(t *testing.T, checks Checks) *sdk.ClientSession {
	t.Helper()
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := NewServer(Options{Checks: checks, Version: "test"}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "unit", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// Errors: a usererr's message as it is, others without their details.
func TestToolErrors(t *testing.T) {
	f := &fakeChecks{err: &usererr.Error{Msg: "The text is too long to check."}}
	cs := connect(t, f)
	for _, tt := range []struct {
		tool         string
		args         map[string]any
		want, hidden string
	}{
		{"check", map[string]any{"text": "x"}, "The text is too long to check.", ""},
		{"history", nil, "the history failed on factbot's side", "disk on fire"},
		{"show", map[string]any{"id": "nope"}, `no check "nope"`, ""},
		{"show", map[string]any{"id": " "}, `give the check's "id"`, ""},
	} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tt.tool, Arguments: tt.args})
		if err != nil {
			t.Fatalf("%s: %v", tt.tool, err)
		}
		if !res.IsError || !strings.Contains(text(res), tt.want) || (tt.hidden != "" && strings.Contains(text(res), tt.hidden)) {
			t.Errorf("%s: isError %v, %q; want an error saying %q", tt.tool, res.IsError, text(res), tt.want)
		}
	}
}

func TestCheckTool(t *testing.T) {
	f := &fakeChecks{}
	cs := connect(t, f)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"text": "Water is wet"}})
	if err != nil || res.IsError {
		t.Fatalf("check: %v %s", err, text(res))
	}
	for _, want := range []string{"Claim 1 of 1: Water is wet", "SUPPORTED (high confidence)", "supports: https://a.example/1", "“It is so.” (quote found on the page)", "Saved as c1."} {
		if !strings.Contains(text(res), want) {
			t.Errorf("text lacks %q:\n%s", want, text(res))
		}
	}
	sc, ok := res.StructuredContent.(map[string]any)
	if !ok || sc["id"] != "c1" {
		t.Errorf("structuredContent = %#v", res.StructuredContent)
	}
	if len(f.saved) != 1 || f.saved[0].User != "unit" {
		t.Errorf("asked as %+v, want the client's name", f.saved)
	}
}

// At most MaxChecks run at once; a waiting one goes when the caller
// cancels it.
func TestCheckSlots(t *testing.T) {
	f := &fakeChecks{running: make(chan struct{}, 1)}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := NewServer(Options{Checks: f, MaxChecks: 1}).Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "unit", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	ctx1, cancel1 := context.WithCancel(context.Background())
	done1 := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx1, &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"text": "block"}})
		done1 <- err
	}()
	<-f.running
	ctx2, cancel2 := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel2()
	if _, err := cs.CallTool(ctx2, &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"text": "Water is wet"}}); err == nil {
		t.Error("a second check ran while the one slot was taken")
	}
	cancel1()
	<-done1
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"text": "Water is wet"}})
	if err != nil || res.IsError {
		t.Errorf("once the slot is free: %v %s", err, text(res))
	}
}

func TestHTTPHandlerToken(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	ts := httptest.NewServer(HTTPHandler(NewServer(Options{Checks: &fakeChecks{}}), HTTPOptions{Tokens: []string{token}}))
	defer ts.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	post := func(h map[string]string) int {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range h {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tt := range []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"no token", nil, http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer nope"}, http.StatusUnauthorized},
		{"not bearer", map[string]string{"Authorization": "Token " + token}, http.StatusUnauthorized},
		{"token", map[string]string{"Authorization": "Bearer " + token}, http.StatusOK},
		// A browser page of another site cannot use it, token or not.
		{"cross-origin", map[string]string{"Authorization": "Bearer " + token, "Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, http.StatusForbidden},
	} {
		if got := post(tt.header); got != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, got, tt.want)
		}
	}
}

// "fresh" checks again, as factbot check --fresh does: no cached verdict,
// no answer from an earlier check of the same claim.
func TestCheckFresh(t *testing.T) {
	f := &fakeChecks{}
	cs := connect(t, f)
	for _, args := range []map[string]any{{"text": "Ice is cold", "fresh": true}, {"text": "Ice is cold"}} {
		if res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "check", Arguments: args}); err != nil || res.IsError {
			t.Fatalf("check %v: %v, %v", args, res, err)
		}
	}
	if diff := cmp.Diff([]bool{true, false}, f.fresh); diff != "" {
		t.Errorf("Fresh of the checks (-want +got):\n%s", diff)
	}
}
