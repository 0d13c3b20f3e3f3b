package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/web"
	"github.com/factbot-dev/factbot/web/webtest"
)

const (
	testWebSecret = "0123456789abcdef0123456789abcdef"
	testWebAdmin  = "fedcba9876543210fedcba9876543210"
)

// seedWebDB makes a database with the web view's sample check of tenant
// cli and returns its path and the check.
func seedWebDB(t *testing.T) (string, *store.Check) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := webtest.Seed(context.Background(), db, cliTenant, "", "ada", time.Now().UTC().Truncate(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path, c
}

func TestWebConfigErrors(t *testing.T) {
	path, _ := seedWebDB(t)
	for _, tt := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"no public URL", map[string]string{"FACTBOT_WEB_SECRET": testWebSecret}, "FACTBOT_PUBLIC_URL"},
		{"no secret", map[string]string{"FACTBOT_PUBLIC_URL": "https://f.example"}, "FACTBOT_WEB_SECRET"},
		{"short secret", map[string]string{"FACTBOT_PUBLIC_URL": "https://f.example", "FACTBOT_WEB_SECRET": "short"}, "FACTBOT_WEB_SECRET: too short"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.env["FACTBOT_DB"] = path
			a, errb := testApp(tt.env)
			if code := run(context.Background(), a, []string{"web"}); code != exitUsage || !strings.Contains(errb.String(), tt.want) {
				t.Errorf("exit %d, want %d with %q; stderr:\n%s", code, exitUsage, tt.want, errb)
			}
		})
	}
	a, errb := testApp(map[string]string{"FACTBOT_DB": path, "FACTBOT_PUBLIC_URL": "https://f.example", "FACTBOT_WEB_SECRET": testWebSecret})
	if code := run(context.Background(), a, []string{"web", "--link", "nope"}); code != exitUsage || !strings.Contains(errb.String(), "no check nope") {
		t.Errorf("web --link nope: exit %d; stderr:\n%s", code, errb)
	}
}

func get(t *testing.T, url string, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestWebEndToEnd prints a signed link with `factbot web --link`, then
// serves the database with `factbot web` and opens it.
func TestWebEndToEnd(t *testing.T) {
	path, c := seedWebDB(t)
	env := map[string]string{"FACTBOT_DB": path, "FACTBOT_PUBLIC_URL": "https://factbot.example/", "FACTBOT_WEB_SECRET": testWebSecret,
		"FACTBOT_WEB_ADMIN_TOKEN": testWebAdmin, "FACTBOT_HTTP_ADDR": "127.0.0.1:0", "USER": "ada"}
	var out bytes.Buffer
	a, errb := testApp(env)
	a.stdout = &out
	if code := run(context.Background(), a, []string{"web", "--link", c.ID}); code != exitOK {
		t.Fatalf("web --link: exit %d\n%s", code, errb)
	}
	link := strings.TrimSpace(out.String())
	if !strings.HasPrefix(link, "https://factbot.example/web/check/cli/"+c.ID+"?t=v1.") {
		t.Fatalf("link %q", link)
	}
	out.Reset()
	if code := run(context.Background(), a, []string{"web", "--history"}); code != exitOK {
		t.Fatalf("web --history: exit %d\n%s", code, errb)
	}
	histLink := strings.TrimSpace(out.String())

	restore := webListening
	defer func() { webListening = restore }()
	addrc := make(chan net.Addr, 1)
	webListening = func(a net.Addr) { addrc <- a }
	a, errb = testApp(env)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, a, []string{"web"}) }()
	var base string
	select {
	case addr := <-addrc:
		base = "http://" + addr.String()
	case code := <-done:
		t.Fatalf("web exited %d:\n%s", code, errb)
	}
	local := func(l string) string { return base + strings.TrimPrefix(l, "https://factbot.example") }
	if code, body := get(t, local(link)); code != 200 || !strings.Contains(body, "Eiffel") {
		t.Errorf("check link: %d\n%.300s", code, body)
	}
	if code, body := get(t, local(histLink)); code != 200 || !strings.Contains(body, c.ID) {
		t.Errorf("history link: %d\n%.300s", code, body)
	}
	if code, body := get(t, base+"/web/check/cli/"+c.ID); code != 403 || strings.Contains(body, "Eiffel") {
		t.Errorf("no link: %d\n%.300s", code, body)
	}
	if code, _ := get(t, base+"/web/", "Authorization", "Bearer "+testWebAdmin); code != 200 {
		t.Errorf("operators: %d", code)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("web exited %d after cancel:\n%s", code, errb)
	}
}

