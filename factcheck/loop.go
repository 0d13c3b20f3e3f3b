package factcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// forcedCallGrace is the time allowed for the forced final call when the
// wall-time budget has run out.
const forcedCallGrace = 30 * time.Second

// finisher is the tool whose call ends a loop: its argument struct T is the
// loop's result. The JSON schema of T is generated like any tool's.
type finisher[T any] struct {
	spec ToolSpec
	// check validates decoded arguments, reporting every problem at once so
	// that the model can fix them in one go. When nil, the schema's
	// required fields are checked instead.
	check func(*T) error
}

// finish declares a finishing tool.
func finish[T any](name, description string, check func(*T) error) finisher[T] {
	return finisher[T]{spec: ToolSpec{Name: name, Description: description, Parameters: SchemaFor[T]()}, check: check}
}

// Spec declares the finishing tool to the model.
func (f finisher[T]) Spec() ToolSpec { return f.spec }

// Call decodes and checks the arguments; the loop reads them with decode.
func (f finisher[T]) Call(_ context.Context, raw json.RawMessage) (any, error) {
	if _, err := f.decode(raw); err != nil {
		return nil, err
	}
	return map[string]string{"status": "received"}, nil
}

// decode reads a call's arguments into a checked T.
func (f finisher[T]) decode(raw json.RawMessage) (*T, error) {
	var a T
	if f.check == nil {
		if err := decodeArgs(raw, f.spec.Parameters, &a); err != nil {
			return nil, err
		}
		return &a, nil
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("arguments do not match the schema: %v", err)
	}
	if err := f.check(&a); err != nil {
		return nil, err
	}
	return &a, nil
}

// toolLimit bounds the calls of some tools in one loop, e.g. the searches.
type toolLimit struct {
	budget string   // its name in Verdict.StoppedBy and in the observation
	max    int      // calls allowed
	tools  []string // the tools it counts
	used   int
}

// loopText is what a loop tells the model; %s is a budget's name.
type loopText struct {
	nudge  string // after an answer in plain text that is no usable result
	usedUp string // observation of a call over its tool's limit
	force  string // instruction of the forced final call
}

// loop drives a model with tools, under budgets, until it calls the
// finishing tool. Tool errors and panics become observations the model
// reads; a result written as text instead of a call is accepted once it
// passes the finisher's checks; when a budget runs out, one last call may
// only call the finishing tool. A loop with no tools has only the
// finishing tool to call: every call must call it (there is then no
// separate forced final call). The zero budgets mean no bound, except
// steps, which always bounds the loop.
type loop[T any] struct {
	model  Model
	system string // each call's system prompt, unless hooks.before sets another
	prompt string // the first user message
	images []File // pictures sent with the first user message
	tools  []Tool // offered in this order, before the finisher
	finish finisher[T]
	budget loopBudget
	// temperature is sent with every call, nil for the provider's default.
	temperature *float32
	text        loopText
	trace       *tracer
	hooks       hooks[T]
	state       loopState // what the run has built; all else above is its configuration
}

// loopState is a loop's own state; the tokens it used are in its outcome.
type loopState struct {
	req   *ModelRequest // the conversation so far
	step  int           // model calls made, the forced ones excluded
	began time.Time     // when the run began: budget.began, else the loop's start
}

// loopBudget bounds a loop: steps always, the prompt tokens and the wall
// time when positive, and some tools' calls (limits).
type loopBudget struct {
	steps        int // model calls, the forced final call excluded
	promptTokens int
	time         time.Duration
	limits       []toolLimit
	// began, if set, is when the run began, for the time budget (else the
	// loop's start); spent is what calls made before the loop (the plan)
	// used, counted against promptTokens.
	began time.Time
	spent Usage
}

// hooks are what a stage adds to the loop's run; the zero value adds
// nothing.
type hooks[T any] struct {
	// before, if set, may rewrite the request before each model call,
	// the forced final call included (the research's compact transcript
	// and its system prompt once a page was read).
	before func(req *ModelRequest)
	// forcing, if set, is told the budget that ran out, before the
	// forced final call.
	forcing func(stop string)
	// review, if set, is asked about a result that passed the finisher's
	// checks, before it is accepted: an error it returns goes back to the
	// model as the finishing tool's check error. The forced final call
	// (forced) leaves no turn to fix anything: its result is accepted
	// whatever review returns.
	review func(a *T, forced bool) error
}

