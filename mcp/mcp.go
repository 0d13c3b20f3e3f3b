// Package mcp serves factbot's checks to AI agents over the Model Context
// Protocol (https://modelcontextprotocol.io), with the official Go SDK: the
// tools check, history and show, over stdio or Streamable HTTP.
//
// It only translates, as the chat adapters do: a tool call becomes a call
// of Checks, which cmd/factbot implements with the same code as factbot
// check (the engine, its caches, the store and its audit trail, in a tenant
// of its own), and a check's progress events become MCP progress
// notifications. Nothing here decides a verdict or keeps a record.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
)

// Checks is what the tools do. Its errors that carry a message for the
// caller (usererr) are told as they are; any other is logged, and the tool
// says only that it failed.
type Checks interface {
	// Check runs a check of req.Text and saves it to history, as factbot
	// check does; bad input is a usererr error.
	Check(ctx context.Context, req CheckRequest) (*store.Check, error)
	// History returns the recent checks q selects, newest first.
	History(ctx context.Context, q store.HistoryQuery) ([]store.CheckSummary, error)
	// Get returns one check; store.ErrNotFound when there is none.
	Get(ctx context.Context, id string) (*store.Check, error)
}

// CheckRequest is one call of the check tool.
type CheckRequest struct {
	Text string
	// Fresh checks again: no cached verdict, no answer from an earlier
	// check of the same claim (factbot check --fresh).
	Fresh bool
	// Client is the MCP client's name, as it introduced itself: who asked,
	// in history.
	Client string
	// Progress, when the caller asked for progress, is told the check's
	// events.
	Progress func(factcheck.Event)
}

// DefaultMaxChecks bounds the checks that run at once, every session
// together; more wait for one to finish.
const DefaultMaxChecks = 4

// Options configures NewServer.
type Options struct {
	Checks Checks
	// Version is factbot's, told to clients.
	Version string
	// MaxChecks bounds the checks running at once (default
	// DefaultMaxChecks).
	MaxChecks int
	Logger    *slog.Logger
}

// tools is what the tool handlers share.
type tools struct {
	checks Checks
	slots  chan struct{} // one per check running
	log    *slog.Logger
}

// NewServer returns the MCP server with factbot's tools. One server serves
// any number of sessions, each transport's.
func NewServer(o Options) *sdk.Server {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.MaxChecks <= 0 {
		o.MaxChecks = DefaultMaxChecks
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	t := &tools{checks: o.Checks, slots: make(chan struct{}, o.MaxChecks), log: o.Logger}
	s := sdk.NewServer(&sdk.Implementation{Name: "factbot", Title: "factbot fact-checker", Version: o.Version},
		&sdk.ServerOptions{Logger: o.Logger, Instructions: instructions})
	readOnly := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	addTool(s, &sdk.Tool{Name: "check", Title: "Fact-check a claim", Description: checkDescription,
		InputSchema: checkInputSchema(), OutputSchema: reportSchema(), Annotations: &sdk.ToolAnnotations{OpenWorldHint: ptr(true)}}, t.check)
	addTool(s, &sdk.Tool{Name: "history", Title: "Recent fact-checks", Description: historyDescription,
		InputSchema: historyInputSchema(), OutputSchema: historySchema(), Annotations: readOnly}, t.history)
	addTool(s, &sdk.Tool{Name: "show", Title: "Show a fact-check", Description: showDescription,
		InputSchema: showInputSchema(), OutputSchema: reportSchema(), Annotations: readOnly}, t.show)
	return s
}

func ptr[T any](v T) *T { return &v }

const instructions = "factbot checks claims against the web: each claim gets a verdict (supported, contradicted, contested or unverifiable) with the sources and quotes it rests on. Call check with the text; history and show read earlier checks."

const checkDescription = `Fact-check a claim or a paragraph. factbot finds the checkable claims in the text, searches the web and reads sources for each, and returns one verdict per claim: supported, contradicted, contested (sources disagree, or true but misleading) or unverifiable, with its confidence, its reasoning and the evidence (url, title, stance: supports, refutes or context, and the quote, with quote_found true when the quote is the source's own words, and quote_place saying where it was found: page, pdf with quote_page, snippet (only in the search result's preview), title, summary, not_found; quote_note says it in words). A check takes up to a minute or two; send a progress token to follow it. The check is saved: its id opens it again with show.`

const historyDescription = "List recent fact-checks made through this server, newest first: id, when, the text, and each claim's verdict. search keeps checks whose claims or text contain all its words."

const showDescription = "Show one earlier fact-check in full, by the id check or history gave."

// CheckInput is the check tool's arguments.
type CheckInput struct {
	Text  string `json:"text" jsonschema:"the claim or paragraph to check, in any language"`
	Fresh bool   `json:"fresh,omitempty" jsonschema:"true to check again: no cached verdict and no answer from an earlier check of the same claim"`
}

// HistoryInput is the history tool's arguments.
type HistoryInput struct {
	Limit  *int   `json:"limit,omitempty"`
	Search string `json:"search,omitempty" jsonschema:"only checks whose claims or text contain all these words"`
}

// ShowInput is the show tool's arguments.
type ShowInput struct {
	ID string `json:"id" jsonschema:"the check's id, from check or history"`
}

// maxHistory bounds the history tool's limit.
const maxHistory = 100

func (t *tools) check(ctx context.Context, req *sdk.CallToolRequest, in CheckInput) (*sdk.CallToolResult, *Report, error) {
	if strings.TrimSpace(in.Text) == "" {
		return nil, nil, errors.New(`there is nothing to check: give the claim as "text", e.g. {"text": "The Great Wall of China is visible from space"}`)
	}
	select {
	case t.slots <- struct{}{}:
		defer func() { <-t.slots }()
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	cr := CheckRequest{Text: in.Text, Fresh: in.Fresh, Progress: progress(ctx, req)}
	if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
		cr.Client = p.ClientInfo.Name
	}
	c, err := t.checks.Check(ctx, cr)
	if err != nil {
		return nil, nil, t.toolError("check", err)
	}
	rep := reportOf(c)
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: rep.Render()}}}, rep, nil
}

