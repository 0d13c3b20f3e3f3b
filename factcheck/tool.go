package factcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Tool is a function the model may call. Its arguments are a JSON object
// described by Spec().Parameters.
type Tool interface {
	Spec() ToolSpec
	// Call runs the tool. The returned value is marshalled to JSON for the
	// model; an error becomes an observation, not a failure of the loop.
	Call(ctx context.Context, args json.RawMessage) (any, error)
}

// NewTool makes a Tool from a typed Go function. The JSON schema of its
// arguments is generated from A (SchemaFor): fields without `omitempty` are
// required, and `jsonschema:"…"` tags describe them.
func NewTool[A, R any](name, description string, fn func(context.Context, A) (R, error)) Tool {
	return &funcTool[A, R]{
		spec: ToolSpec{Name: name, Description: description, Parameters: SchemaFor[A]()},
		fn:   fn,
	}
}

type funcTool[A, R any] struct {
	spec ToolSpec
	fn   func(context.Context, A) (R, error)
}

func (t *funcTool[A, R]) Spec() ToolSpec { return t.spec }

func (t *funcTool[A, R]) Call(ctx context.Context, raw json.RawMessage) (any, error) {
	var a A
	if err := decodeArgs(raw, t.spec.Parameters, &a); err != nil {
		return nil, err
	}
	return t.fn(ctx, a)
}

// decodeArgs checks required fields and decodes raw into dst.
func decodeArgs(raw json.RawMessage, schema map[string]any, dst any) error {
	if len(strings.TrimSpace(string(raw))) == 0 {
		raw = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return fmt.Errorf("arguments are not a JSON object: %v", err)
	}
	if req, ok := schema["required"].([]any); ok {
		var missing []string
		for _, r := range req {
			name, _ := r.(string)
			if v, ok := obj[name]; !ok || string(v) == "null" {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("missing required argument(s): %s", strings.Join(missing, ", "))
		}
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("arguments do not match the schema: %v", err)
	}
	return nil
}

// SchemaFor returns the JSON schema of T's fields as a plain map, inlined
// (no $ref), in the subset that Gemini and OpenAI-compatible APIs accept.
// It is inferred by the MCP SDK's JSON-schema library (jsonschema-go):
// fields without omitempty are required, and a `jsonschema:"…"` tag is a
// field's description (enums are set by the tool that needs them). Each
// type is then one JSON type (a slice or a pointer is not also null), with
// no additionalProperties.
func SchemaFor[T any]() map[string]any {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("factcheck: schema of %T: %v", *new(T), err))
	}
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("factcheck: schema of %T: %v", *new(T), err))
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	plainSchema(m)
	delete(m, "$schema")
	delete(m, "$id")
	return m
}

// plainSchema makes every type of schema v one JSON type (without its
// "null") and drops additionalProperties, which not every model API takes.
func plainSchema(v any) {
	switch x := v.(type) {
	case map[string]any:
		if ts, ok := x["type"].([]any); ok {
			var rest []any
			for _, t := range ts {
				if t != "null" {
					rest = append(rest, t)
				}
			}
			x["type"] = rest
			if len(rest) == 1 {
				x["type"] = rest[0]
			}
		}
		delete(x, "additionalProperties")
		for _, y := range x {
			plainSchema(y)
		}
	case []any:
		for _, y := range x {
			plainSchema(y)
		}
	}
}

// enum sets the values property name of an object schema's properties
// may take.
func enum(props map[string]any, name string, values ...string) {
	vs := make([]any, len(values))
	for i, v := range values {
		vs[i] = v
	}
	props[name].(map[string]any)["enum"] = vs
}

// callTool runs one call and returns the observation for the model. It
// never panics and never fails: unknown tools, bad arguments, errors and
// panics are reported inside the observation as {"error": "..."}.
func callTool(ctx context.Context, tools map[string]Tool, call ToolCall) (content json.RawMessage, toolErr error) {
	t, ok := tools[call.Name]
	if !ok {
		toolErr = fmt.Errorf("unknown tool %q; the tools are: %s", call.Name, strings.Join(slices.Sorted(maps.Keys(tools)), ", "))
		return errorObservation(toolErr), toolErr
	}
	var out any
	func() {
		defer func() {
			if p := recover(); p != nil {
				toolErr = fmt.Errorf("tool %s failed unexpectedly: %v", call.Name, p)
			}
		}()
		out, toolErr = t.Call(ctx, call.Args)
	}()
	if toolErr != nil {
		return errorObservation(toolErr), toolErr
	}
	b, err := json.Marshal(out)
	if err != nil {
		toolErr = fmt.Errorf("tool %s returned a result that cannot be encoded: %v", call.Name, err)
		return errorObservation(toolErr), toolErr
	}
	if len(b) == 0 || b[0] != '{' {
		// Function responses must be JSON objects.
		b, _ = json.Marshal(map[string]json.RawMessage{"result": b})
	}
	return b, nil
}

func errorObservation(err error) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"error": err.Error()})
	return b
}