// outcome is the end of a loop.
type outcome[T any] struct {
	result *T
	stop   string // the budget that ended the loop, "" when the model finished
	usage  Usage
	// lastErr says why the last finishing attempt failed, if one did.
	lastErr error
}

// why says why the loop ended without a result, for the trace and errors:
// the last finishing attempt's error, else the budget that ended it, never
// "<nil>".
func (o *outcome[T]) why() string {
	switch {
	case o.lastErr != nil:
		return o.lastErr.Error()
	case o.stop != "":
		return "the " + o.stop + " budget ran out first"
	}
	return "the model gave no answer"
}

// run drives the loop. It fails only when the model cannot be reached; a
// loop that ends without a result returns an outcome whose result is nil.
func (l *loop[T]) run(ctx context.Context) (*outcome[T], error) {
	o := &outcome[T]{usage: l.budget.spent}
	l.state.began = l.budget.began
	if l.state.began.IsZero() {
		l.state.began = l.trace.now()
	}
	l.state.req = l.request()
	if err := l.drive(ctx, o); err != nil {
		return nil, err
	}
	return o, nil
}

// resume sends the model back to work after a result, with a note (the
// critic's), under what is left of the same budgets. The outcome's result
// is replaced by the new one, or kept when the loop ends without one.
func (l *loop[T]) resume(ctx context.Context, o *outcome[T], note string) error {
	prev := o.result
	o.result, o.lastErr = nil, nil
	if last := &l.state.req.Messages[len(l.state.req.Messages)-1]; last.Role == RoleUser && last.Text == "" {
		last.Text = note
	} else {
		l.state.req.Messages = append(l.state.req.Messages, Message{Role: RoleUser, Text: note})
	}
	if err := l.drive(ctx, o); err != nil {
		return err
	}
	if o.result == nil {
		o.result = prev
	}
	return nil
}

// drive runs steps until a result or a budget, then the forced call.
func (l *loop[T]) drive(ctx context.Context, o *outcome[T]) error {
	ctxRun := ctx
	if l.budget.time > 0 {
		var cancel context.CancelFunc
		// What is left of the wall time, on the run's clock.
		ctxRun, cancel = context.WithTimeout(ctx, l.budget.time-l.trace.now().Sub(l.state.began))
		defer cancel()
	}
	req := l.state.req
	for ; o.result == nil; l.state.step++ {
		if o.stop = l.exhausted(l.state.step, o.usage); o.stop != "" {
			break
		}
		resp, err := l.generate(ctxRun, req, o)
		if err != nil {
			if ctxRun.Err() != nil && ctx.Err() == nil {
				o.stop = BudgetTime
				break
			}
			return err
		}
		req.Messages = append(req.Messages, resp.Message)
		l.turn(ctxRun, req, o)
		if o.stop != "" && o.result == nil {
			break
		}
	}
	if o.result == nil && !l.finishOnly() {
		l.force(ctx, req, o)
	}
	return nil
}

func (l *loop[T]) request() *ModelRequest {
	specs := make([]ToolSpec, 0, len(l.tools)+1)
	for _, t := range l.tools {
		specs = append(specs, t.Spec())
	}
	specs = append(specs, l.finish.spec)
	req := &ModelRequest{
		System:      l.system,
		Messages:    []Message{{Role: RoleUser, Text: l.prompt, Images: l.images}},
		Tools:       specs,
		Temperature: l.temperature,
	}
	if l.finishOnly() {
		req.ToolMode, req.Allowed = ToolRequired, []string{l.finish.spec.Name}
	}
	return req
}

// finishOnly says the loop offers no tool but the finishing one, which
// every call must then call.
func (l *loop[T]) finishOnly() bool { return len(l.tools) == 0 }

