package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/search/searchtest"
)

// BenchmarkEvalKnowledgeStorePeak runs the built binary's factbot eval on
// the first AVeriTeC claims of eval/testdata with a knowledge store of a
// claim of 60 MB for each (documents of 512 KB, words drawn from a
// vocabulary of 50,000), as the issue measured, two claims at once
// (--concurrency 2), against a fake Gemini that searches the store once
// and answers: it reports the process's largest resident set (VmHWM as it
// exits, peakRSS), for two claims and for four (what a run holds does not
// grow with the number of claims, only with those checked at once), and
// that of the same run on the two claims' small fixture store.
// FACTBOT_EVAL_BIN runs another build instead (an earlier version, to
// compare).
func BenchmarkEvalKnowledgeStorePeak(b *testing.B) {
	bin := os.Getenv("FACTBOT_EVAL_BIN")
	if bin == "" {
		bin = buildFactbot(b)
	}
	big := b.TempDir()
	for _, id := range []string{"0", "1", "2", "3"} {
		searchtest.WriteLargeClaim(b, big, id, 60, 512)
	}
	gemini := geminitest.NewServer(b, withSteps(func(r *geminitest.Request) geminitest.Reply {
		if r.Turns() == 0 {
			return searchCall(searchtest.Word(40) + " " + searchtest.Word(400) + " " + searchtest.Word(4000))
		}
		return verdictReply("unverifiable", "low", "The store says nothing of it.")
	}))
	run := func(store string, claims int) int64 {
		b.Helper()
		cmd := exec.Command(bin, "eval", "--dataset", filepath.Join("..", "..", "eval", "testdata", "averitec_dev_fixture.json"),
			"--knowledge-store", store, "--limit", strconv.Itoa(claims), "--json", "--quiet", "--concurrency", "2")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + b.TempDir(), "GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL=" + gemini.URL,
			"FACTBOT_DB=" + filepath.Join(b.TempDir(), "f.db")}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		kib, err := peakRSS(cmd)
		if err != nil || !cmd.ProcessState.Success() {
			b.Fatalf("factbot eval: %v, %v\n%s", err, cmd.ProcessState, stderr.String())
		}
		var s struct{ Errors, Scored int }
		if err := json.Unmarshal([]byte(stdout.String()), &s); err != nil || s.Errors != 0 || s.Scored != claims {
			b.Fatalf("factbot eval: %v, %d errors, %d scored:\n%.2000s", err, s.Errors, s.Scored, stdout.String())
		}
		return kib << 10
	}
	small := run(filepath.Join("..", "..", "eval", "testdata", "averitec_store"), 2)
	for _, claims := range []int{2, 4} {
		b.Run(fmt.Sprintf("claims=%d", claims), func(b *testing.B) {
			var peak int64
			for b.Loop() {
				peak = max(peak, run(big, claims))
			}
			b.ReportMetric(float64(60*claims), "MB-store")
			b.ReportMetric(float64(peak)/(1<<20), "MB-peak-RSS")
			b.ReportMetric(float64(small)/(1<<20), "MB-peak-RSS-small-store")
		})
	}
}
