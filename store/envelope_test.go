package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEnvelope(t *testing.T) {
	b, err := encode(map[string]int{"a": 1})
	mustf(t, err, "encode")
	if want := `{"v":3,"data":{"a":1}}`; string(b) != want {
		t.Errorf("encode = %s, want %s", b, want)
	}
	var got map[string]int
	mustf(t, decode(b, &got), "decode")
	if diff := cmp.Diff(map[string]int{"a": 1}, got, cmpOpts); diff != "" {
		t.Errorf("decode (-want +got):\n%s", diff)
	}
	// Spacing another writer might use still decodes.
	mustf(t, decode([]byte(`{ "v": 2, "data": {"a": 1} }`), &got), "decode spaced")
	// Version 2 records have the same payload (version 3 added an index).
	mustf(t, decode([]byte(`{"v":2,"data":{"a":2}}`), &got), "decode version 2")
	if got["a"] != 2 {
		t.Errorf("decode of a version 2 envelope = %v", got)
	}
	for _, v := range []string{`{"v":1,"data":{}}`, `{"v":4,"data":{}}`} {
		if err := decode([]byte(v), &got); err == nil {
			t.Errorf("decode of %s: no error", v)
		}
	}
	if err := decode([]byte(`{"a":1}`), &got); err == nil {
		t.Error("decode of a bare record: no error")
	}
}
