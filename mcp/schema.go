package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// The tools' schemas state every bound the code keeps, for clients to read
// in tools/list; the tools keep the bounds themselves, each with a message
// saying what to send (addTool), rather than the SDK's schema validation,
// whose messages quote the whole argument back (a text of 10,000
// characters) and read "maximum: 5000/1 is greater than 100.000000".

// addTool adds the tool t to s, served by h: the arguments decoded into
// In (a call with arguments In does not have is refused, naming the
// fields In has), h's error a result with isError, its Out the
// structuredContent.
func addTool[In, Out any](s *sdk.Server, t *sdk.Tool, h func(context.Context, *sdk.CallToolRequest, In) (*sdk.CallToolResult, Out, error)) {
	s.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var in In
		if args := req.Params.Arguments; len(args) > 0 && string(args) != "null" {
			dec := json.NewDecoder(bytes.NewReader(args))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&in); err != nil {
				return errorResult(fmt.Errorf("the arguments do not fit the tool's input schema (%v): send %s", err, argsOf(t.InputSchema))), nil
			}
		}
		res, out, err := h(ctx, req, in)
		if err != nil {
			return errorResult(err), nil
		}
		res.StructuredContent = out
		return res, nil
	})
}

// errorResult is a tool result with isError, saying err.
func errorResult(err error) *sdk.CallToolResult {
	res := &sdk.CallToolResult{}
	res.SetError(err)
	return res
}

// argsOf names a tool's arguments for a message: {"text": …}.
func argsOf(schema any) string {
	s, _ := schema.(*jsonschema.Schema)
	if s == nil {
		return "the arguments tools/list gives"
	}
	var names []string
	for name := range s.Properties {
		names = append(names, fmt.Sprintf("%q: …", name))
	}
	slices.Sort(names)
	return "{" + strings.Join(names, ", ") + "}"
}

// notBlank is a pattern that a text with something else than white space
// matches.
const notBlank = `\S`

// checkInputSchema is the check tool's arguments: a text of at most the
// engine's bound (factcheck.DefaultMaxInput, in bytes: maxLength counts
// characters, so a text in a script of several bytes a character reaches
// the bound sooner), not blank.
func checkInputSchema() *jsonschema.Schema {
	s := mustSchema[CheckInput]()
	text := s.Properties["text"]
	text.MinLength, text.MaxLength, text.Pattern = ptr(1), ptr(factcheck.DefaultMaxInput), notBlank
	text.Description += fmt.Sprintf(", at most %d bytes of UTF-8", factcheck.DefaultMaxInput)
	return s
}

// historyInputSchema is the history tool's arguments: an integer limit of
// 1 to maxHistory (0 included among those out of range), store.DefaultLimit
// when left out (said in its description: the schema library of the SDK
// panics applying a default to a call without arguments).
func historyInputSchema() *jsonschema.Schema {
	s := mustSchema[HistoryInput]()
	limit := s.Properties["limit"]
	limit.Type, limit.Types = "integer", nil // not null: left out, or a number
	limit.Minimum, limit.Maximum = ptr(1.0), ptr(float64(maxHistory))
	limit.Description = fmt.Sprintf("at most this many checks, 1 to %d (default %d)", maxHistory, store.DefaultLimit)
	return s
}

// showInputSchema is the show tool's arguments: an id, not blank.
func showInputSchema() *jsonschema.Schema {
	s := mustSchema[ShowInput]()
	id := s.Properties["id"]
	id.MinLength, id.Pattern = ptr(1), notBlank
	return s
}

// enum is vs as a schema enum.
func enum[T ~string](vs []T) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// dateTime marks the properties named of s as RFC 3339 dates and times.
func dateTime(s *jsonschema.Schema, names ...string) {
	for _, n := range names {
		s.Properties[n].Format = "date-time"
	}
}

// reportSchema is Report's schema: the verdicts, confidences and stances
// enumerated, the dates formatted.
func reportSchema() *jsonschema.Schema {
	s := mustSchema[Report]()
	dateTime(s, "created_at")
	claim := s.Properties["claims"].Items
	claim.Properties["verdict"].Enum = enum(factcheck.Labels)
	claim.Properties["confidence"].Enum = enum([]factcheck.Confidence{factcheck.High, factcheck.Medium, factcheck.Low})
	dateTime(claim, "checked_at")
	claim.Properties["evidence"].Items.Properties["stance"].Enum = enum(factcheck.Stances)
	claim.Properties["evidence"].Items.Properties["quote_place"].Enum = enum([]factcheck.QuotePlace{factcheck.QuoteOnPage,
		factcheck.QuoteInPDF, factcheck.QuoteInSnippet, factcheck.QuoteInTitle, factcheck.QuoteInSummary, factcheck.QuoteNotFound,
		factcheck.QuoteUnknown}) // the one vocabulary of where a quote was found (factcheck.Evidence.Where)
	return s
}

// historySchema is History's schema: at most maxHistory checks, the
// verdicts enumerated, the dates formatted.
func historySchema() *jsonschema.Schema {
	s := mustSchema[History]()
	s.Properties["checks"].MaxItems = ptr(maxHistory)
	check := s.Properties["checks"].Items
	dateTime(check, "created_at")
	check.Properties["claims"].Items.Properties["verdict"].Enum = enum(factcheck.Labels)
	return s
}

// mustSchema infers T's schema; the types of this package always have one.
func mustSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: schema of %T: %v", *new(T), err))
	}
	return s
}
