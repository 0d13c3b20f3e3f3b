package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkStart measures what a command costs before it does anything: the
// built binary run as an operator runs it, `factbot help` and `factbot
// config` (with an empty environment but for FACTBOT_DB), each process from
// fork to exit. It reports the wall time per run, the CPU time per run (user
// and system: what the wall time is on an idle machine, less affected by
// other work on a busy one) and the largest resident set of the command
// (max-rss-MB: VmHWM, read as the process exits; the binary's pages mapped
// from the file count, shared and clean as they are). The budget is
// startBudgetWallMS and startBudgetRSSMB (50 ms and 35 MB) on a quiet
// machine; a run over it is logged beside the budget, not failed: the wall
// time of a busy machine says little (compare the CPU time).
//
// The binary's pages are dropped from the page cache once it is built, so
// that every build is measured in the same state: read in by the kernel as
// after an install or a reboot (a file the linker has just written maps 2–3
// MB more). Each is measured twice: as go build and go run build it (with
// cgo where a C compiler is found: the dynamic loader and libc), and as
// released (release-: CGO_ENABLED=0 -trimpath, the container image's
// build). The kernel's rusage is not used for the memory: a child started
// by vfork, as Go starts every process, carries the benchmark's own peak
// into its figure.
//
//	go test -run XXX -bench Start ./cmd/factbot/
func BenchmarkStart(b *testing.B) {
	built, released := buildCold(b), buildCold(b, "CGO_ENABLED=0", "-trimpath")
	db := filepath.Join(b.TempDir(), "factbot.db")
	for _, run := range []struct{ name, bin, cmd string }{
		{"help", built, "help"}, {"config", built, "config"},
		{"release-help", released, "help"}, {"release-config", released, "config"},
	} {
		name, bin, cmd := run.name, run.bin, run.cmd
		b.Run(run.name, func(b *testing.B) {
			command := func() *exec.Cmd {
				c := exec.Command(bin, cmd)
				c.Env = []string{"FACTBOT_DB=" + db, "PATH=" + os.Getenv("PATH")}
				return c
			}
			var wall, cpu time.Duration
			for b.Loop() {
				c := command()
				t0 := time.Now()
				c.Run() // config exits 2 without a model key: the start is what is measured
				wall += time.Since(t0)
				if c.ProcessState == nil {
					b.Fatalf("%s did not run", cmd)
				}
				cpu += c.ProcessState.UserTime() + c.ProcessState.SystemTime()
			}
			var peak int64
			for range 3 {
				kib, err := peakRSS(command())
				if err != nil {
					b.Fatalf("%s: %v", cmd, err)
				}
				peak = max(peak, kib)
			}
			ms, rss := float64(wall.Microseconds())/1000/float64(b.N), float64(peak)/1024
			b.ReportMetric(ms, "ms/run")
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/run")
			b.ReportMetric(rss, "max-rss-MB")
			b.ReportMetric(0, "ns/op")
			if ms > startBudgetWallMS || rss > startBudgetRSSMB {
				b.Logf("%s: %.1f ms and %.1f MB per run, over the budget of %d ms and %d MB on a quiet machine (load average now: %s)",
					name, ms, rss, startBudgetWallMS, startBudgetRSSMB, loadAverage())
			}
		})
	}
}

// buildCold builds the binary into a temporary folder and drops its pages
// from the page cache. env (VAR=value) and flags are added to go build's.
func buildCold(b *testing.B, envAndFlags ...string) string {
	bin := filepath.Join(b.TempDir(), "factbot")
	build := exec.Command("go", "build", "-o", bin)
	build.Env = os.Environ()
	for _, a := range envAndFlags {
		if strings.HasPrefix(a, "-") {
			build.Args = append(build.Args, a)
		} else {
			build.Env = append(build.Env, a)
		}
	}
	build.Args = append(build.Args, ".")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := os.Open(bin)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := unix.Fdatasync(int(f.Fd())); err != nil {
		b.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		b.Fatal(err)
	}
	return bin
}

// peakRSS runs c to its end under ptrace and returns its largest resident
// set in KiB, VmHWM of /proc/PID/status read when it stops on its way out
// (PTRACE_EVENT_EXIT), before its memory is released.
func peakRSS(c *exec.Cmd) (int64, error) {
	runtime.LockOSThread() // ptrace answers the thread that started the tracee
	defer runtime.UnlockOSThread()
	c.SysProcAttr = &syscall.SysProcAttr{Ptrace: true}
	if err := c.Start(); err != nil {
		return 0, err
	}
	pid := c.Process.Pid
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil { // stopped after exec
		return 0, err
	}
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACEEXIT); err != nil {
		return 0, err
	}
	var kib int64
	for sig := 0; ; {
		if err := syscall.PtraceCont(pid, sig); err != nil {
			return 0, err
		}
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
			return 0, err
		}
		if !ws.Stopped() {
			return 0, fmt.Errorf("pid %d ended without an exit stop: %v", pid, ws)
		}
		if ws.StopSignal() == syscall.SIGTRAP && ws.TrapCause() == syscall.PTRACE_EVENT_EXIT {
			var err error
			if kib, err = vmHWM(pid); err != nil {
				return 0, err
			}
			break
		}
		sig = int(ws.StopSignal()) // a signal for the tracee: passed on
	}
	if err := syscall.PtraceCont(pid, 0); err != nil {
		return 0, err
	}
	c.Wait() // its exit status is not what is measured
	return kib, nil
}

// vmHWM is the peak resident set of process pid in KiB.
func vmHWM(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}

// loadAverage is the machine's load over the last minute, five and fifteen
// (/proc/loadavg), or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
