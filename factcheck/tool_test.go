package factcheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSchemaFor(t *testing.T) {
	s := SchemaFor[webSearchArgs]()
	want := map[string]any{
		"type":       "object",
		"required":   []any{"query"},
		"properties": map[string]any{"query": map[string]any{"type": "string", "description": "A short specific query."}},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
}
