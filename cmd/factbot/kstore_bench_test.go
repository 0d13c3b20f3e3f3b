package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
)

// BenchmarkEvalKnowledgeStorePeak runs the built binary's factbot eval on
// the two AVeriTeC claims of eval/testdata with a knowledge store of two
// claims of 60 MB each (documents of 512 KB, words drawn from a
// vocabulary of 50,000), as the issue measured, both claims at once
// (--concurrency 2), against a fake Gemini that searches the store once
// and answers: it reports the process's largest resident set, and that of
// the same run on the two claims' small fixture store. FACTBOT_EVAL_BIN
// runs another build instead (an earlier version, to compare).
func BenchmarkEvalKnowledgeStorePeak(b *testing.B) {
	bin := os.Getenv("FACTBOT_EVAL_BIN")
	if bin == "" {
		bin = buildFactbot(b)
	}
	big := b.TempDir()
	for _, id := range []string{"0", "1"} {
		writeStoreClaim(b, big, id, 60, 512)
	}
	gemini := geminitest.NewServer(b, withSteps(func(r *geminitest.Request) geminitest.Reply {
		if r.Turns() == 0 {
			return searchCall(storeWord(40) + " " + storeWord(400) + " " + storeWord(4000))
		}
		return verdictReply("unverifiable", "low", "The store says nothing of it.")
	}))
	run := func(store string) int64 {
		b.Helper()
		cmd := exec.Command(bin, "eval", "--dataset", filepath.Join("..", "..", "eval", "testdata", "averitec_dev_fixture.json"),
			"--knowledge-store", store, "--limit", "2", "--json", "--quiet", "--concurrency", "2")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + b.TempDir(), "GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL=" + gemini.URL,
			"FACTBOT_DB=" + filepath.Join(b.TempDir(), "f.db")}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("factbot eval: %v\n%s", err, stderr.String())
		}
		var s struct{ Errors int }
		if err := json.Unmarshal(out, &s); err != nil || s.Errors != 0 {
			b.Fatalf("factbot eval: %v, %d errors:\n%.2000s", err, s.Errors, out)
		}
		return cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // kilobytes on Linux
	}
	small := run(filepath.Join("..", "..", "eval", "testdata", "averitec_store"))
	var peak int64
	for b.Loop() {
		peak = max(peak, run(big))
	}
	b.ReportMetric(120, "MB-store")
	b.ReportMetric(float64(peak)/(1<<20), "MB-peak-RSS")
	b.ReportMetric(float64(small)/(1<<20), "MB-peak-RSS-small-store")
}

// storeWord is the generated vocabulary's word number i.
func storeWord(i uint64) string { return strconv.FormatUint(i*7919+1_000_000, 36) }

// writeStoreClaim writes the knowledge-store file of claim id into dir:
// about mb megabytes of documents of about docKB kilobytes, in sentences
// of words drawn from a vocabulary of 50,000 (Zipf), the same for the
// same arguments (as search's benchmarks write them).
func writeStoreClaim(tb testing.TB, dir, id string, mb, docKB int) {
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
			var s strings.Builder
			for range 4 {
				for i := range 8 + rng.IntN(14) {
					if i > 0 {
						s.WriteByte(' ')
					}
					s.WriteString(storeWord(zipf.Uint64()))
				}
				s.WriteString(". ")
			}
			lines = append(lines, strings.TrimSpace(s.String()))
			size += s.Len()
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
