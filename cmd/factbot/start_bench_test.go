package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkStart measures what a command costs before it does anything: the
// built binary run as an operator runs it, `factbot help` and `factbot
// config` (with an empty environment but for FACTBOT_DB), each process from
// fork to exit. It reports the wall time per run, the CPU time per run (user
// and system: what the wall time is on an idle machine, less affected by
// other work on a busy one) and the largest resident set of any run (max-rss-MB, from the kernel's rusage: the binary's pages
// mapped from the file count, shared and clean as they are). The goal is
// 50 ms and 30 MB.
//
//	go test -run XXX -bench Start ./cmd/factbot/
func BenchmarkStart(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "factbot")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	db := filepath.Join(b.TempDir(), "factbot.db")
	for _, cmd := range []string{"help", "config"} {
		b.Run(cmd, func(b *testing.B) {
			var maxRSS int64
			var wall, cpu time.Duration
			for b.Loop() {
				c := exec.Command(bin, cmd)
				c.Env = []string{"FACTBOT_DB=" + db, "PATH=" + os.Getenv("PATH")}
				t0 := time.Now()
				c.Run() // config exits 2 without a model key: the start is what is measured
				wall += time.Since(t0)
				if c.ProcessState == nil {
					b.Fatalf("%s did not run", cmd)
				}
				cpu += c.ProcessState.UserTime() + c.ProcessState.SystemTime()
				if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
					maxRSS = max(maxRSS, ru.Maxrss) // KiB on Linux
				}
			}
			b.ReportMetric(float64(wall.Microseconds())/1000/float64(b.N), "ms/run")
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/run")
			b.ReportMetric(float64(maxRSS)/1024, "max-rss-MB")
			b.ReportMetric(0, "ns/op")
		})
	}
}
