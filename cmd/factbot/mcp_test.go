package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/mcp"
)

// mcpModel finds wallClaim in any text, searches, reads NASA's page and
// contradicts the claim, citing it.
func mcpModel(w **world) geminitest.Handler {
	return wallFirst(func(r *geminitest.Request) geminitest.Reply {
		switch r.Turns() {
		case 0:
			return searchCall("great wall visible from space")
		case 1:
			return readCall((*w).url("/nasa/great-wall"))
		default:
			return verdictReply("contradicted", "high", "NASA says the wall is not visible to the unaided eye from orbit.",
				map[string]any{"source_url": (*w).url("/nasa/great-wall"), "source_title": "NASA", "supports": false,
					"quote_or_summary": "frequently billed as the only man-made object visible from space, generally isn't"})
		}
	})
}

// mcpClient is an MCP client (the SDK's own) with the progress
// notifications it received.
type mcpClient struct {
	*sdk.Client
	mu       sync.Mutex
	progress []*sdk.ProgressNotificationParams
}

func newMCPClient(name string) *mcpClient {
	c := &mcpClient{}
	c.Client = sdk.NewClient(&sdk.Implementation{Name: name, Version: "1.0"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.progress = append(c.progress, r.Params)
		}})
	return c
}

// progressOf waits a little for the notifications of token and returns
// their messages.
func (c *mcpClient) progressOf(token string, want int) []string {
	deadline := time.Now().Add(5 * time.Second)
	for {
		c.mu.Lock()
		var msgs []string
		last := 0.0
		for _, p := range c.progress {
			if p.ProgressToken == token {
				if p.Progress <= last {
					msgs = append(msgs, fmt.Sprintf("progress %v after %v", p.Progress, last))
				}
				last = p.Progress
				msgs = append(msgs, p.Message)
			}
		}
		c.mu.Unlock()
		if len(msgs) >= want || time.Now().After(deadline) {
			return msgs
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startMCPStdio runs factbot mcp in-process on pipes and connects a client
// to its standard input and output.
func startMCPStdio(t *testing.T, w *world) (*mcpClient, *sdk.ClientSession) {
	t.Helper()
	inR, inW := io.Pipe()   // client → factbot's stdin
	outR, outW := io.Pipe() // factbot's stdout → client
	var stderr syncBuffer
	a := &app{stdin: inR, stdout: outW, stderr: &stderr, getenv: func(k string) string { return w.env[k] }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, a, []string{"mcp"})
		outW.Close()
	}()
	c := newMCPClient("stdio-test")
	var tr sdk.Transport = &sdk.IOTransport{Reader: outR, Writer: inW}
	if testing.Verbose() {
		tr = &sdk.LoggingTransport{Transport: tr, Writer: os.Stderr}
	}
	cs, err := c.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connect over stdio: %v\nstderr:\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		cs.Close()
		inW.Close() // end of input: factbot mcp returns
		select {
		case code := <-done:
			if code != exitOK {
				t.Errorf("factbot mcp: exit %d, stderr:\n%s", code, stderr.String())
			}
		case <-time.After(10 * time.Second):
			t.Error("factbot mcp did not stop at the end of its input")
		}
		cancel()
	})
	return c, cs
}

// startMCPHTTP runs factbot mcp --addr in-process and returns its /mcp URL.
func startMCPHTTP(t *testing.T, w *world) string {
	t.Helper()
	addrc := make(chan net.Addr, 1)
	mcpListening = func(a net.Addr) { addrc <- a }
	t.Cleanup(func() { mcpListening = nil })
	var stderr syncBuffer
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(k string) string { return w.env[k] }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, a, []string{"mcp", "--addr", "127.0.0.1:0"}) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("factbot mcp --addr: exit %d, stderr:\n%s", code, stderr.String())
		}
	})
	select {
	case addr := <-addrc:
		return "http://" + addr.String() + mcp.Path
	case code := <-done:
		t.Fatalf("factbot mcp --addr: exit %d before listening, stderr:\n%s", code, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("factbot mcp --addr did not listen")
	}
	return ""
}

// bearer adds a token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func connectHTTP(t *testing.T, url, token, name string) (*mcpClient, *sdk.ClientSession) {
	t.Helper()
	c := newMCPClient(name)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	if err != nil {
		t.Fatalf("connect over HTTP: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return c, cs
}

// callCheck calls the check tool with a progress token and decodes its
// structured result.
func callCheck(t *testing.T, cs *sdk.ClientSession, text, token string) (*sdk.CallToolResult, *mcp.Report) {
	t.Helper()
	p := &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"text": text}}
	if token != "" {
		p.SetProgressToken(token)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	if res.IsError {
		t.Fatalf("check: tool error %s", resultText(res))
	}
	return res, decodeStructured[mcp.Report](t, res)
}

