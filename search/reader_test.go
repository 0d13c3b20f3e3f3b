package search

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fakeResolver answers from a table, like DNS would.
type fakeResolver map[string][]string

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	addrs, ok := f[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var out []netip.Addr
	for _, a := range addrs {
		out = append(out, netip.MustParseAddr(a))
	}
	return out, nil
}

var testResolver = fakeResolver{
	"news.example":     {"93.184.216.34"},
	"other.example":    {"2606:2800:220:1:248:1893:25c8:1946"},
	"internal.example": {"10.0.0.1"},
	"mixed.example":    {"93.184.216.34", "192.168.0.5"},
	"meta.example":     {"169.254.169.254"},
	"v6local.example":  {"fd12:3456::1"},
}

// dialTo returns a Dial that connects every allowed address to srv, so a
// local test server can stand in for public hosts.
func dialTo(srv *httptest.Server) DialFunc {
	addr := srv.Listener.Addr().String()
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
}

// noDial fails the test if a connection is ever attempted.
func noDial(t *testing.T) DialFunc {
	return func(_ context.Context, _, addr string) (net.Conn, error) {
		t.Errorf("dialled %s; want refusal before any connection", addr)
		return nil, errors.New("test: no dial")
	}
}

func TestReaderRefuses(t *testing.T) {
	tests := []struct {
		url  string
		want string
	}{
		{"file:///etc/passwd", "refused: only http and https addresses can be read, not file:"},
		{"ftp://news.example/x", "refused: only http and https addresses can be read, not ftp:"},
		{"gopher://news.example/", "refused: only http and https addresses can be read, not gopher:"},
		{"news.example/page", `refused: "news.example/page" is not a web address (it needs http:// or https://)`},
		{"http:///nohost", `refused: "http:///nohost" has no host name`},
		{"http://user:secret@news.example/", "refused: addresses with a user name or password in them are not read"},
		{"http://localhost/", "refused: localhost resolves to 127.0.0.1, which is a loopback address"},
		{"http://LOCALHOST./admin", "refused: LOCALHOST. resolves to 127.0.0.1, which is a loopback address"},
		{"http://app.localhost:8080/", "refused: app.localhost resolves to 127.0.0.1, which is a loopback address"},
		{"http://127.0.0.1/", "refused: 127.0.0.1 is a loopback address"},
		{"http://127.8.9.10:8080/", "refused: 127.8.9.10 is a loopback address"},
		{"http://2130706433/", "refused: 2130706433 means 127.0.0.1, which is a loopback address"},
		{"http://0177.0.0.1/", "refused: 0177.0.0.1 means 127.0.0.1, which is a loopback address"},
		{"http://0x7f.0.0.1/", "refused: 0x7f.0.0.1 means 127.0.0.1, which is a loopback address"},
		{"http://0x7f000001/", "refused: 0x7f000001 means 127.0.0.1, which is a loopback address"},
		{"http://127.1/", "refused: 127.1 means 127.0.0.1, which is a loopback address"},
		{"http://[::1]/", "refused: ::1 is a loopback address"},
		{"http://[::ffff:127.0.0.1]/", "refused: ::ffff:127.0.0.1 means 127.0.0.1, which is a loopback address"},
		{"http://[::ffff:7f00:1]/", "refused: ::ffff:7f00:1 means 127.0.0.1, which is a loopback address"},
		{"http://10.0.0.1/", "refused: 10.0.0.1 is a private address"},
		{"http://012.0.0.1/", "refused: 012.0.0.1 means 10.0.0.1, which is a private address"},
		{"http://172.16.5.4/", "refused: 172.16.5.4 is a private address"},
		{"http://192.168.1.1/", "refused: 192.168.1.1 is a private address"},
		{"http://[::ffff:10.0.0.1]/", "refused: ::ffff:10.0.0.1 means 10.0.0.1, which is a private address"},
		{"http://[fc00::1]/", "refused: fc00::1 is a private address"},
		{"http://[fd12:3456::1]/", "refused: fd12:3456::1 is a private address"},
		{"http://169.254.169.254/latest/meta-data/", "refused: 169.254.169.254 is the cloud metadata address"},
		{"http://[::ffff:169.254.169.254]/", "refused: ::ffff:169.254.169.254 means 169.254.169.254, which is the cloud metadata address"},
		{"http://[fd00:ec2::254]/", "refused: fd00:ec2::254 is the cloud metadata address"},
		{"http://169.254.1.2/", "refused: 169.254.1.2 is a link-local address"},
		{"http://[fe80::1]/", "refused: fe80::1 is a link-local address"},
		{"http://100.64.0.1/", "refused: 100.64.0.1 is a shared carrier-grade NAT address"},
		{"http://224.0.0.1/", "refused: 224.0.0.1 is a multicast address"},
		{"http://[ff02::1]/", "refused: ff02::1 is a multicast address"},
		{"http://0.0.0.0/", "refused: 0.0.0.0 is an unspecified address"},
		{"http://0/", "refused: 0 means 0.0.0.0, which is an unspecified address"},
		{"http://[::]/", "refused: :: is an unspecified address"},
		{"http://255.255.255.255/", "refused: 255.255.255.255 is a broadcast address"},
		{"http://240.0.0.1/", "refused: 240.0.0.1 is a reserved or special-purpose address"},
		{"http://192.0.2.1/", "refused: 192.0.2.1 is a reserved or special-purpose address"},
		{"http://[64:ff9b::7f00:1]/", "refused: 64:ff9b::7f00:1 is a reserved or special-purpose address"},
		{"http://internal.example/", "refused: internal.example resolves to 10.0.0.1, which is a private address"},
		{"http://mixed.example/", "refused: mixed.example resolves to 192.168.0.5, which is a private address"},
		{"http://meta.example/", "refused: meta.example resolves to 169.254.169.254, which is the cloud metadata address"},
		{"https://v6local.example/", "refused: v6local.example resolves to fd12:3456::1, which is a private address"},
	}
	r := NewReader(ReaderOptions{Resolver: testResolver, Dial: noDial(t)})
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			_, err := r.Read(context.Background(), tc.url)
			var refused *RefusedError
			if !errors.As(err, &refused) {
				t.Fatalf("Read(%q) err = %v, want *RefusedError", tc.url, err)
			}
			if err.Error() != tc.want {
				t.Errorf("Read(%q):\n got %q\nwant %q", tc.url, err.Error(), tc.want)
			}
			if refused.URL == "" {
				t.Errorf("RefusedError.URL is empty")
			}
		})
	}
}

