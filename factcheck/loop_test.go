package factcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The loop is generic: any typed finishing tool, any tools.

type sumArgs struct {
	Total int `json:"total"`
}

type addArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

func callOf(name, args string) *ModelResponse {
	return &ModelResponse{Message: Message{Role: RoleModel, ToolCalls: []ToolCall{{ID: name, Name: name, Args: json.RawMessage(args)}}}, Usage: Usage{PromptTokens: 10}}
}

func textOf(s string) *ModelResponse {
	return &ModelResponse{Message: Message{Role: RoleModel, Text: s}, Usage: Usage{PromptTokens: 10}}
}

func sumLoop(m Model) *loop[sumArgs] {
	add := NewTool("add", "Add two numbers.", func(_ context.Context, a addArgs) (map[string]int, error) {
		if a.A < 0 {
			panic("negative")
		}
		if a.B < 0 {
			return nil, errors.New("b must not be negative")
		}
		return map[string]int{"sum": a.A + a.B}, nil
	})
	return &loop[sumArgs]{
		model: m, system: "Add.", prompt: "1+2?",
		tools:  []Tool{add},
		finish: finish[sumArgs]("answer", "Give the total.", nil),
		budget: loopBudget{steps: 5, limits: []toolLimit{{budget: "adds", max: 2, tools: []string{"add"}}}},
		text:   loopText{nudge: "Call answer.", usedUp: "the %s budget is used up", force: "The %s budget is used up. Call answer."},
		trace:  newTracer(time.Now),
	}
}

// observations returns the contents of the tool results the model was sent.
func observations(reqs []*ModelRequest) []string {
	var out []string
	last := reqs[len(reqs)-1]
	for _, m := range last.Messages {
		for _, r := range m.ToolResults {
			out = append(out, string(r.Content))
		}
	}
	return out
}

func TestLoop(t *testing.T) {
	for _, tc := range []struct {
		name      string
		replies   []*ModelResponse // the last repeats
		want      *sumArgs
		wantStop  string
		wantCalls int
		wantObs   []string
	}{
		{"tool then finish", []*ModelResponse{callOf("add", `{"a":1,"b":2}`), callOf("answer", `{"total":3}`)},
			&sumArgs{3}, "", 2, []string{`{"sum":3}`}},
		{"error and panic are observations", []*ModelResponse{callOf("add", `{"a":1,"b":-2}`), callOf("add", `{"a":-1,"b":2}`), callOf("answer", `{"total":3}`)},
			&sumArgs{3}, "", 3, []string{`{"error":"b must not be negative"}`, `{"error":"tool add failed unexpectedly: negative"}`}},
		{"tool limit forces the finisher", []*ModelResponse{callOf("add", `{"a":1,"b":2}`)},
			&sumArgs{0}, "adds", 4, nil},
		{"answer as fenced text", []*ModelResponse{textOf("The total:\n```json\n{\"total\": 3}\n```")},
			&sumArgs{3}, "", 1, nil},
		{"turn limit, then the forced call talks", []*ModelResponse{textOf("hmm")},
			nil, BudgetSteps, 6, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reqs []*ModelRequest
			m := modelFunc(func(req *ModelRequest) (*ModelResponse, error) {
				cp := *req
				cp.Messages = append([]Message(nil), req.Messages...)
				reqs = append(reqs, &cp)
				if req.ToolMode == ToolRequired && tc.wantStop == "adds" {
					return callOf("answer", `{"total":0}`), nil
				}
				return tc.replies[min(len(reqs), len(tc.replies))-1], nil
			})
			o, err := sumLoop(m).run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, o.result); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if o.stop != tc.wantStop || len(reqs) != tc.wantCalls || o.usage.PromptTokens != 10*tc.wantCalls {
				t.Errorf("stopped by %q after %d calls (usage %+v); want %q after %d", o.stop, len(reqs), o.usage, tc.wantStop, tc.wantCalls)
			}
			if tc.wantObs != nil {
				if diff := cmp.Diff(tc.wantObs, observations(reqs)); diff != "" {
					t.Errorf("observations (-want +got):\n%s", diff)
				}
			}
			if tc.wantStop != "" {
				forced := reqs[len(reqs)-1]
				if forced.ToolMode != ToolRequired || len(forced.Tools) != 1 || forced.Tools[0].Name != "answer" ||
					!strings.Contains(forced.Messages[len(forced.Messages)-1].Text, "The "+tc.wantStop+" budget is used up") {
					t.Errorf("forced call = %+v, want only answer, required, with the instruction", forced)
				}
			}
		})
	}
}

func TestLoopModelError(t *testing.T) {
	boom := errors.New("boom")
	m := modelFunc(func(*ModelRequest) (*ModelResponse, error) { return nil, boom })
	if _, err := sumLoop(m).run(context.Background()); !errors.Is(err, boom) {
		t.Errorf("err = %v, want boom", err)
	}
}