func decodeStructured[T any](t *testing.T, res *sdk.CallToolResult) *T {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("structuredContent: %v\n%s", err, b)
	}
	return &v
}

func resultText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func callTool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// The tools, each with an input and an output schema.
func checkTools(t *testing.T, cs *sdk.ClientSession) {
	t.Helper()
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
		if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("tool %s: input schema %v, output schema %v, description %q", tool.Name, tool.InputSchema != nil, tool.OutputSchema != nil, tool.Description)
		}
		in, _ := json.Marshal(tool.InputSchema)
		out, _ := json.Marshal(tool.OutputSchema)
		switch tool.Name {
		case "check":
			if !strings.Contains(string(in), `"required":["text"]`) {
				t.Errorf("check's input schema does not require text: %s", in)
			}
			for _, want := range []string{`"enum":["supported","contradicted","contested","unverifiable"]`, `"enum":["supports","refutes","context"]`, `"quote_found"`, `"reasoning"`, `"confidence"`} {
				if !strings.Contains(string(out), want) {
					t.Errorf("check's output schema lacks %s: %s", want, out)
				}
			}
		case "show":
			if !strings.Contains(string(in), `"required":["id"]`) {
				t.Errorf("show's input schema does not require id: %s", in)
			}
		}
	}
	slices.Sort(names)
	if fmt.Sprint(names) != "[check history show]" {
		t.Errorf("tools = %v, want check, history, show", names)
	}
}

func TestMCPStdio(t *testing.T) {
	var w *world
	w = newWorld(t, mcpModel(&w))
	w.env["FACTBOT_PREFETCH"] = "0" // the script's turns are the model's own searches and reads
	c, cs := startMCPStdio(t, w)
	checkTools(t, cs)

	res, rep := callCheck(t, cs, "Did you know? "+wallClaim+".", "tok-1")
	if len(rep.Claims) != 1 || rep.ID == "" {
		t.Fatalf("report = %+v, want one claim and an id", rep)
	}
	cl := rep.Claims[0]
	if cl.Claim != wallClaim || cl.Verdict != "contradicted" || cl.Confidence != "high" || !strings.Contains(cl.Reasoning, "NASA says") {
		t.Errorf("claim = %+v", cl)
	}
	if len(cl.Evidence) != 1 {
		t.Fatalf("evidence = %+v", cl.Evidence)
	}
	if e := cl.Evidence[0]; e.URL != w.url("/nasa/great-wall") || e.Title != "The Great Wall from space" || e.Stance != "refutes" || !e.QuoteFound ||
		!strings.Contains(e.Quote, "at least to the unaided eye in low Earth orbit.") {
		t.Errorf("evidence = %+v", e)
	}
	for _, want := range []string{"CONTRADICTED (high confidence)", "refutes: The Great Wall from space", "Saved as " + rep.ID} {
		if !strings.Contains(resultText(res), want) {
			t.Errorf("text rendering lacks %q:\n%s", want, resultText(res))
		}
	}
	wantProgress := []string{"found 1 claim(s) to check", "claim 1: searching: great wall visible from space",
		"claim 1: reading: " + w.url("/nasa/great-wall"), "claim 1: verdict: contradicted, high confidence"}
	if got := c.progressOf("tok-1", len(wantProgress)); !slices.Equal(got, wantProgress) {
		t.Errorf("progress = %q, want %q", got, wantProgress)
	}

	// history and show.
	h := decodeStructured[mcp.History](t, callTool(t, cs, "history", nil))
	if len(h.Checks) != 1 || h.Checks[0].ID != rep.ID || h.Checks[0].Claims[0].Verdict != "contradicted" || h.Checks[0].Claims[0].Claim != wallClaim {
		t.Errorf("history = %+v", h)
	}
	shown := decodeStructured[mcp.Report](t, callTool(t, cs, "show", map[string]any{"id": rep.ID}))
	if shown.ID != rep.ID || len(shown.Claims) != 1 || shown.Claims[0].Verdict != "contradicted" || shown.Text != "Did you know? "+wallClaim+"." {
		t.Errorf("show = %+v", shown)
	}

	// Saved and audited like any check, in the tenant mcp, as asked by the
	// client: other commands reach it while factbot mcp holds the file.
	out, stderr, code := w.run("show", "--tenant", "mcp", "--json", rep.ID)
	if code != exitOK {
		t.Fatalf("factbot show: exit %d\n%s", code, stderr)
	}
	var saved struct {
		Tenant, Platform, User string
		Report                 struct {
			Claims []struct {
				Trace   []json.RawMessage
				Sources []json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &saved); err != nil {
		t.Fatal(err)
	}
	if saved.Tenant != "mcp" || saved.Platform != "mcp" || saved.User != "stdio-test" || len(saved.Report.Claims) != 1 ||
		len(saved.Report.Claims[0].Trace) == 0 || len(saved.Report.Claims[0].Sources) == 0 {
		t.Errorf("saved check: %s", out)
	}
	// Cached like the others: the same claim again is answered from the
	// verdict cache.
	searches := w.searchN.Load()
	_, again := callCheck(t, cs, wallClaim, "")
	if !again.Claims[0].Cached || w.searchN.Load() != searches {
		t.Errorf("the second check was not answered from the cache: cached %v, searches %d → %d", again.Claims[0].Cached, searches, w.searchN.Load())
	}
}

func TestMCPBadInput(t *testing.T) {
	var w *world
	w = newWorld(t, mcpModel(&w))
	_, cs := startMCPStdio(t, w)
	for _, tt := range []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"empty text", "check", map[string]any{"text": "   "}, "nothing to check"},
		{"no text", "check", map[string]any{}, "text"},
		{"too long", "check", map[string]any{"text": strings.Repeat("The wall is long. ", 600)}, "too long to check"},
		{"unknown id", "show", map[string]any{"id": "20260101T000000Z-dead"}, `no check "20260101T000000Z-dead"`},
		{"history limit", "history", map[string]any{"limit": 5000}, "limit 5000"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := callTool(t, cs, tt.tool, tt.args)
			if !res.IsError || !strings.Contains(resultText(res), tt.want) {
				t.Errorf("isError %v, text %q; want an error saying %q", res.IsError, resultText(res), tt.want)
			}
		})
	}
	// The session goes on.
	if h := decodeStructured[mcp.History](t, callTool(t, cs, "history", nil)); len(h.Checks) != 0 {
		t.Errorf("history after bad input = %+v, want empty", h)
	}
	if w.gemini.Calls() != 0 {
		t.Errorf("bad input reached the model %d times", w.gemini.Calls())
	}
}