// TestReaderRefusesSystemLocalhost resolves "localhost" without an
// injected resolver: the guard must not depend on what DNS says.
func TestReaderRefusesSystemLocalhost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request reached the local server")
	}))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	for _, u := range []string{srv.URL, fmt.Sprintf("http://localhost:%d/", port)} {
		_, err := NewReader(ReaderOptions{}).Read(context.Background(), u)
		var refused *RefusedError
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("Read(%s) err = %v, want a loopback refusal", u, err)
		}
	}
}

const articleHTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Tower grows six metres | Example News</title>
<meta property="og:site_name" content="Example News">
<meta name="author" content="Jane Reporter">
<meta property="article:published_time" content="2024-02-12T10:00:00Z">
</head><body>
<nav><a href="/">Home</a> <a href="/world">World</a> <a href="/sport">Sport</a></nav>
<div class="ad">Buy now! Limited offer!</div>
<article><h1>Tower grows six metres</h1>
<p>The Eiffel Tower in Paris grew by six metres on Tuesday when engineers fitted a new digital radio antenna to its top, officials said.</p>
<p>The addition brings the landmark's height to 330 metres, according to the company that runs the monument, which said the work took ten minutes by helicopter.</p>
<p>The tower was built for the 1889 World's Fair and was at the time the tallest man-made structure in the world, a title it held for four decades.</p>
</article>
<footer>© 2024 Example News. All rights reserved.</footer>
</body></html>`

func TestReaderReadsArticle(t *testing.T) {
	var ua atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.Header.Get("User-Agent"))
		switch r.URL.Path {
		case "/start":
			http.Redirect(w, r, "http://other.example/story?id=7", http.StatusFound)
		case "/story":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, articleHTML)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	r := NewReader(ReaderOptions{Resolver: testResolver, Dial: dialTo(srv), Now: func() time.Time { return now }})
	p, err := r.Read(context.Background(), "http://news.example/start")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(articleHTML))
	want := &Page{
		URL:         "http://news.example/start",
		FinalURL:    "http://other.example/story?id=7",
		Title:       "Tower grows six metres", // the headline; the site's name is in Site
		Site:        "Example News",
		Byline:      "Jane Reporter",
		Published:   "2024-02-12T10:00:00Z",
		PublishedAt: time.Date(2024, 2, 12, 10, 0, 0, 0, time.UTC),
		FetchedAt:   now,
		SHA256:      hex.EncodeToString(sum[:]),
		Bytes:       len(articleHTML),
	}
	if d := cmp.Diff(want, p, cmpopts.IgnoreFields(Page{}, "Text")); d != "" {
		t.Errorf("page (-want +got):\n%s", d)
	}
	for _, s := range []string{"grew by six metres", "330 metres", "1889 World's Fair"} {
		if !strings.Contains(p.Text, s) {
			t.Errorf("text lacks %q:\n%s", s, p.Text)
		}
	}
	for _, s := range []string{"Buy now", "All rights reserved", "Sport"} {
		if strings.Contains(p.Text, s) {
			t.Errorf("text keeps boilerplate %q:\n%s", s, p.Text)
		}
	}
	if got := ua.Load(); got != UserAgent {
		t.Errorf("User-Agent = %q, want %q", got, UserAgent)
	}
}

func TestReaderRedirects(t *testing.T) {
	var privateHits atomic.Int32
	private := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		privateHits.Add(1)
		io.WriteString(w, "secret")
	}))
	defer private.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/to-internal":
			http.Redirect(w, r, "http://internal.example/admin", http.StatusFound)
		case r.URL.Path == "/to-loopback":
			http.Redirect(w, r, private.URL+"/admin", http.StatusMovedPermanently)
		case r.URL.Path == "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/iam", http.StatusTemporaryRedirect)
		case r.URL.Path == "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case strings.HasPrefix(r.URL.Path, "/hop/"):
			var n int
			fmt.Sscanf(r.URL.Path, "/hop/%d", &n)
			if n > 0 {
				http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
				return
			}
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "arrived")
		}
	}))
	defer srv.Close()
	r := NewReader(ReaderOptions{Resolver: testResolver, Dial: dialTo(srv)})

	refusals := []struct{ path, want string }{
		{"/to-internal", "refused: internal.example resolves to 10.0.0.1, which is a private address"},
		{"/to-loopback", "refused: 127.0.0.1 is a loopback address"},
		{"/to-metadata", "refused: 169.254.169.254 is the cloud metadata address"},
		{"/to-file", "refused: only http and https addresses can be read, not file:"},
		{"/hop/6", "refused: the page redirected more than 5 times"},
	}
	for _, tc := range refusals {
		_, err := r.Read(context.Background(), "http://news.example"+tc.path)
		var refused *RefusedError
		if !errors.As(err, &refused) || err.Error() != tc.want {
			t.Errorf("Read(%s) err = %v, want %q", tc.path, err, tc.want)
		}
	}
	if n := privateHits.Load(); n != 0 {
		t.Errorf("private server got %d requests, want 0", n)
	}
	p, err := r.Read(context.Background(), "http://news.example/hop/5")
	if err != nil {
		t.Fatalf("five redirects: %v", err)
	}
	if p.Text != "arrived" || p.FinalURL != "http://news.example/hop/0" {
		t.Errorf("five redirects: text %q, final %q", p.Text, p.FinalURL)
	}
}

func TestReaderAllowPrivate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "Intranet notice\n\n\n\n  The canteen opens at nine.  \n")
	}))
	defer srv.Close()
	p, err := NewReader(ReaderOptions{AllowPrivate: true}).Read(context.Background(), srv.URL+"/notice.txt")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Intranet notice\n\nThe canteen opens at nine."; p.Text != want || p.Title != "Intranet notice" {
		t.Errorf("text %q title %q, want text %q", p.Text, p.Title, want)
	}
	// The scheme check stays on.
	_, err = NewReader(ReaderOptions{AllowPrivate: true}).Read(context.Background(), "file:///etc/passwd")
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Errorf("file URL with AllowPrivate: err = %v, want refusal", err)
	}
}

func TestReaderLimitsAndTypes(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	big := "<html><body><article><p>" + strings.Repeat("Lorem ipsum dolor sit amet. ", 400) + "</p></article></body></html>"
	latin1 := []byte("<html><head><meta charset=\"iso-8859-1\"><title>Caf\xe9</title></head><body><p>Cr\xe8me br\xfbl\xe9e costs four euros.</p></body></html>")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, big)
		case "/pdf":
			w.Header().Set("Content-Type", "application/pdf")
			io.WriteString(w, "%PDF-1.7")
		case "/image":
			w.Header().Set("Content-Type", "image/png")
		case "/download":
			w.Header().Set("Content-Type", "application/octet-stream")
			io.WriteString(w, "\x00\x01binary")
		case "/untyped":
			w.Header()["Content-Type"] = nil
			io.WriteString(w, "<!DOCTYPE html><html><head><title>Sniffed</title></head><body><p>Hello.</p></body></html>")
		case "/latin1":
			w.Header().Set("Content-Type", "text/html; charset=ISO-8859-1")
			w.Write(latin1)
		case "/missing":
			http.NotFound(w, r)
		case "/slow":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	}))
	defer srv.Close()
	r := NewReader(ReaderOptions{Resolver: testResolver, Dial: dialTo(srv), MaxBytes: 1000, Timeout: 200 * time.Millisecond})
	ctx := context.Background()

	p, err := r.Read(ctx, "http://news.example/big")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Truncated || p.Bytes != 1000 {
		t.Errorf("big page: truncated %v, bytes %d; want true, 1000", p.Truncated, p.Bytes)
	}

	for _, path := range []string{"/image", "/download"} {
		_, err = r.Read(ctx, "http://news.example"+path)
		var refused *RefusedError
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), "only HTML, plain-text and PDF documents can be read") {
			t.Errorf("%s: err = %v, want type refusal", path, err)
		}
	}
	// A PDF is read; this one is only a header.
	_, err = r.Read(ctx, "http://news.example/pdf")
	if err == nil || !strings.Contains(err.Error(), "the PDF could not be read") {
		t.Errorf("/pdf: err = %v, want a PDF read error", err)
	}

	p, err = r.Read(ctx, "http://news.example/untyped")
	if err != nil || p.Title != "Sniffed" {
		t.Errorf("untyped: page %+v, err %v", p, err)
	}

	p, err = r.Read(ctx, "http://news.example/latin1")
	if err != nil || p.Title != "Café" || !strings.Contains(p.Text, "Crème brûlée") {
		t.Errorf("latin1: title %q text %q err %v", p.Title, p.Text, err)
	}

	_, err = r.Read(ctx, "http://news.example/missing")
	var refused *RefusedError
	if err == nil || errors.As(err, &refused) || !strings.Contains(err.Error(), "HTTP 404 Not Found") {
		t.Errorf("missing: err = %v, want an HTTP 404 error that is not a refusal", err)
	}

	_, err = r.Read(ctx, "http://news.example/slow")
	if err == nil || !strings.Contains(err.Error(), "no complete answer within 200ms") {
		t.Errorf("slow: err = %v, want time cap error", err)
	}
}

func TestParseLegacyIPv4(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" for not an address
	}{
		{"2130706433", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"0x7f.0x0.0x0.0x1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"10.1", "10.0.0.1"},
		{"0x0a000001", "10.0.0.1"},
		{"1.2.3.4.", "1.2.3.4"},
		{"4294967295", "255.255.255.255"},
		{"4294967296", ""},
		{"256.1.1.1", ""},
		{"1.2.3.4.5", ""},
		{"08.1.1.1", ""},
		{"example.com", ""},
		{"1.example", ""},
		{"", ""},
	}
	for _, tc := range tests {
		ip, ok := parseLegacyIPv4(tc.in)
		got := ""
		if ok {
			got = ip.String()
		}
		if got != tc.want {
			t.Errorf("parseLegacyIPv4(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