// TestOutcomeWhy: a loop that ended without a result says why in words,
// never "<nil>" (the trace notes and errors quote it).
func TestOutcomeWhy(t *testing.T) {
	for _, tc := range []struct {
		o    outcome[struct{}]
		want string
	}{
		{outcome[struct{}]{lastErr: errors.New("bad arguments")}, "bad arguments"},
		{outcome[struct{}]{stop: "time"}, "the time budget ran out first"},
		{outcome[struct{}]{}, "the model gave no answer"},
	} {
		if got := tc.o.why(); got != tc.want {
			t.Errorf("why() = %q, want %q", got, tc.want)
		}
	}
}

// TestLoopFinishOnly: a loop with no tools requires every call to call the
// finishing tool, and makes no separate forced call when its steps run out.
func TestLoopFinishOnly(t *testing.T) {
	var reqs []ModelRequest
	m := modelFunc(func(req *ModelRequest) (*ModelResponse, error) {
		reqs = append(reqs, *req)
		return textOf("hmm"), nil
	})
	l := &loop[sumArgs]{
		model: m, system: "Add.", prompt: "1+2?",
		finish: finish[sumArgs]("answer", "Give the total.", nil),
		budget: loopBudget{steps: 2},
		text:   loopText{nudge: "Call answer."},
		trace:  newTracer(time.Now),
	}
	o, err := l.run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if o.result != nil || o.stop != BudgetSteps || len(reqs) != 2 {
		t.Fatalf("result %v, stopped by %q after %d calls; want none, %q after 2", o.result, o.stop, len(reqs), BudgetSteps)
	}
	for i, r := range reqs {
		if diff := cmp.Diff([]string{"answer"}, r.Allowed); r.ToolMode != ToolRequired || diff != "" {
			t.Errorf("call %d: mode %v, allowed (-want +got):\n%s", i, r.ToolMode, diff)
		}
	}
}

// TestLoopForcingHook: the forcing hook is told which budget ran out,
// once, before the forced final call.
func TestLoopForcingHook(t *testing.T) {
	calls := 0
	m := modelFunc(func(req *ModelRequest) (*ModelResponse, error) {
		calls++
		if req.ToolMode == ToolRequired {
			return callOf("answer", `{"total":3}`), nil
		}
		return callOf("add", `{"a":1,"b":2}`), nil
	})
	l := sumLoop(m)
	var told []string
	l.hooks.forcing = func(stop string) { told = append(told, fmt.Sprintf("%s before call %d", stop, calls+1)) }
	if _, err := l.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"adds before call 4"}, told); diff != "" {
		t.Errorf("forcing told (-want +got):\n%s", diff)
	}
}

// TestLoopReviewHook: what review returns sends a result back as the
// finishing tool's error; in the forced final call the result is accepted
// whatever review returns.
func TestLoopReviewHook(t *testing.T) {
	for _, tc := range []struct {
		name      string
		steps     int
		want      *sumArgs
		wantCalls int
		wantObs   []string
	}{
		{"sent back, then accepted", 5, &sumArgs{4}, 2, []string{`{"error":"rejected: 3 is odd; call answer again with valid values"}`, `{"status":"received"}`}},
		{"forced call accepted whatever review says", 1, &sumArgs{3}, 2, []string{`{"error":"rejected: 3 is odd; call answer again with valid values"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reqs []*ModelRequest
			m := modelFunc(func(req *ModelRequest) (*ModelResponse, error) {
				cp := *req
				cp.Messages = append([]Message(nil), req.Messages...)
				reqs = append(reqs, &cp)
				if len(reqs) == 1 || req.ToolMode == ToolRequired {
					return callOf("answer", `{"total":3}`), nil
				}
				return callOf("answer", `{"total":4}`), nil
			})
			l := sumLoop(m)
			l.budget.steps = tc.steps
			var forcedSeen []bool
			l.hooks.review = func(a *sumArgs, forced bool) error {
				forcedSeen = append(forcedSeen, forced)
				if a.Total%2 == 1 {
					return fmt.Errorf("%d is odd", a.Total)
				}
				return nil
			}
			o, err := l.run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, o.result); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if len(reqs) != tc.wantCalls || len(forcedSeen) != tc.wantCalls || forcedSeen[len(forcedSeen)-1] != (tc.steps == 1) {
				t.Errorf("%d calls, review asked with forced %v", len(reqs), forcedSeen)
			}
			if diff := cmp.Diff(tc.wantObs, observations(append(reqs, l.state.req))); diff != "" {
				t.Errorf("observations (-want +got):\n%s", diff)
			}
		})
	}
}
