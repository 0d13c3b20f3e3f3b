// Package searchtest writes generated knowledge-store files for the tests
// and benchmarks of search and cmd/factbot.
package searchtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Word is the generated vocabulary's word number i.
func Word(i uint64) string { return strconv.FormatUint(i*7919+1_000_000, 36) }

// WriteLargeClaim writes the knowledge-store file of claim id into dir:
// about mb megabytes of documents of about docKB kilobytes each, in
// sentences of words drawn from a vocabulary of 50,000 (Zipf), the same
// for the same arguments.
func WriteLargeClaim(tb testing.TB, dir, id string, mb, docKB int) {
	tb.Helper()
	f, err := os.Create(filepath.Join(dir, id+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	rng := rand.New(rand.NewPCG(1, uint64(len(id))))
	zipf := rand.NewZipf(rng, 1.1, 2, 49_999)
	enc := json.NewEncoder(w)
	for d, written := 0, 0; written < mb<<20; d++ {
		var lines []string
		size := 0
		for size < docKB<<10 {
			var b strings.Builder
			for range 4 {
				n := 8 + rng.IntN(14)
				for i := range n {
					if i > 0 {
						b.WriteByte(' ')
					}
					b.WriteString(Word(zipf.Uint64()))
				}
				b.WriteString(". ")
			}
			lines = append(lines, strings.TrimSpace(b.String()))
			size += b.Len()
		}
		rec := map[string]any{"claim_id": id, "type": "claim", "query": "q", "url": fmt.Sprintf("https://site%d.example/doc/%d", d%97, d), "url2text": lines}
		if err := enc.Encode(rec); err != nil {
			tb.Fatal(err)
		}
		written += size
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
}