func (t *tools) history(ctx context.Context, _ *sdk.CallToolRequest, in HistoryInput) (*sdk.CallToolResult, *History, error) {
	limit := store.DefaultLimit
	if in.Limit != nil {
		limit = *in.Limit
	}
	if limit < 1 || limit > maxHistory { // the schema says so; 0 is no exception
		return nil, nil, fmt.Errorf("limit %d: give 1 to %d", limit, maxHistory)
	}
	sums, err := t.checks.History(ctx, store.HistoryQuery{Limit: limit, Search: in.Search})
	if err != nil {
		return nil, nil, t.toolError("history", err)
	}
	h := historyOf(sums)
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: h.Render()}}}, h, nil
}

func (t *tools) show(ctx context.Context, _ *sdk.CallToolRequest, in ShowInput) (*sdk.CallToolResult, *Report, error) {
	id := strings.TrimSpace(in.ID)
	if id == "" {
		return nil, nil, errors.New(`give the check's "id", from check or history`)
	}
	c, err := t.checks.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, fmt.Errorf("no check %q: history lists the checks made here", id)
	}
	if err != nil {
		return nil, nil, t.toolError("show", err)
	}
	rep := reportOf(c)
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: rep.Render()}}}, rep, nil
}

// toolError is the error a tool reports (the SDK makes it a result with
// isError): a message for the caller as it is, a cancellation as such,
// anything else logged and told as a failure without its details.
func (t *tools) toolError(tool string, err error) error {
	if msg, ok := usererr.Message(err); ok {
		return errors.New(msg)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	t.log.Error("mcp: tool failed", "tool", tool, "err", err)
	return fmt.Errorf("the %s failed on factbot's side; its log says why", tool)
}

// progress returns the check's progress callback when the caller sent a
// progress token: each event a notification, counted from 1.
func progress(ctx context.Context, req *sdk.CallToolRequest) func(factcheck.Event) {
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return nil
	}
	n := 0
	return func(e factcheck.Event) {
		msg := eventText(e)
		if msg == "" {
			return
		}
		n++
		// The engine calls this from one goroutine at a time; a
		// notification that cannot be sent is dropped.
		_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: float64(n), Message: msg})
	}
}

// eventText says a progress event in one line: claims found, searching,
// reading, a verdict, a note.
func eventText(e factcheck.Event) string {
	tag := ""
	if e.Claim >= 0 {
		tag = fmt.Sprintf("claim %d: ", e.Claim+1)
	}
	switch e.Kind {
	case factcheck.EventClaims:
		return fmt.Sprintf("found %d claim(s) to check", len(e.Claims))
	case factcheck.EventSearch:
		return tag + "searching: " + e.Text
	case factcheck.EventRead:
		return tag + "reading: " + e.Text
	case factcheck.EventVerdict:
		if e.Verdict == nil {
			return ""
		}
		return fmt.Sprintf("%sverdict: %s, %s confidence", tag, e.Verdict.Verdict, e.Verdict.Confidence)
	case factcheck.EventNote:
		return tag + e.Text
	}
	return ""
}
