package store

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
)

// TestVectorsRecord: a vectors record decodes to what was encoded, and
// every cut of it is refused.
func TestVectorsRecord(t *testing.T) {
	emb := func(v ...float32) *factcheck.Verdict {
		return &factcheck.Verdict{Embedding: &factcheck.Embedding{Model: "m", Vector: v}}
	}
	c := &Check{ID: "x", User: "U1", Channel: "C1", Private: true, Visibility: VisibilityPublic, CreatedAt: time.Unix(1_800_000_000, 0).UTC(),
		Report: &factcheck.Report{Claims: []*factcheck.Verdict{emb(1, -0.5, 0), nil, emb(0, 0.25, -1)}}}
	r := checkVectors(c)
	if r.flags != entryPrivate|entryPublic {
		t.Errorf("flags = %b, want both", r.flags)
	}
	b := r.encode()
	got, err := decodeVectors(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, got, cmp.AllowUnexported(vectorRecord{}, claimVector{})); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	for n := range len(b) {
		if _, err := decodeVectors(b[:n]); err == nil {
			t.Errorf("the record cut to %d of %d bytes decoded", n, len(b))
		}
	}
}
