package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/store"
)

const (
	testKey1 = "0101010101010101010101010101010101010101010101010101010101010101"
	testKey2 = "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=" // 32 bytes of 2, base64
)

// runCmd runs factbot with env and returns its exit status, stdout and
// stderr.
func runCmd(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] }}
	code := run(context.Background(), a, args)
	return code, out.String(), errb.String()
}

var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// redirect GETs u and returns where it redirects.
func redirect(t *testing.T, u string) (*url.URL, []*http.Cookie) {
	t.Helper()
	resp, err := noFollow.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil {
		t.Fatalf("GET %s: %d to %q", u, resp.StatusCode, resp.Header.Get("Location"))
	}
	return loc, resp.Cookies()
}

// TestServeManyWorkspaces runs `factbot serve` with an OAuth client and no
// SLACK_BOT_TOKEN nor any workspace, installs one through the flow, has it
// answered with its token, then looks after the installation from the
// command line: config counts it, rotate-key re-encrypts it, forget
// deletes it.
func TestServeManyWorkspaces(t *testing.T) {
	fake := slacktest.NewServer()
	defer fake.Close()
	fake.SetApp("1.2", "client-secret")
	restoreC, restoreL := serveChecker, serveListening
	defer func() { serveChecker, serveListening = restoreC, restoreL }()
	serveChecker = func(context.Context, *config.Config, backend) (bot.Checker, error) {
		return &bottest.Checker{Label: factcheck.Supported}, nil
	}
	addrc := make(chan net.Addr, 1)
	serveListening = func(a net.Addr) { addrc <- a }
	dbPath := filepath.Join(t.TempDir(), "f.db")
	env := map[string]string{
		"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "client-secret", "SLACK_APP_TOKEN": "xapp-test",
		"FACTBOT_ENCRYPTION_KEY": testKey1, "FACTBOT_PUBLIC_URL": "https://factbot.example",
		"SLACK_API_URL": fake.URL(), "FACTBOT_DB": dbPath, "FACTBOT_HTTP_ADDR": "127.0.0.1:0", "GEMINI_API_KEY": "k",
	}
	if code, out, errs := runCmd(t, env, "config"); code != exitOK || !strings.Contains(out, "Slack workspaces installed: 0") ||
		!strings.Contains(out, "multi-workspace (OAuth): install at https://factbot.example/slack/install") {
		t.Errorf("config before serve: exit %d\n%s%s", code, out, errs)
	}

	errb := &syncBuffer{}
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: errb, getenv: func(k string) string { return env[k] }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, a, []string{"serve"}) }()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case code := <-done:
		t.Fatalf("serve exited %d:\n%s", code, errb)
	}
	<-fake.Connected
	base := "http://" + addr.String()

	// The install flow: factbot → Slack's authorize page → factbot's
	// callback at FACTBOT_PUBLIC_URL (here reached at the listener).
	fake.Authorize(slacktest.Grant{Team: "T1", TeamName: "One", BotUserID: "UB1"})
	auth, cookies := redirect(t, base+slack.InstallPath)
	if got := auth.Query().Get("redirect_uri"); got != "https://factbot.example"+slack.CallbackPath {
		t.Errorf("redirect_uri = %q", got)
	}
	back, _ := redirect(t, auth.String())
	if back.Host != "factbot.example" || back.Path != slack.CallbackPath {
		t.Fatalf("Slack sent the installer to %s", back)
	}
	if len(cookies) != 1 || cookies[0].Name != slack.StateCookie || !cookies[0].Secure {
		t.Fatalf("install link's cookies = %v, want the state's, Secure (FACTBOT_PUBLIC_URL is https)", cookies)
	}
	code, page := get(t, base+back.Path+"?"+back.RawQuery, "Cookie", cookies[0].Name+"="+cookies[0].Value)
	if code != http.StatusOK || !strings.Contains(page, "/invite @factbot") {
		t.Fatalf("callback: %d\n%s", code, page)
	}

	id, err := fake.Send("events_api", slacktest.MentionIn("T1", "EvM", "C1", "U1", "1700000100.000100", "<@UB1> The Earth orbits the Sun"))
	if err != nil {
		t.Fatal(err)
	}
	timeout := time.After(30 * time.Second) // hang guard
	for acked := false; !acked; {
		select {
		case ack := <-fake.Acks:
			acked = ack.EnvelopeID == id
		case <-timeout:
			t.Fatal("no ack")
		}
	}
	var token string
	for final := false; !final; {
		select {
		case c := <-fake.Calls:
			final = c.Method == "chat.update" && strings.Contains(c.Text(), "factbot_recheck")
			token = c.Token
		case <-timeout:
			t.Fatalf("no final report; stderr:\n%s", errb)
		}
	}
	if !strings.HasPrefix(token, "xoxb-T1-") {
		t.Errorf("answered with token %q, want T1's", token)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("serve exited %d after cancel, want 0:\n%s", code, errb)
	}

	raw, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(token)) {
		t.Errorf("the database file holds the token %s in clear", token)
	}
	if code, out, errs := runCmd(t, env, "config"); code != exitOK || !strings.Contains(out, "Slack workspaces installed: 1") {
		t.Errorf("config after install: exit %d\n%s%s", code, out, errs)
	}

	// Rotating the key: without the old key nothing changes; with it every
	// installation is re-encrypted.
	rot := maps.Clone(env)
	rot["FACTBOT_ENCRYPTION_KEY"] = testKey2
	if code, out, errs := runCmd(t, rot, "rotate-key"); code != exitUsage || !strings.Contains(errs, "FACTBOT_ENCRYPTION_KEY_OLD") {
		t.Errorf("rotate-key without the old key: exit %d\n%s%s", code, out, errs)
	}
	rot["FACTBOT_ENCRYPTION_KEY_OLD"] = testKey1
	oldSealed := sealedInstallations(t, dbPath)
	if code, out, errs := runCmd(t, rot, "rotate-key"); code != exitOK || !strings.Contains(out, "Re-encrypted 1 installations") || !strings.Contains(out, "Compacted") {
		t.Errorf("rotate-key: exit %d\n%s%s", code, out, errs)
	}
	// No byte of the file holds a record sealed with the old key, not even
	// its free pages.
	raw, rerr := os.ReadFile(dbPath)
	if rerr != nil {
		t.Fatal(rerr)
	}
	for _, v := range oldSealed {
		if bytes.Contains(raw, v) {
			t.Errorf("after rotate-key the file still holds the token sealed with the old key: %s", v)
		}
	}
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	newKey := bytes.Repeat([]byte{2}, keyring.KeySize) // testKey2
	kr, _ := keyring.New(newKey)
	if inst, err := db.Installations(kr).Get(context.Background(), slack.Name, "T1"); err != nil || inst.BotToken != token {
		t.Errorf("after rotate-key, the new key alone opens %+v, %v", inst, err)
	}
	db.Close()

	if code, out, errs := runCmd(t, rot, "forget", "--tenant", "T1"); code != exitOK || !strings.Contains(out, "installation of the app") {
		t.Errorf("forget --tenant: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCmd(t, rot, "config"); code != exitOK || !strings.Contains(out, "Slack workspaces installed: 0") {
		t.Errorf("config after forget: exit %d\n%s%s", code, out, errs)
	}
}

func TestServeOAuthConfigErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "f.db")
	base := map[string]string{"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "cs", "SLACK_APP_TOKEN": "xapp-1", "FACTBOT_DB": db,
		"FACTBOT_ENCRYPTION_KEY": testKey1, "FACTBOT_PUBLIC_URL": "https://factbot.example"}
	restore := serveChecker
	defer func() { serveChecker = restore }()
	serveChecker = func(context.Context, *config.Config, backend) (bot.Checker, error) { return &bottest.Checker{}, nil }
	for _, tt := range []struct {
		unset, set, want string
	}{
		{unset: "FACTBOT_ENCRYPTION_KEY", want: "FACTBOT_ENCRYPTION_KEY"},
		{unset: "FACTBOT_PUBLIC_URL", want: "FACTBOT_PUBLIC_URL"},
		{unset: "SLACK_CLIENT_SECRET", want: "SLACK_CLIENT_SECRET"},
		{set: "SLACK_BOT_TOKEN", want: "SLACK_BOT_TOKEN"},
	} {
		env := maps.Clone(base)
		delete(env, tt.unset)
		if tt.set != "" {
			env[tt.set] = "xoxb-1"
		}
		if code, _, errs := runCmd(t, env, "serve"); code != exitUsage || !strings.Contains(errs, tt.want) {
			t.Errorf("unset %s, set %s: exit %d, stderr:\n%s", tt.unset, tt.set, code, errs)
		}
	}
	if code, _, errs := runCmd(t, map[string]string{"FACTBOT_DB": db}, "rotate-key"); code != exitUsage || !strings.Contains(errs, "FACTBOT_ENCRYPTION_KEY") {
		t.Errorf("rotate-key without a key: exit %d, stderr:\n%s", code, errs)
	}
}

// sealedInstallations reads the sealed tokens of the installations stored
// in the bbolt file at path, as the file holds them (base64 in JSON).
func sealedInstallations(t *testing.T, path string) [][]byte {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out [][]byte
	db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("installations"))
		if b == nil {
			return nil
		}
		return b.ForEach(func(_, v []byte) error {
			var rec struct {
				Data struct {
					Secrets struct {
						Data string `json:"data"`
					} `json:"secrets"`
				} `json:"data"`
			}
			if err := json.Unmarshal(v, &rec); err != nil || len(rec.Data.Secrets.Data) < 16 {
				t.Fatalf("installation record %q: %v", v, err)
			}
			out = append(out, []byte(rec.Data.Secrets.Data))
			return nil
		})
	})
	if len(out) == 0 {
		t.Fatal("no installation in the file: the test would prove nothing")
	}
	return out
}
