package factcheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSchemaFor(t *testing.T) {
	type readArgs struct {
		URL string `json:"url" jsonschema:"description=From a search or the user."`
	}
	s := SchemaFor[readArgs]()
	want := map[string]any{
		"type":       "object",
		"required":   []any{"url"},
		"properties": map[string]any{"url": map[string]any{"type": "string", "description": "From a search or the user."}},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
}
