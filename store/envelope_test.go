package store

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEnvelope(t *testing.T) {
	b, err := encode(map[string]int{"a": 1})
	mustf(t, err, "encode")
	if want := `{"v":4,"data":{"a":1}}`; string(b) != want {
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
	for _, v := range []string{`{"v":1,"data":{}}`, `{"v":5,"data":{}}`} {
		if err := decode([]byte(v), &got); err == nil {
			t.Errorf("decode of %s: no error", v)
		}
	}
	// A large record is compressed, and decodes as it was.
	big := map[string]string{"a": strings.Repeat("claim ", 400)}
	b, err = encode(big)
	mustf(t, err, "encode large")
	if !bytes.HasPrefix(b, zstdMagic) || len(b) > 400 {
		t.Errorf("a record of %d bytes was stored in %d, not compressed", 2400, len(b))
	}
	var gotBig map[string]string
	mustf(t, decode(b, &gotBig), "decode large")
	if diff := cmp.Diff(gotBig, big); diff != "" {
		t.Errorf("decode large (-got +want):\n%s", diff)
	}
	if err := decode([]byte(`{"a":1}`), &got); err == nil {
		t.Error("decode of a bare record: no error")
	}
}
