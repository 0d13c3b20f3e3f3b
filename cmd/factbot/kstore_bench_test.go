package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/search/searchtest"
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
		searchtest.WriteLargeClaim(b, big, id, 60, 512)
	}
	gemini := geminitest.NewServer(b, withSteps(func(r *geminitest.Request) geminitest.Reply {
		if r.Turns() == 0 {
			return searchCall(searchtest.Word(40) + " " + searchtest.Word(400) + " " + searchtest.Word(4000))
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