// TestMCPProgressShowsRetrieval: MCP progress shows the searches made
// before the first research turn (the questions and the claim, in
// parallel, so in any order) as they start, then the model's own.
func TestMCPProgressShowsRetrieval(t *testing.T) {
	var w *world
	w = newWorld(t, mcpModel(&w))
	c, cs := startMCPStdio(t, w)
	callCheck(t, cs, wallClaim, "tok-r")
	got := c.progressOf("tok-r", 7)
	if len(got) != 7 {
		t.Fatalf("progress = %q, want 7 lines", got)
	}
	retrieval := slices.Sorted(slices.Values(got[1:4]))
	want := []string{"claim 1: searching: Has the claim been debunked?", "claim 1: searching: " + wallClaim,
		"claim 1: searching: What do reliable sources say about this claim?"}
	if diff := cmp.Diff(want, retrieval); diff != "" {
		t.Errorf("the retrieval's progress (-want +got):\n%s", diff)
	}
	rest := []string{"found 1 claim(s) to check", "claim 1: searching: great wall visible from space",
		"claim 1: reading: " + w.url("/nasa/great-wall"), "claim 1: verdict: contradicted, high confidence"}
	if diff := cmp.Diff(rest, append(got[:1:1], got[4:]...)); diff != "" {
		t.Errorf("progress around the retrieval (-want +got):\n%s", diff)
	}
}

func TestMCPCancel(t *testing.T) {
	w := newWorld(t, wallFirst(func(r *geminitest.Request) geminitest.Reply { return searchCall("great wall visible from space") }))
	started, stopped := make(chan struct{}, 1), make(chan struct{}, 1)
	blocking := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // read: the server then sees the client go
		// The searches made in parallel before the first research turn
		// each block here; the first to start and to stop is signalled
		// (Close, at the end, waits for every one to stop).
		select {
		case started <- struct{}{}:
		default:
		}
		<-r.Context().Done() // the search waits until factbot gives up on it
		select {
		case stopped <- struct{}{}:
		default:
		}
	}))
	t.Cleanup(blocking.Close)
	w.env["FACTBOT_TAVILY_URL"] = blocking.URL
	_, cs := startMCPStdio(t, w)

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"text": wallClaim}})
		errc <- err
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the check never searched")
	}
	cancel() // the client sends notifications/cancelled
	if err := <-errc; err == nil {
		t.Error("the cancelled call returned no error")
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the check went on after the caller cancelled")
	}
	// The session goes on, and the cancelled check was not saved.
	if h := decodeStructured[mcp.History](t, callTool(t, cs, "history", nil)); len(h.Checks) != 0 {
		t.Errorf("history after a cancelled check = %+v, want empty", h)
	}
}

