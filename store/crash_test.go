package store

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
)

// Child processes of the crash and lock tests: the test binary re-executed
// with STORE_TEST_CHILD set.
func TestMain(m *testing.M) {
	switch os.Getenv("STORE_TEST_CHILD") {
	case "":
		code := m.Run()
		benchCleanup()
		os.Exit(code)
	case "worker":
		os.Exit(childWorker(os.Getenv("STORE_TEST_DB"), os.Getenv("STORE_TEST_RESUME_ONLY") != ""))
	case "lock":
		os.Exit(childLock(os.Getenv("STORE_TEST_DB")))
	}
	os.Exit(99)
}

const crashTenant = "T1"

// childWorker plays the bot: it resumes pending requests, then accepts
// requests ev0…ev199 (those accepted in an earlier life are redeliveries),
// saving a check, a verdict and finishing each. It prints "accepted KEY"
// once AcceptRequest has returned true, i.e. after the fsync'd commit.
func childWorker(path string, resumeOnly bool) int {
	db, err := Open(path, Options{Timeout: 10 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	answer := func(r *Request) error {
		if r.CheckID == "" {
			now := time.Now().UTC()
			claim := "claim of " + r.Key
			c := &Check{Tenant: r.Tenant, Platform: "slack", Channel: r.Channel, User: r.User, RequestKey: r.Key, Text: r.Text,
				Report: &factcheck.Report{Input: r.Text, Claims: []*factcheck.Verdict{verdict(claim, factcheck.Supported, now)}}}
			if err := db.SaveCheck(ctx, c); err != nil {
				return err
			}
			if err := db.PutVerdict(ctx, r.Tenant, c.Report.Claims[0], nil); err != nil {
				return err
			}
		}
		// "post the answer", then mark the request done.
		return db.FinishRequest(ctx, r.Tenant, r.Key, RequestDone, "")
	}
	pend, err := db.PendingRequests(ctx, crashTenant)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for _, r := range pend {
		if err := answer(r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if resumeOnly {
		return 0
	}
	for i := range 200 {
		r := &Request{Key: fmt.Sprintf("ev%d", i), Tenant: crashTenant, Platform: "slack", Channel: "C1", User: "U1", Text: fmt.Sprintf("text %d", i)}
		isNew, err := db.AcceptRequest(ctx, r)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if !isNew {
			continue
		}
		fmt.Printf("accepted %s\n", r.Key)
		if err := answer(r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

func childLock(path string) int {
	_, err := Open(path, Options{Timeout: 200 * time.Millisecond})
	fmt.Println(err)
	if errors.Is(err, ErrLocked) {
		return 3
	}
	return 1
}

func child(t *testing.T, mode, path string, extraEnv ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{"STORE_TEST_CHILD=" + mode, "STORE_TEST_DB=" + path}, extraEnv...)...)
	cmd.Stderr = os.Stderr
	return cmd
}

// A worker killed with SIGKILL at random points loses no accepted request
// and answers none twice.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "factbot.db")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	accepted := map[string]bool{}
	for round := range 6 {
		cmd := child(t, "worker", path)
		out, err := cmd.StdoutPipe()
		mustf(t, err, "pipe")
		mustf(t, cmd.Start(), "start worker")
		killAfter := 1 + rng.IntN(30)
		sc := bufio.NewScanner(out)
		n := 0
		for sc.Scan() {
			if key, ok := strings.CutPrefix(sc.Text(), "accepted "); ok {
				if accepted[key] {
					t.Errorf("round %d: %s accepted twice", round, key)
				}
				accepted[key] = true
				n++
			}
			if n == killAfter {
				// Land the kill anywhere in the next request's work.
				time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
				cmd.Process.Signal(syscall.SIGKILL)
				break
			}
		}
		go func() {
			for sc.Scan() {
			}
		}() // drain
		cmd.Wait()
		checkCrashState(t, path, accepted, false)
	}
	// A last life resumes everything pending; then all is answered once.
	cmd := child(t, "worker", path, "STORE_TEST_RESUME_ONLY=1")
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	checkCrashState(t, path, accepted, true)
	if len(accepted) == 0 {
		t.Fatal("no request was accepted")
	}
}

func checkCrashState(t *testing.T, path string, accepted map[string]bool, allDone bool) {
	t.Helper()
	db, err := Open(path, Options{})
	mustf(t, err, "reopen")
	defer db.Close()
	if err := db.checkInvariants(); err != nil {
		t.Fatalf("inconsistent after kill: %v", err)
	}
	checksOf := map[string][]string{}
	mustf(t, db.EachCheck(ctx, crashTenant, func(c *Check) error {
		checksOf[c.RequestKey] = append(checksOf[c.RequestKey], c.ID)
		return nil
	}), "each")
	for key, ids := range checksOf {
		if len(ids) > 1 {
			t.Errorf("request %s has %d checks: %v", key, len(ids), ids)
		}
	}
	for key := range accepted {
		r, err := db.Request(ctx, crashTenant, key)
		if err != nil {
			t.Errorf("accepted request %s lost: %v", key, err)
			continue
		}
		switch {
		case r.State == RequestDone:
			if len(checksOf[key]) != 1 || checksOf[key][0] != r.CheckID {
				t.Errorf("done request %s: check %q, saved checks %v", key, r.CheckID, checksOf[key])
			}
		case r.State == RequestPending && !allDone:
		default:
			t.Errorf("request %s in state %q", key, r.State)
		}
	}
}

// A second process gets ErrLocked with a clear message, not a hang.
func TestLockedBySecondProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	db, err := Open(path, Options{})
	mustf(t, err, "open")
	defer db.Close()
	out, err := child(t, "lock", path).Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("second process: %v, output %q; want exit 3 (ErrLocked)", err, out)
	}
	if want := path + " is in use by another process"; !strings.Contains(string(out), want) {
		t.Errorf("message %q does not contain %q", out, want)
	}
}
