package store

import (
	"bytes"
	"runtime"
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

// A damaged compressed record whose header claims a huge record (this one,
// 49 bytes found by FuzzDecodeRecord, made it allocate 3 GB) is refused
// before the store allocates what it claims.
func TestDecodeRefusesWhatAHeaderClaims(t *testing.T) {
	b := []byte("(\xb5/\xfd\x84!M\"\x83\xc6 C\x94),\x8aP\x14t)c\xd9X\xb7\xa23\" $\xbe\x0e\xb2ذ\x9f8\x1d\x90J\x9crIJ\xf6\xa3e\x88\x8e\xd3")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var got map[string]any
	err := decode(b, &got)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("decode of a damaged compressed record: no error")
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > maxRecordBytes/4 {
		t.Errorf("decode allocated %d MB for a %d-byte record before refusing it: %v", n>>20, len(b), err)
	}
}