func TestMCPHTTP(t *testing.T) {
	var w *world
	w = newWorld(t, mcpModel(&w))
	const token = "mcp-token-0123456789abcdef0123456789"
	w.env["FACTBOT_MCP_TOKEN"] = token
	url := startMCPHTTP(t, w)

	// Without the token, or with another: 401, before any MCP.
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, auth := range []string{"", "Bearer wrong-token", "Basic " + token, "Bearer " + token + "x"} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") || bytes.Contains(body, []byte("serverInfo")) {
			t.Errorf("Authorization %q: %d %s %q, want 401", auth, res.StatusCode, res.Header.Get("WWW-Authenticate"), body)
		}
	}
	if _, err := newMCPClient("no-token").Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url}, nil); err == nil {
		t.Error("a client without the token connected")
	}

	// With it: the tools, and two sessions checking at once.
	c1, cs1 := connectHTTP(t, url, token, "http-one")
	c2, cs2 := connectHTTP(t, url, token, "http-two")
	checkTools(t, cs1)
	var wg sync.WaitGroup
	reps := make([]*mcp.Report, 2)
	for i, cs := range []*sdk.ClientSession{cs1, cs2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, reps[i] = callCheck(t, cs, wallClaim, fmt.Sprintf("http-%d", i))
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if reps[0].ID == reps[1].ID || reps[0].Claims[0].Verdict != "contradicted" || reps[1].Claims[0].Verdict != "contradicted" {
		t.Errorf("reports = %+v, %+v", reps[0], reps[1])
	}
	for i, c := range []*mcpClient{c1, c2} {
		if got := c.progressOf(fmt.Sprintf("http-%d", i), 2); len(got) < 2 || got[0] != "found 1 claim(s) to check" {
			t.Errorf("session %d progress = %q", i+1, got)
		}
	}
	h := decodeStructured[mcp.History](t, callTool(t, cs2, "history", map[string]any{"limit": 10}))
	if len(h.Checks) != 2 {
		t.Errorf("history = %+v, want both checks", h)
	}
	shown := decodeStructured[mcp.Report](t, callTool(t, cs1, "show", map[string]any{"id": reps[1].ID}))
	if shown.ID != reps[1].ID {
		t.Errorf("show = %+v", shown)
	}
}

// Without a token, factbot mcp serves loopback addresses only.
func TestMCPRefusesOpenAddressWithoutToken(t *testing.T) {
	var w *world
	w = newWorld(t, mcpModel(&w))
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:8090", "[::]:0"} {
		_, stderr, code := w.run("mcp", "--addr", addr)
		if code != exitUsage || !strings.Contains(stderr, "FACTBOT_MCP_TOKEN") || !strings.Contains(stderr, "not a loopback address") {
			t.Errorf("mcp --addr %s: exit %d, stderr %q; want 2 naming FACTBOT_MCP_TOKEN", addr, code, stderr)
		}
	}
	if w.gemini.Calls() != 0 {
		t.Error("the model was called")
	}
}

// On loopback without a token, it serves anyone on the machine.
func TestMCPLoopbackWithoutToken(t *testing.T) {
	var w *world
	w = newWorld(t, mcpModel(&w))
	url := startMCPHTTP(t, w)
	_, cs := connectHTTP(t, url, "", "loopback")
	checkTools(t, cs)
}

// TestMCPStdioClientGone: a client that stops reading factbot's output
// has ended the session, and factbot mcp ends as it does at the end of its
// input, without an error, even when it notices first because a reply
// finds nobody to take it. (A client that closes both its ends lets either
// be noticed first: TestMCPCancel's clean-up did so.)
func TestMCPStdioClientGone(t *testing.T) {
	asked, answer := make(chan struct{}), make(chan struct{})
	w := newWorld(t, wallFirst(func(r *geminitest.Request) geminitest.Reply {
		close(asked)
		<-answer // the model answers once the client has gone
		return verdictReply("unverifiable", "low", "No source was read.")
	}))
	inR, inW := io.Pipe()   // client → factbot's stdin, open until the end
	outR, outW := io.Pipe() // factbot's stdout → client
	var stderr syncBuffer
	a := &app{stdin: inR, stdout: outW, stderr: &stderr, getenv: func(k string) string { return w.env[k] }}
	done := make(chan int, 1)
	go func() { done <- run(context.Background(), a, []string{"mcp"}) }()
	t.Cleanup(func() { inW.Close() })

	// The client's side of the session, written out: the SDK's client
	// closes both ends when it cannot read.
	send := func(msg string) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"gone","version":"1"}}}`)
	if line, err := bufio.NewReader(outR).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
		t.Fatalf("initialize: %q, %v\nstderr:\n%s", line, err, stderr.String())
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"check","arguments":{"text":"` + wallClaim + `"}}}`)
	select {
	case <-asked:
	case <-time.After(30 * time.Second):
		t.Fatal("the check never reached the model")
	}
	outR.Close() // the client has gone: nobody reads factbot's output
	close(answer)
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("factbot mcp: exit %d, want %d; stderr:\n%s", code, exitOK, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("factbot mcp went on after its client had gone")
	}
}