// exhausted returns the name of the budget that prevents another step.
func (l *loop[T]) exhausted(step int, u Usage) string {
	switch {
	case step >= l.budget.steps:
		return BudgetSteps
	case l.budget.promptTokens > 0 && u.PromptTokens >= l.budget.promptTokens:
		return BudgetPromptTokens
	case l.budget.time > 0 && l.trace.now().Sub(l.state.began) >= l.budget.time:
		return BudgetTime
	}
	return ""
}

func (l *loop[T]) generate(ctx context.Context, req *ModelRequest, o *outcome[T]) (*ModelResponse, error) {
	req.System = l.system
	if l.hooks.before != nil {
		l.hooks.before(req)
	}
	sctx, span := startModelSpan(ctx, l.model.Name())
	resp, err := l.model.Generate(sctx, req)
	endModelSpan(span, resp, err)
	if err != nil {
		l.trace.add(TraceEvent{Kind: "model", Error: err.Error()})
		return nil, &ModelError{Model: l.model.Name(), Err: err}
	}
	u := resp.Usage
	o.usage = o.usage.Add(u)
	l.trace.add(TraceEvent{Kind: "model", Usage: &u, FinishReason: resp.FinishReason})
	return resp, nil
}

// turn answers the model's last message, the request's last: it runs the
// calls, or reads calls or a result written as text, or asks again.
func (l *loop[T]) turn(ctx context.Context, req *ModelRequest, o *outcome[T]) {
	msg := &req.Messages[len(req.Messages)-1]
	if len(msg.ToolCalls) == 0 {
		if calls, rest, ok := callsFromText(msg.Text, req.Tools); ok {
			l.trace.note("tool calls written as text; read as calls")
			msg.ToolCalls, msg.Text = calls, rest
		} else if a, ok := l.resultFromText(msg.Text); ok {
			if err := l.review(a, false); err != nil {
				o.lastErr = err
				req.Messages = append(req.Messages, Message{Role: RoleUser, Text: fmt.Sprintf("Your answer was not accepted: %v. Call %s again with these fixed.", err, l.finish.spec.Name)})
				return
			}
			o.result = a
			return
		} else {
			o.lastErr = fmt.Errorf("the model answered without calling %s", l.finish.spec.Name)
			req.Messages = append(req.Messages, Message{Role: RoleUser, Text: l.text.nudge})
			return
		}
	}
	results := l.call(ctx, msg.ToolCalls, o)
	req.Messages = append(req.Messages, Message{Role: RoleUser, ToolResults: results})
}

// resultFromText reads the finishing tool's arguments from a text answer.
func (l *loop[T]) resultFromText(text string) (*T, bool) {
	for _, c := range jsonCandidates(text) {
		if a, err := l.finish.decode(json.RawMessage(c)); err == nil {
			l.trace.note(fmt.Sprintf("answer given as text, not through %s; accepted after validation", l.finish.spec.Name))
			return a, true
		}
	}
	return nil, false
}

// call runs one turn's calls, the tools concurrently, and returns their
// observations in order. A valid call to the finishing tool sets the result.
func (l *loop[T]) call(ctx context.Context, calls []ToolCall, o *outcome[T]) []ToolResult {
	tools := map[string]Tool{l.finish.spec.Name: l.finish}
	for _, t := range l.tools {
		tools[t.Spec().Name] = t
	}
	results := make([]ToolResult, len(calls))
	var wg sync.WaitGroup
	for i, call := range calls {
		results[i] = ToolResult{ID: call.ID, Name: call.Name}
		args := truncate(string(call.Args), 500)
		if call.Name == l.finish.spec.Name {
			results[i].Content = l.finishCall(call, o, false)
			continue
		}
		if budget := l.budget.spend(call.Name); budget != "" {
			o.stop = budget
			results[i].Content = errorObservation(fmt.Errorf(l.text.usedUp, budget))
			l.trace.add(TraceEvent{Kind: "tool", Tool: call.Name, Args: args, Error: "budget used up: " + budget})
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sctx, span := startToolSpan(ctx, call.Name)
			content, err := callTool(sctx, tools, call)
			endToolSpan(span, len(content), err)
			ev := TraceEvent{Kind: "tool", Tool: call.Name, Args: args, ResultBytes: len(content)}
			if err != nil {
				ev.Error = err.Error()
			}
			l.trace.add(ev)
			results[i].Content = content
		}()
	}
	wg.Wait()
	return results
}

