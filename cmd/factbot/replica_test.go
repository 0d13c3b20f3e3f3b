package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/store"
)

// replica is one `factbot serve` process.
type replica struct {
	name string
	cmd  *exec.Cmd
	addr string
	log  *syncBuffer
	done chan struct{} // closed when the process has exited
}

// buildFactbot builds this command into a temporary directory.
func buildFactbot(t testing.TB) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "factbot")
	out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// listeningRE finds the host:port in the line where factbot serve, web or
// mcp --addr says it listens.
var listeningRE = regexp.MustCompile(`"factbot (?:serve|web|mcp): listening" (?:addr=|url=http://)([0-9.:]+)`)

// startReplica runs `factbot serve` with env and waits until it listens.
func startReplica(t *testing.T, bin, name string, env map[string]string) *replica {
	t.Helper()
	return startProcess(t, bin, name, env, "serve")
}

// startProcess runs factbot with args (a command that listens: serve, web,
// mcp --addr) and env, and waits until it listens; it is killed when the
// test ends.
func startProcess(t *testing.T, bin, name string, env map[string]string, args ...string) *replica {
	t.Helper()
	r := &replica{name: name, log: &syncBuffer{}, done: make(chan struct{})}
	r.cmd = exec.Command(bin, args...)
	r.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	for k, v := range env {
		r.cmd.Env = append(r.cmd.Env, k+"="+v)
	}
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addrc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(r.log, line)
			if m := listeningRE.FindStringSubmatch(line); m != nil {
				addrc <- m[1]
			}
		}
		io.Copy(io.Discard, stderr)
		r.cmd.Wait()
		close(r.done)
	}()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.done
		if t.Failed() {
			t.Logf("%s's log:\n%s", name, r.log)
		}
	})
	select {
	case r.addr = <-addrc:
	case <-r.done:
		t.Fatalf("%s exited before listening:\n%s", name, r.log)
	case <-time.After(60 * time.Second): // hang guard
		t.Fatalf("%s does not listen:\n%s", name, r.log)
	}
	return r
}

// postEvent sends a signed Slack Events API request to the replica.
func (r *replica) postEvent(t *testing.T, secret string, payload any) {
	t.Helper()
	body, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%s:%s", ts, body)
	req, err := http.NewRequest(http.MethodPost, "http://"+r.addr+"/slack/events", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("POST %s/slack/events: %v", r.name, err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("POST %s/slack/events = %d, want 200", r.name, resp.StatusCode)
	}
}

// TestReplicas runs two `factbot serve` processes on one PostgreSQL
// database with the fake Slack in HTTP mode: the same event sent to both
// is answered once; the replica that runs a slow check is killed
// (SIGKILL), and the other takes the request over when its lease runs out
// and answers it, once.
func TestReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs two processes")
	}
	dsn := testPostgres(t)
	bin := buildFactbot(t)

	// The model: the first extraction hangs until the test ends (the
	// replica running it is killed); every later call answers.
	started, release := make(chan struct{}), make(chan struct{})
	var extractions atomic.Int64
	w := newWorld(t, func(r *geminitest.Request) geminitest.Reply {
		if isExtraction(r) {
			if extractions.Add(1) == 1 {
				close(started)
				<-release
			}
			return claimsReply(wallClaim)
		}
		if r.Turns() == 0 {
			return searchCall("great wall visible from space")
		}
		return verdictReply("contradicted", "high", "Not visible to the naked eye from orbit.")
	})
	t.Cleanup(func() { close(release) }) // before the fake Gemini closes
	fake := slacktest.NewServer()
	t.Cleanup(fake.Close)

	const secret = "replica-signing-secret"
	env := map[string]string{
		"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_SIGNING_SECRET": secret, "SLACK_API_URL": fake.URL(),
		"GOOGLE_GEMINI_BASE_URL": w.gemini.URL, "FACTBOT_HTTP_ADDR": "127.0.0.1:0", "FACTBOT_LEASE": "3s",
	}
	for k, v := range w.env {
		env[k] = v
	}
	env["FACTBOT_DB"] = dsn
	a := startReplica(t, bin, "replica A", env)
	b := startReplica(t, bin, "replica B", env)
	replicas := []*replica{a, b}

	// The same event, delivered to both replicas at once.
	ev := slacktest.Mention("EvReplica", "C1", "U1", "1700000200.000100", "<@UBOT> "+wallClaim)
	var wg sync.WaitGroup
	for _, r := range replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.postEvent(t, secret, ev)
		}()
	}
	wg.Wait()

	// Which replica runs the check: the one holding the lease.
	select {
	case <-started:
	case <-time.After(60 * time.Second): // hang guard
		t.Fatal("no check started")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	const key = "slack:event:EvReplica"
	// The store keeps every record in one table (store/postgres): the
	// requests, and their leases ("owner\x00until").
	var n int
	var lease []byte
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM records WHERE bucket = 'requests'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, `SELECT value FROM records WHERE bucket = 'leases' ORDER BY key LIMIT 1`).Scan(&lease); err != nil {
		t.Fatal(err)
	}
	owner, _, _ := strings.Cut(string(lease), "\x00")
	if n != 1 {
		t.Fatalf("%d requests stored for one event delivered twice, want 1", n)
	}
	var running, other *replica
	for i, r := range replicas {
		if strings.Contains(owner, fmt.Sprintf("/%d/", r.cmd.Process.Pid)) {
			running, other = r, replicas[1-i]
		}
	}
	if running == nil {
		t.Fatalf("the lease owner %q is neither replica (pids %d, %d)", owner, a.cmd.Process.Pid, b.cmd.Process.Pid)
	}
	if err := running.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-running.done

	// The other replica takes the request over and answers it.
	var state string
	for deadline := time.Now().Add(90 * time.Second); state != store.RequestDone; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) { // hang guard
			t.Fatalf("request still %q; %s's log:\n%s", state, other.name, other.log)
		}
		if err := conn.QueryRow(ctx, `SELECT convert_from(value, 'UTF8')::jsonb->'data'->>'state' FROM records WHERE bucket = 'requests' AND key = $1`, []byte(key)).Scan(&state); err != nil {
			t.Fatal(err)
		}
	}
	if got := extractions.Load(); got < 2 {
		t.Errorf("%d extractions, want the killed replica's and the takeover's", got)
	}
	var checks int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM records WHERE bucket = 'checks'`).Scan(&checks); err != nil {
		t.Fatal(err)
	}
	if checks != 1 {
		t.Errorf("%d checks saved, want 1", checks)
	}
	var finals []string
	for _, c := range fake.Recorded("chat.postMessage", "chat.update") {
		if strings.Contains(c.Text(), "factbot_recheck") {
			finals = append(finals, c.Method)
		}
	}
	if len(finals) != 1 {
		t.Errorf("final answers posted: %v, want one", finals)
	}
}