// TestWebLinksWithoutUSER: with USER unset, --link makes the link for the
// check's asker (here to a check only its asker may see) and --history for the system's user, each printed only after
// the web view's own handler opened it; a link its viewer could not open is
// refused, not printed.
func TestWebLinksWithoutUSER(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().UTC().Truncate(time.Second)
	me, err := webtest.Seed(context.Background(), db, cliTenant, "", cliUser(&config.Config{}), at)
	if err != nil {
		t.Fatal(err)
	}
	private, _ := webtest.Sample(cliTenant, "D1", "ada", at.Add(2*time.Second))
	private.Private = true
	if err := db.SaveCheck(context.Background(), private); err != nil {
		t.Fatal(err)
	}
	db.Close()
	env := map[string]string{"FACTBOT_DB": path, "FACTBOT_PUBLIC_URL": "https://factbot.example", "FACTBOT_WEB_SECRET": testWebSecret}
	link := func(args ...string) (string, int, string) {
		var out bytes.Buffer
		a, errb := testApp(env)
		a.stdout = &out
		code := run(context.Background(), a, append([]string{"web"}, args...))
		return strings.TrimSpace(out.String()), code, errb.String()
	}
	checkLink, code, stderr := link("--link", private.ID)
	if code != exitOK || checkLink == "" {
		t.Fatalf("web --link without USER: exit %d, stderr %s", code, stderr)
	}
	histLink, code, stderr := link("--history")
	if code != exitOK || histLink == "" {
		t.Fatalf("web --history without USER: exit %d, stderr %s", code, stderr)
	}
	if out, code, stderr := link("--link", private.ID, "--viewer", "bob"); code != exitUsage || out != "" || !strings.Contains(stderr, "would answer 403") {
		t.Errorf("web --link to ada's private check for bob: exit %d, stdout %q, stderr %s", code, out, stderr)
	}

	db, err = store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(web.New(web.Options{Store: db, Secret: testWebSecret}))
	defer srv.Close()
	local := func(l string) string { return srv.URL + strings.TrimPrefix(l, "https://factbot.example") }
	if code, body := get(t, local(checkLink)); code != 200 || !strings.Contains(body, "Eiffel") {
		t.Errorf("check link: %d\n%.300s", code, body)
	}
	if code, body := get(t, local(histLink)); code != 200 || !strings.Contains(body, me.ID) {
		t.Errorf("history link: %d, want the check of %s (%s)\n%.300s", code, cliUser(&config.Config{}), me.ID, body)
	}
}

// TestWebWarnsPlainPublicURL: an http:// FACTBOT_PUBLIC_URL is accepted
// (a proxy may still terminate TLS elsewhere) but warned about at start.
func TestWebWarnsPlainPublicURL(t *testing.T) {
	path, _ := seedWebDB(t)
	restore := webListening
	defer func() { webListening = restore }()
	addrc := make(chan net.Addr, 1)
	webListening = func(a net.Addr) { addrc <- a }
	for _, url := range []string{"http://factbot.example", "https://factbot.example"} {
		a, errb := testApp(map[string]string{"FACTBOT_DB": path, "FACTBOT_PUBLIC_URL": url, "FACTBOT_WEB_SECRET": testWebSecret, "FACTBOT_HTTP_ADDR": "127.0.0.1:0"})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan int, 1)
		go func() { done <- run(ctx, a, []string{"web"}) }()
		select {
		case <-addrc:
		case code := <-done:
			t.Fatalf("web exited %d:\n%s", code, errb)
		}
		cancel()
		<-done
		warned := strings.Contains(errb.String(), "FACTBOT_PUBLIC_URL is http://")
		if warned != strings.HasPrefix(url, "http://") {
			t.Errorf("FACTBOT_PUBLIC_URL=%s: warned %v; stderr:\n%s", url, warned, errb)
		}
	}
}
