package factcheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// SchemaFor's schemas are plain: required fields without omitempty, a tag
// as the whole description (commas included), one JSON type for a slice or
// a pointer, no additionalProperties; enum sets a property's values.
func TestSchemaFor(t *testing.T) {
	type scores struct {
		A int `json:"a"`
	}
	type readArgs struct {
		URL    string   `json:"url" jsonschema:"From a search or the user, as it was given."`
		Tags   []string `json:"tags,omitempty"`
		Scores *scores  `json:"scores,omitempty"`
		Stance string   `json:"stance"`
	}
	s := SchemaFor[readArgs]()
	enum(s["properties"].(map[string]any), "stance", "supports", "refutes")
	want := map[string]any{
		"type":     "object",
		"required": []any{"url", "stance"},
		"properties": map[string]any{
			"url":    map[string]any{"type": "string", "description": "From a search or the user, as it was given."},
			"tags":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"scores": map[string]any{"type": "object", "required": []any{"a"}, "properties": map[string]any{"a": map[string]any{"type": "integer"}}},
			"stance": map[string]any{"type": "string", "enum": []any{"supports", "refutes"}},
		},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
}
