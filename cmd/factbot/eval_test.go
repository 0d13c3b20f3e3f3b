package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/eval"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/internal/usererr"
)

// scriptedChecker answers claim i with labels[claim] and counts calls.
type scriptedChecker struct {
	mu     sync.Mutex
	labels map[string]factcheck.Label
	calls  []string
	// onCall, if set, runs at the start of each call with its number.
	onCall func(n int) error
}

func (s *scriptedChecker) Check(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
	s.mu.Lock()
	s.calls = append(s.calls, in.Text)
	n := len(s.calls)
	s.mu.Unlock()
	if s.onCall != nil {
		if err := s.onCall(n); err != nil {
			return nil, err
		}
	}
	v := &factcheck.Verdict{Claim: in.Text, Verdict: s.labels[in.Text], Confidence: factcheck.High, Model: "scripted",
		Trace: []factcheck.TraceEvent{{Kind: "tool", Tool: factcheck.ToolWebSearch}}}
	return &factcheck.Report{Input: in.Text, Claims: []*factcheck.Verdict{v}, Model: "scripted", Usage: factcheck.Usage{PromptTokens: 2000, OutputTokens: 200}}, nil
}

func (s *scriptedChecker) called() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := append([]string(nil), s.calls...)
	sort.Strings(c)
	return c
}

// useChecker makes `factbot eval` use c for the test's duration.
func useChecker(t *testing.T, c eval.Checker) {
	t.Helper()
	old := evalChecker
	evalChecker = func(context.Context, *app, evalEngine) (eval.Checker, error) { return c, nil }
	t.Cleanup(func() { evalChecker = old })
}

func runApp(ctx context.Context, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code = run(ctx, a, args)
	return out.String(), errb.String(), code
}

// sixClaims writes a dataset; the checker gets five of six right.
func sixClaims(t *testing.T) (string, *scriptedChecker) {
	t.Helper()
	lines := []string{
		`{"id":"a","claim":"alpha","label":"supported","notes":"n"}`,
		`{"id":"b","claim":"bravo","label":"contradicted"}`,
		`{"id":"c","claim":"charlie","label":"contested"}`,
		`{"id":"d","claim":"delta","label":"unverifiable"}`,
		`{"id":"e","claim":"echo","label":"supported"}`,
		`{"id":"f","claim":"foxtrot","label":"contradicted"}`,
	}
	path := filepath.Join(t.TempDir(), "claims.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, &scriptedChecker{labels: map[string]factcheck.Label{
		"alpha": factcheck.Supported, "bravo": factcheck.Contradicted, "charlie": factcheck.Contested,
		"delta": factcheck.Unverifiable, "echo": factcheck.Supported, "foxtrot": factcheck.Supported,
	}}
}

func TestEvalInterruptAndResume(t *testing.T) {
	dataset, first := sixClaims(t)
	out := filepath.Join(t.TempDir(), "results.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first.onCall = func(n int) error {
		if n == 4 { // Ctrl-C while the fourth claim is being checked
			cancel()
			return ctx.Err()
		}
		return nil
	}
	useChecker(t, first)
	_, stderr, code := runApp(ctx, "eval", "--dataset", dataset, "--out", out, "--concurrency", "1")
	if code != exitFailed {
		t.Fatalf("interrupted run: exit %d, want %d; stderr:\n%s", code, exitFailed, stderr)
	}
	if !strings.Contains(stderr, "interrupted after 3 of 6 claims") || !strings.Contains(stderr, "--resume --out "+out) {
		t.Errorf("stderr does not explain how to resume:\n%s", stderr)
	}
	// The process died mid-write: a torn line ends the file.
	fh, _ := os.OpenFile(out, os.O_APPEND|os.O_WRONLY, 0)
	fh.WriteString(`{"id":"d","claim":"del`)
	fh.Close()

	// Running again without --resume must not touch the file.
	before, _ := os.ReadFile(out)
	_, stderr, code = runApp(context.Background(), "eval", "--dataset", dataset, "--out", out)
	if code != exitUsage || !strings.Contains(stderr, "pass --resume") {
		t.Errorf("rerun without --resume: exit %d, stderr %q", code, stderr)
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
		t.Error("rerun without --resume changed the results file")
	}

	second := &scriptedChecker{labels: first.labels}
	useChecker(t, second)
	stdout, stderr, code := runApp(context.Background(), "eval", "--dataset", dataset, "--out", out, "--resume", "--concurrency", "3")
	if code != exitOK {
		t.Fatalf("resumed run: exit %d; stderr:\n%s", code, stderr)
	}
	if diff := cmp.Diff([]string{"delta", "echo", "foxtrot"}, second.called()); diff != "" {
		t.Errorf("claims checked on resume (-want +got):\n%s", diff)
	}
	for _, want := range []string{"accuracy 0.833", "6/6"} {
		if !strings.Contains(stdout+stderr, want) {
			t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", want, stdout, stderr)
		}
	}
	res, err := eval.LoadRun(out)
	if err != nil {
		t.Fatalf("results file after resume: %v", err)
	}
	var ids []string
	for _, r := range res {
		ids = append(ids, r.ID)
	}
	sort.Strings(ids)
	if diff := cmp.Diff([]string{"a", "b", "c", "d", "e", "f"}, ids); diff != "" {
		t.Errorf("results file ids (-want +got):\n%s", diff)
	}
}

