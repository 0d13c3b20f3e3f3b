package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// at follows path (property names, "items" for an array's items) down a
// schema as a client decodes it and returns the keyword named last.
func at(schema any, path string) any {
	parts := strings.Split(path, ".")
	cur := schema
	for i, p := range parts {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		switch {
		case i == len(parts)-1:
			return m[p]
		case p == "items":
			cur = m["items"]
		default:
			props, _ := m["properties"].(map[string]any)
			cur = props[p]
		}
	}
	return cur
}

// The schemas clients read in tools/list state every bound the tools
// keep: the text's length, the limit's range, the enums and the dates'
// format.
func TestToolSchemas(t *testing.T) {
	cs := connect(t, &fakeChecks{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]any{}
	for _, tool := range res.Tools {
		in, out := roundTrip(t, tool.InputSchema), roundTrip(t, tool.OutputSchema)
		schemas[tool.Name+".in"], schemas[tool.Name+".out"] = in, out
	}
	verdicts := []any{"supported", "contradicted", "contested", "unverifiable"}
	want := map[string]any{
		"check.in:text.minLength":                            1.0,
		"check.in:text.maxLength":                            8000.0,
		"check.in:text.pattern":                              `\S`,
		"check.in:required":                                  []any{"text"},
		"history.in:limit.type":                              "integer",
		"history.in:limit.minimum":                           1.0,
		"history.in:limit.maximum":                           100.0,
		"history.in:limit.description":                       "at most this many checks, 1 to 100 (default 20)",
		"show.in:id.minLength":                               1.0,
		"show.in:id.pattern":                                 `\S`,
		"check.out:created_at.format":                        "date-time",
		"check.out:claims.items.verdict.enum":                verdicts,
		"check.out:claims.items.confidence.enum":             []any{"high", "medium", "low"},
		"check.out:claims.items.checked_at.format":           "date-time",
		"check.out:claims.items.evidence.items.stance.enum":  []any{"supports", "refutes", "context"},
		"show.out:claims.items.confidence.enum":              []any{"high", "medium", "low"},
		"history.out:checks.maxItems":                        100.0,
		"history.out:checks.items.created_at.format":         "date-time",
		"history.out:checks.items.claims.items.verdict.enum": verdicts,
		"check.in:additionalProperties":                      false,
		"history.in:additionalProperties":                    false,
		"show.in:additionalProperties":                       false,
		"show.out:claims.items.evidence.items.stance.enum":   []any{"supports", "refutes", "context"},
		"show.in:required":                                   []any{"id"},
		"show.out:created_at.format":                         "date-time",
		"show.out:claims.items.checked_at.format":            "date-time",
	}
	got := map[string]any{}
	for key := range want {
		tool, path, _ := strings.Cut(key, ":")
		got[key] = at(schemas[tool], path)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("published schemas (-want +got):\n%s", diff)
	}
}

// roundTrip is a schema as JSON decodes it.
func roundTrip(t *testing.T, schema any) any {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Every bound of the schemas is kept by the tool, with a message saying
// what to send: limit 0 is out of range like 101; a blank text or id, an
// unknown argument, a limit that is not a whole number are refused.
func TestToolBounds(t *testing.T) {
	cs := connect(t, &fakeChecks{})
	for _, tt := range []struct {
		tool string
		args any
		want string
	}{
		{"history", map[string]any{"limit": 0}, "limit 0: give 1 to 100"},
		{"history", map[string]any{"limit": -1}, "limit -1: give 1 to 100"},
		{"history", map[string]any{"limit": 101}, "limit 101: give 1 to 100"},
		{"history", map[string]any{"limit": 2.5}, `send {"limit": …, "search": …}`},
		{"history", map[string]any{"limit": "20"}, `send {"limit": …, "search": …}`},
		{"history", map[string]any{"max": 5}, `unknown field "max"`},
		{"check", map[string]any{"text": " \n\t"}, "there is nothing to check"},
		{"check", map[string]any{"claim": "x"}, `send {"fresh": …, "text": …}`},
		{"check", map[string]any{"text": "x", "fresh": "yes"}, `send {"fresh": …, "text": …}`},
		{"show", map[string]any{"id": "  "}, `give the check's "id"`},
	} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tt.tool, Arguments: tt.args})
		if err != nil {
			t.Fatalf("%s %v: %v", tt.tool, tt.args, err)
		}
		if !res.IsError || !strings.Contains(text(res), tt.want) {
			t.Errorf("%s %v: isError %v, %q; want an error saying %q", tt.tool, tt.args, res.IsError, text(res), tt.want)
		}
	}
}
