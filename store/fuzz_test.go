package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
)

// recordTypes returns a new value of every record type the store encodes
// in an envelope.
func recordTypes() map[string]any {
	return map[string]any{
		"check":      new(Check),
		"summary":    new(CheckSummary),
		"request":    new(Request),
		"verdict":    new(CachedVerdict),
		"extraction": new(CachedExtraction),
		"web":        new(webEntry),
		"feedback":   new(Feedback),
	}
}

// FuzzDecodeRecord: decoding arbitrary bytes as any record never panics,
// and a record that decodes re-encodes to a fixed point: encode(decode(x))
// decodes again and encodes to the same bytes. The seed corpus under
// testdata/fuzz/FuzzDecodeRecord holds real encoded records (see
// TestFuzzSeeds).
func FuzzDecodeRecord(f *testing.F) {
	f.Add([]byte(`{"v":3,"data":{}}`))
	f.Add([]byte(`{ "v": 2, "data": {"id": "x"} }`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for name, v := range recordTypes() {
			if decode(data, v) != nil {
				continue
			}
			enc, err := encode(v)
			if err != nil {
				t.Fatalf("%s: encode of a decoded record: %v", name, err)
			}
			again := recordTypes()[name]
			if err := decode(enc, again); err != nil {
				t.Fatalf("%s: decode of %s: %v", name, enc, err)
			}
			enc2, err := encode(again)
			if err != nil {
				t.Fatalf("%s: encode again: %v", name, err)
			}
			if !bytes.Equal(enc, enc2) {
				t.Fatalf("%s: encode(decode(x)) is not a fixed point:\n%s\n%s", name, enc, enc2)
			}
		}
	})
}

// seedRecords are real records of every type, as the store writes them.
func seedRecords(t *testing.T) map[string][]byte {
	t.Helper()
	c := check("T1", "C1", "U1", "The Eiffel Tower is 330 m tall; the moon is cheese", t0, map[string]factcheck.Label{
		"The Eiffel Tower is 330 m tall": factcheck.Supported, "The moon is made of cheese": factcheck.Contradicted,
	})
	c.ID, c.RequestKey, c.Visibility, c.Private = "20261129T120000Z-3f9a", "slack:event:Ev1", VisibilityPrivate, true
	c.CacheRefs = []CacheRef{{Kind: RefExtraction, Key: "the eiffel tower is 330 m tall"}, {Kind: RefWeb, Key: "search\x005\x00eiffel tower height"}, {Kind: RefSnapshot, Key: "9f86d0"}}
	c.Feedback = []Feedback{{User: "U2", Claim: 1, Note: "wrong verdict", At: t0}}
	page := search.Page{URL: "https://example.org/a", FinalURL: "https://example.org/a", Title: "A", Text: "What A says.", FetchedAt: t0, SHA256: "9f86d0", Bytes: 12}
	pv, _ := json.Marshal(page)
	recs := map[string]any{
		"check":      c,
		"summary":    summarize(c),
		"request":    &Request{Key: "slack:event:Ev1", Tenant: "T1", Platform: "slack", Kind: "mention", Channel: "C1", Thread: "1.1", User: "U1", Text: "is it so?", Visibility: VisibilityDM, Meta: map[string]string{"response_url": "https://x"}, State: RequestPending, CreatedAt: t0, UpdatedAt: t0},
		"refused":    &Request{Key: "discord:interaction:9", Tenant: "G1", Platform: "discord", Kind: "command", State: RequestFailed, Refused: true, CreatedAt: t0, UpdatedAt: t0},
		"verdict":    &CachedVerdict{At: t0, Verdict: c.Report.Claims[0]},
		"extraction": &CachedExtraction{At: t0, Extraction: &factcheck.Extraction{Claims: []factcheck.ExtractedClaim{{Claim: "The moon is made of cheese", Start: 3, End: 20, Span: "moon is cheese"}}}},
		"web":        &webEntry{At: t0, Val: pv},
		"feedback":   &c.Feedback[0],
	}
	out := map[string][]byte{}
	for name, v := range recs {
		b, err := encode(v)
		mustf(t, err, "encode %s", name)
		out[name] = b
	}
	return out
}

// TestFuzzSeeds: the seed corpus holds the records the store writes today
// (run with -update to rewrite it), and each decodes.
func TestFuzzSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzDecodeRecord")
	for name, b := range seedRecords(t) {
		path := filepath.Join(dir, name)
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
		if *update {
			mustf(t, os.MkdirAll(dir, 0o755), "mkdir")
			mustf(t, os.WriteFile(path, []byte(want), 0o644), "write %s", path)
		}
		got, err := os.ReadFile(path)
		mustf(t, err, "read seed (run with -update to write it)")
		if string(got) != want {
			t.Errorf("seed %s is stale; run go test ./store -run TestFuzzSeeds -update", path)
		}
		kind := strings.TrimSuffix(name, "refused")
		if kind == "" {
			kind = "request"
		}
		v := recordTypes()[kind]
		if err := decode(b, v); err != nil {
			t.Errorf("seed %s does not decode: %v", name, err)
			continue
		}
		if enc, err := encode(v); err != nil || !bytes.Equal(enc, b) {
			t.Errorf("seed %s: encode(decode(x)) = %s, %v; want x = %s", name, enc, err, b)
		}
	}
}