func TestEvalJSONHTMLAndCompare(t *testing.T) {
	dataset, c := sixClaims(t)
	useChecker(t, c)
	dir := t.TempDir()
	html := filepath.Join(dir, "report.html")
	stdout, stderr, code := runApp(context.Background(), "eval", "--dataset", dataset, "--json", "--quiet", "--html", html, "--price-in", "1", "--price-out", "10")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if stderr != "" {
		t.Errorf("--quiet run wrote to stderr: %q", stderr)
	}
	var s eval.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("stdout is not a JSON summary: %v\n%s", err, stdout)
	}
	if s.Scored != 6 || s.Accuracy != 5.0/6 || s.Dataset != "claims.jsonl" || s.Model != "scripted" {
		t.Errorf("summary: scored %d accuracy %v dataset %q model %q", s.Scored, s.Accuracy, s.Dataset, s.Model)
	}
	if want := (2000*1.0 + 200*10.0) / 1e6; s.PerClaim.CostUSD < want-1e-12 || s.PerClaim.CostUSD > want+1e-12 {
		t.Errorf("cost per claim = %v, want %v", s.PerClaim.CostUSD, want)
	}
	page, err := os.ReadFile(html)
	if err != nil || !bytes.Contains(page, []byte("<svg")) {
		t.Errorf("HTML report: %v, has svg: %v", err, bytes.Contains(page, []byte("<svg")))
	}
	a := filepath.Join(dir, "a.json")
	os.WriteFile(a, []byte(stdout), 0o644)

	// A second run where "foxtrot" is now right and "alpha" now wrong.
	c2 := &scriptedChecker{labels: map[string]factcheck.Label{}}
	for k, v := range c.labels {
		c2.labels[k] = v
	}
	c2.labels["foxtrot"], c2.labels["alpha"] = factcheck.Contradicted, factcheck.Unverifiable
	useChecker(t, c2)
	stdout, _, code = runApp(context.Background(), "eval", "--dataset", dataset, "--json", "--quiet")
	if code != exitOK {
		t.Fatalf("second run: exit %d", code)
	}
	b := filepath.Join(dir, "b.json")
	os.WriteFile(b, []byte(stdout), 0o644)

	stdout, stderr, code = runApp(context.Background(), "eval", "--compare", a, b)
	if code != exitOK {
		t.Fatalf("compare: exit %d; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"2 verdicts changed: 1 fixed, 1 broken", "broken  a", "fixed   f", "accuracy 0.833 → 0.833"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("compare output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestEvalBadInput(t *testing.T) {
	useChecker(t, &scriptedChecker{})
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"claim":"x","label":"supported"}`+"\n"+`{"claim":"y","label":"mostly true"}`+"\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"resume without out", []string{"--resume"}, "give --out RESULTS too"},
		{"bad label", []string{"--dataset", bad}, `line 2: label "mostly true"`},
		{"missing file", []string{"--dataset", filepath.Join(dir, "nope.jsonl")}, "no such file"},
		{"bad format", []string{"--format", "csv"}, `unknown --format "csv"`},
		{"stray argument", []string{"claims.jsonl"}, "the dataset is given with --dataset"},
		{"compare one file", []string{"--compare", bad}, "--compare needs two runs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runApp(context.Background(), append([]string{"eval"}, tc.args...)...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, tc.want)
			}
		})
	}
}

func TestEvalConfigErrorStops(t *testing.T) {
	dataset, c := sixClaims(t)
	c.onCall = func(n int) error {
		return &usererr.Config{Var: "GEMINI_API_KEY", Msg: "the API rejected the key"}
	}
	useChecker(t, c)
	_, stderr, code := runApp(context.Background(), "eval", "--dataset", dataset, "--concurrency", "1", "--quiet")
	if code != exitUsage || !strings.Contains(stderr, "GEMINI_API_KEY: the API rejected the key") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if n := len(c.called()); n != 1 {
		t.Errorf("checker called %d times after a configuration error, want 1", n)
	}
}

// The real engine, wired from the environment, against the fake Gemini,
// Tavily and web servers of check_test.go.
func TestEvalEndToEnd(t *testing.T) {
	claims := map[string]string{
		wallClaim:                       "contradicted",
		"Bats are mammals":              "supported",
		"Coffee tastes better than tea": "unverifiable",
	}
	var w *world
	w = newWorld(t, func(r *geminitest.Request) geminitest.Reply {
		if isExtraction(r) {
			for c := range claims {
				if strings.Contains(r.FirstUserText(), c) {
					return claimsReply(c)
				}
			}
			return claimsReply()
		}
		for c, label := range claims {
			if strings.Contains(r.AllText(), c) {
				if r.Turns() == 0 {
					return searchCall("great wall visible from space")
				}
				if label == "unverifiable" {
					return verdictReply(label, "medium", "scripted")
				}
				return verdictReply(label, "medium", "scripted", map[string]any{
					"source_url": w.url("/nasa/great-wall"), "source_title": "Great Wall myth", "supports": label == "supported",
					"quote_or_summary": "The Great Wall is not visible to the unaided eye from low Earth orbit."})
			}
		}
		return verdictReply("unverifiable", "low", "unknown claim")
	})
	w.env["FACTBOT_PREFETCH"] = "0" // the script's turns are the model's own searches and reads
	dir := t.TempDir()
	dataset := filepath.Join(dir, "d.jsonl")
	var lines []string
	labels := []string{"contradicted", "supported", "contested"} // the third is scored wrong
	i := 0
	for _, c := range []string{wallClaim, "Bats are mammals", "Coffee tastes better than tea"} {
		lines = append(lines, fmt.Sprintf(`{"claim":%q,"label":%q}`, c, labels[i]))
		i++
	}
	os.WriteFile(dataset, []byte(strings.Join(lines, "\n")), 0o644)
	stdout, stderr, code := w.run("eval", "--dataset", dataset, "--json", "--quiet", "--concurrency", "2")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var s eval.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("not a JSON summary: %v\n%s", err, stdout)
	}
	if s.Scored != 3 || s.Accuracy != 2.0/3 || s.Searches != 3 {
		t.Errorf("scored %d, accuracy %v, searches %d; want 3, 2/3, 3\n%s", s.Scored, s.Accuracy, s.Searches, stdout)
	}
	if s.CitedURLs != 2 || s.CitedShare != 1 {
		t.Errorf("cited %d URLs, %v retrieved; want 2, all", s.CitedURLs, s.CitedShare)
	}
	if s.PromptTokens == 0 {
		t.Error("no tokens counted from the real engine's usage")
	}
}

// The measurement on a local model: FACTBOT_LLM=openai against a fake
// Ollama-style server (tool arguments as objects, no call ids, a call
// written inside <tool_call> tags), through the OpenAI-compatible provider and a real socket.
func TestEvalLocalModel(t *testing.T) {
	w := newWorld(t, func(r *geminitest.Request) geminitest.Reply {
		t.Error("Gemini was called with FACTBOT_LLM=openai")
		return geminitest.Text("")
	})
	w.env["FACTBOT_PREFETCH"] = "0" // the script's turns are the model's own searches and reads
	ollama := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []map[string]any `json:"messages"`
			Tools    []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(rw, `{"error":"bad request"}`, http.StatusBadRequest)
			return
		}
		extraction, tools := false, 0
		for _, tl := range req.Tools {
			extraction = extraction || tl.Function.Name == factcheck.ToolSubmitClaims
		}
		for _, m := range req.Messages {
			if m["role"] == "tool" {
				tools++
			}
		}
		var msg string
		switch {
		case extraction:
			msg = `{"role":"assistant","content":"","tool_calls":[{"function":{"name":"submit_claims","arguments":{"claims":[{"claim":"` + wallClaim + `","span":"` + wallClaim + `"}],"not_checkable":[]}}}]}`
		case tools == 0:
			msg = `{"role":"assistant","content":"<tool_call>{\"name\": \"web_search\", \"arguments\": {\"query\": \"great wall visible from space\"}}</tool_call>"}`
		default:
			msg = `{"role":"assistant","content":"","tool_calls":[{"function":{"name":"submit_verdict","arguments":{"verdict":"contradicted","confidence":"high","reasoning":"Not visible to the unaided eye.","evidence":[{"source_url":"` +
				w.url("/nasa/great-wall") + `","source_title":"Great Wall myth","supports":false,"quote_or_summary":"The Great Wall is not visible to the unaided eye from low Earth orbit."}]}}}]}`
		}
		rw.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(rw, `{"id":"x","object":"chat.completion","created":1,"model":"qwen3:8b","choices":[{"index":0,"message":%s,"finish_reason":"stop"}],"usage":{"prompt_tokens":700,"completion_tokens":60}}`, msg)
	}))
	t.Cleanup(ollama.Close)
	w.env["FACTBOT_LLM"] = "openai"
	w.env["FACTBOT_MODEL"] = "qwen3:8b"
	w.env["OPENAI_BASE_URL"] = ollama.URL + "/v1"
	dataset := filepath.Join(t.TempDir(), "d.jsonl")
	os.WriteFile(dataset, []byte(fmt.Sprintf(`{"claim":%q,"label":"contradicted"}`, wallClaim)), 0o644)
	stdout, stderr, code := w.run("eval", "--dataset", dataset, "--json", "--quiet", "--price-in", "0", "--price-out", "0")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var s eval.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("not a JSON summary: %v\n%s", err, stdout)
	}
	if s.Accuracy != 1 || s.Searches != 1 || s.CitedShare != 1 || s.CostUSD != 0 || s.Model == "" {
		t.Errorf("accuracy %v, searches %d, cited share %v, cost %v, model %q; want 1, 1, 1, 0, set\n%s", s.Accuracy, s.Searches, s.CitedShare, s.CostUSD, s.Model, stdout)
	}
}
