package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
)

const readPage = `<!DOCTYPE html><html><head><title>Canteen hours | Intranet</title>
<meta property="article:published_time" content="2026-03-01T08:00:00Z"></head>
<body><nav><a href="/">Home</a></nav><article><h1>Canteen hours</h1>
<p>The canteen on the second floor opens at nine in the morning and closes at three in the afternoon on weekdays.</p>
<p>On Saturdays it opens at ten and closes at one, and it stays closed on Sundays and public holidays throughout the year.</p>
</article><footer>Facilities team</footer></body></html>`

func readRun(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] }}
	code = run(context.Background(), a, args)
	return code, out.String(), errb.String()
}

func readPageServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/canteen", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, readPage)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestReadCommand(t *testing.T) {
	srv := readPageServer(t)
	env := map[string]string{"FACTBOT_ALLOW_PRIVATE_FETCH": "1"}
	code, out, errs := readRun(t, env, "read", srv.URL+"/old")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"URL:       " + srv.URL + "/canteen\n",
		"Asked:     " + srv.URL + "/old\n",
		"Title:     Canteen hours\n", // the headline, without the site's name
		"Site:      127.0.0.1\n",
		"Published: 2026-03-01T08:00:00Z\n",
		"opens at nine in the morning",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Facilities team") {
		t.Errorf("output keeps the footer:\n%s", out)
	}
}

func TestReadCommandJSON(t *testing.T) {
	srv := readPageServer(t)
	code, out, errs := readRun(t, map[string]string{"FACTBOT_ALLOW_PRIVATE_FETCH": "1"}, "read", "--json", srv.URL+"/canteen")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if got["final_url"] != srv.URL+"/canteen" || got["title"] != "Canteen hours" || !strings.Contains(got["text"].(string), "Saturdays") {
		t.Errorf("JSON = %v", got)
	}
	if len(got["sha256"].(string)) != 64 || got["bytes"].(float64) != float64(len(readPage)) {
		t.Errorf("sha256 %v bytes %v", got["sha256"], got["bytes"])
	}
}

// minutesPDF is a two-page PDF of meeting minutes.
func minutesPDF(t *testing.T) []byte {
	t.Helper()
	f := fpdf.New("P", "mm", "A4", "")
	f.SetTitle("Canteen committee minutes", false)
	f.SetCreationDate(time.Date(2026, 2, 3, 14, 0, 0, 0, time.UTC))
	f.SetFont("Helvetica", "", 11)
	f.AddPage()
	f.Cell(0, 10, "The committee agreed to open the canteen at nine.")
	f.AddPage()
	f.Cell(0, 10, "Next meeting: 3 March.")
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReadCommandPDF(t *testing.T) {
	doc := minutesPDF(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(doc)
	}))
	defer srv.Close()
	env := map[string]string{"FACTBOT_ALLOW_PRIVATE_FETCH": "1"}
	code, out, errs := readRun(t, env, "read", srv.URL+"/minutes.pdf")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"Title:     Canteen committee minutes\n",
		"Published: 2026-02-03T14:00:00Z\n",
		"Pages:     2\n",
		"--- page 1 ---\nThe committee agreed to open the canteen at nine.\n\n--- page 2 ---\nNext meeting: 3 March.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	code, out, errs = readRun(t, env, "read", "--json", srv.URL+"/minutes.pdf")
	if code != exitOK {
		t.Fatalf("--json: exit %d, stderr %q", code, errs)
	}
	var got struct {
		PageCount   int       `json:"page_count"`
		PublishedAt time.Time `json:"published_at"`
		Pages       []struct {
			N    int    `json:"n"`
			Text string `json:"text"`
		} `json:"pages"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if got.PageCount != 2 || len(got.Pages) != 2 || got.Pages[1].N != 2 || got.Pages[1].Text != "Next meeting: 3 March." ||
		!got.PublishedAt.Equal(time.Date(2026, 2, 3, 14, 0, 0, 0, time.UTC)) {
		t.Errorf("--json = %+v", got)
	}
}

func TestReadCommandRefuses(t *testing.T) {
	srv := readPageServer(t)
	code, out, errs := readRun(t, nil, "read", srv.URL+"/canteen")
	if code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	if out != "" || !strings.Contains(errs, "factbot read: refused: 127.0.0.1 is a loopback address") || !strings.Contains(errs, "FACTBOT_ALLOW_PRIVATE_FETCH=1") {
		t.Errorf("stdout %q stderr %q", out, errs)
	}

	code, out, _ = readRun(t, nil, "read", "--json", "http://169.254.169.254/latest/meta-data/")
	var got map[string]any
	if code != exitFailed || json.Unmarshal([]byte(out), &got) != nil || got["refused"] != true ||
		got["error"] != "refused: 169.254.169.254 is the cloud metadata address" {
		t.Errorf("--json refusal: exit %d, output %s", code, out)
	}

	code, _, errs = readRun(t, nil, "read", "file:///etc/passwd")
	if code != exitFailed || !strings.Contains(errs, "only http and https") {
		t.Errorf("file URL: exit %d stderr %q", code, errs)
	}
}

func TestReadCommandUsage(t *testing.T) {
	for _, args := range [][]string{{"read"}, {"read", "a", "b"}, {"read", "--bogus", "http://x"}, {"read", "  "}} {
		if code, _, errs := readRun(t, nil, args...); code != exitUsage || errs == "" {
			t.Errorf("%q: exit %d stderr %q, want %d and a message", args, code, errs, exitUsage)
		}
	}
	if code, out, errs := readRun(t, nil, "read", "-h"); code != exitOK || errs != "" || !strings.Contains(out, "Usage: factbot read") {
		t.Errorf("-h: exit %d stdout %q stderr %q; want the usage on stdout", code, out, errs)
	}
}