// finishCall decodes a call to the finishing tool; the first valid one is
// the result.
func (l *loop[T]) finishCall(call ToolCall, o *outcome[T], forced bool) json.RawMessage {
	ev := TraceEvent{Kind: "tool", Tool: call.Name, Args: truncate(string(call.Args), 500)}
	defer func() { l.trace.add(ev) }()
	a, err := l.finish.decode(call.Args)
	if err == nil && o.result == nil {
		err = l.review(a, forced)
	}
	if err != nil {
		ev.Error = err.Error()
		o.lastErr = err
		return errorObservation(fmt.Errorf("rejected: %v; call %s again with valid values", err, call.Name))
	}
	if o.result == nil {
		o.result = a
	}
	return json.RawMessage(`{"status":"received"}`)
}

// review asks the review hook about a result; in the forced final call
// nothing it returns stops the result.
func (l *loop[T]) review(a *T, forced bool) error {
	if l.hooks.review == nil {
		return nil
	}
	if err := l.hooks.review(a, forced); err != nil && !forced {
		return err
	}
	return nil
}

// spend counts a call against its tool's limits; it returns the name of
// the budget used up, if one is.
func (b *loopBudget) spend(tool string) string {
	for i := range b.limits {
		lim := &b.limits[i]
		for _, name := range lim.tools {
			if name != tool {
				continue
			}
			if lim.used >= lim.max {
				return lim.budget
			}
			lim.used++
		}
	}
	return ""
}

// force makes the one last call, which may only call the finishing tool.
func (l *loop[T]) force(ctx context.Context, req *ModelRequest, o *outcome[T]) {
	name := l.finish.spec.Name
	l.trace.note(fmt.Sprintf("budget reached: %s; asking for a final call to %s", o.stop, name))
	if l.hooks.forcing != nil {
		l.hooks.forcing(o.stop)
	}
	ctx, cancel := context.WithTimeout(ctx, forcedCallGrace)
	defer cancel()
	instr := fmt.Sprintf(l.text.force, o.stop)
	if last := &req.Messages[len(req.Messages)-1]; last.Role == RoleUser && last.Text == "" {
		last.Text = instr // one user turn: the tool results, then the instruction
	} else {
		req.Messages = append(req.Messages, Message{Role: RoleUser, Text: instr})
	}
	req.ToolMode, req.Allowed, req.Tools = ToolRequired, []string{name}, []ToolSpec{l.finish.spec}
	resp, err := l.generate(ctx, req, o)
	if err != nil {
		l.trace.note("forced final call failed: " + err.Error())
		return
	}
	calls := resp.Message.ToolCalls
	if len(calls) == 0 {
		calls, _, _ = callsFromText(resp.Message.Text, req.Tools)
	}
	for _, call := range calls {
		if call.Name == name {
			l.finishCall(call, o, true)
		}
	}
	if o.result == nil {
		if a, ok := l.resultFromText(resp.Message.Text); ok {
			_ = l.review(a, true)
			o.result = a
		}
	}
	if o.result == nil {
		l.trace.note("forced final call gave no valid " + name + " call")
	}
}

// tracer records a run's trace; tools add notes to it concurrently.
type tracer struct {
	clock  func() time.Time
	mu     sync.Mutex
	events []TraceEvent
}

func newTracer(clock func() time.Time) *tracer { return &tracer{clock: clock} }

func (t *tracer) now() time.Time { return t.clock() }

func (t *tracer) add(ev TraceEvent) {
	ev.At = t.now()
	t.mu.Lock()
	t.events = append(t.events, ev)
	t.mu.Unlock()
}

func (t *tracer) note(s string) { t.add(TraceEvent{Kind: "note", Note: s}) }

// list returns the events recorded so far.
func (t *tracer) list() []TraceEvent {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.events
}

// truncate cuts s to at most n bytes at a rune boundary, adding "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 { // inside a UTF-8 sequence
		n--
	}
	return s[:n] + "…"
}
