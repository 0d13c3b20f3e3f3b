package search

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// Reader defaults.
const (
	// UserAgent names factbot to the sites it reads.
	UserAgent           = "factbot/1.0 (+https://github.com/factbot-dev/factbot)"
	DefaultMaxPageBytes = 2 << 20
	DefaultReadTimeout  = 15 * time.Second
	DefaultMaxRedirects = 5
)

// ReaderOptions configures a Reader. The zero value is safe: private
// addresses refused, 2 MiB, 15 s, 5 redirects, no cache.
type ReaderOptions struct {
	// MaxBytes caps the body read; the rest is dropped and the page is
	// marked Truncated. 0 means DefaultMaxPageBytes.
	MaxBytes int64
	// Timeout caps one whole read, redirects and body included. 0 means
	// DefaultReadTimeout.
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed; 0 means
	// DefaultMaxRedirects, negative means none.
	MaxRedirects int
	// UserAgent overrides the User-Agent header; empty means UserAgent.
	UserAgent string
	// AllowPrivate lifts the address check (FACTBOT_ALLOW_PRIVATE_FETCH=1):
	// loopback, private and link-local addresses may be read. Scheme,
	// redirect, size and time limits still apply.
	AllowPrivate bool
	// Resolver looks up host names; nil means net.DefaultResolver.
	Resolver Resolver
	// Dial opens connections to addresses already resolved and checked;
	// nil means a net.Dialer. Tests use it to reach local servers under
	// public-looking addresses.
	Dial DialFunc
	// Cache, if set, keeps pages (bucket PageBucket) for CacheTTL.
	Cache Cache
	// CacheTTL is how long a cached page stays fresh; 0 means
	// DefaultPageTTL.
	CacheTTL time.Duration
	// ExtractTimeout caps the time spent extracting the text of a page
	// once its body is read; 0 means DefaultExtractTimeout.
	ExtractTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Reader fetches pages and extracts their main text, refusing addresses
// it must not reach. It is safe for concurrent use.
type Reader struct {
	opts   ReaderOptions
	client *http.Client
}

// NewReader returns a Reader with the given options.
func NewReader(opts ReaderOptions) *Reader {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxPageBytes
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultReadTimeout
	}
	if opts.MaxRedirects == 0 {
		opts.MaxRedirects = DefaultMaxRedirects
	} else if opts.MaxRedirects < 0 {
		opts.MaxRedirects = 0
	}
	if opts.UserAgent == "" {
		opts.UserAgent = UserAgent
	}
	if opts.Resolver == nil {
		opts.Resolver = net.DefaultResolver
	}
	if opts.Dial == nil {
		opts.Dial = (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}
	if opts.CacheTTL <= 0 {
		opts.CacheTTL = DefaultPageTTL
	}
	if opts.ExtractTimeout <= 0 {
		opts.ExtractTimeout = DefaultExtractTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	d := &guardedDialer{resolver: opts.Resolver, dial: opts.Dial, allowPrivate: opts.AllowPrivate}
	tr := &http.Transport{
		Proxy:                 nil, // a proxy would be dialled instead of the page's host
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: opts.Timeout,
		MaxIdleConns:          20,
		IdleConnTimeout:       30 * time.Second,
	}
	r := &Reader{opts: opts}
	r.client = &http.Client{Transport: tr, CheckRedirect: r.checkRedirect}
	return r
}

func (r *Reader) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > r.opts.MaxRedirects {
		return &RefusedError{URL: req.URL.String(), Reason: fmt.Sprintf("the page redirected more than %d times", r.opts.MaxRedirects)}
	}
	return checkURL(req.URL)
}

// ReadPage implements the engine's Reader: the web needs only the URL
// (the engine applies the request's restriction to what it reads).
func (r *Reader) ReadPage(ctx context.Context, req PageRequest) (*Page, error) {
	return r.read(ctx, req.URL, req.Recorder)
}

// Read fetches rawURL and extracts its title, metadata and main text.
// A URL it will not fetch gives a *RefusedError saying why.
func (r *Reader) Read(ctx context.Context, rawURL string) (*Page, error) {
	return r.read(ctx, rawURL, nil)
}

// read is Read, telling rec of the cache records it reads or writes.
func (r *Reader) read(ctx context.Context, rawURL string, rec Recorder) (*Page, error) {
	rawURL = strings.TrimSpace(rawURL)
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, &RefusedError{URL: rawURL, Reason: fmt.Sprintf("%q is not a valid address", rawURL)}
	}
	if err := checkURL(u); err != nil {
		return nil, err
	}
	if r.opts.Cache != nil {
		if p := r.fromCache(ctx, r.cacheKey(rawURL), rec); p != nil {
			return p, nil
		}
	}
	p, err := r.fetch(ctx, rawURL, u)
	if err != nil {
		return nil, err
	}
	if r.opts.Cache != nil {
		if val, err := json.Marshal(p); err == nil {
			_ = r.opts.Cache.Put(ctx, PageBucket, r.cacheKey(rawURL), val, rec) // a failing cache only costs a refetch
		}
	}
	return p, nil
}

// cacheKey keeps pages read with the address check lifted apart from the
// others: a reader that checks addresses must never be served a page that
// only an unchecked read could reach.
func (r *Reader) cacheKey(rawURL string) string {
	if r.opts.AllowPrivate {
		return "allow-private " + rawURL
	}
	return rawURL
}

func (r *Reader) fromCache(ctx context.Context, key string, rec Recorder) *Page {
	val, stored, ok, err := r.opts.Cache.Get(ctx, PageBucket, key, rec)
	if err != nil || !ok || r.opts.Now().Sub(stored) >= r.opts.CacheTTL {
		return nil
	}
	var p Page
	if json.Unmarshal(val, &p) != nil {
		return nil
	}
	p.Cached = true
	return &p
}

func (r *Reader) fetch(parent context.Context, rawURL string, u *url.URL) (*Page, error) {
	ctx, cancel := context.WithTimeout(parent, r.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &RefusedError{URL: rawURL, Reason: fmt.Sprintf("%q is not a valid address", rawURL)}
	}
	req.Header.Set("User-Agent", r.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.1")
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, r.fetchError(parent, ctx, rawURL, err)
	}
	defer resp.Body.Close()
	final := resp.Request.URL
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("reading %s: the site answered HTTP %d %s", final, resp.StatusCode, http.StatusText(resp.StatusCode))
	}

	ct := resp.Header.Get("Content-Type")
	kind, err := pageKind(final, ct)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, r.opts.MaxBytes+1))
	if err != nil {
		return nil, r.fetchError(parent, ctx, rawURL, err)
	}
	truncated := int64(len(body)) > r.opts.MaxBytes
	if truncated {
		body = body[:r.opts.MaxBytes]
	}
	switch {
	case kind == "binary" && isPDF(body):
		kind = "pdf"
	case kind == "binary":
		return nil, typeRefusal(final, mediaType(ct))
	case kind == "": // no Content-Type: sniff
		ct = http.DetectContentType(body)
		if isPDF(body) {
			ct = "application/pdf"
		}
		if kind, err = pageKind(final, ct); err != nil {
			return nil, err
		}
		if kind == "binary" {
			return nil, typeRefusal(final, mediaType(ct))
		}
	}
	if kind == "pdf" && truncated {
		return nil, fmt.Errorf("reading %s: the PDF is larger than the %d-byte size cap, and a PDF cannot be read in part", final, r.opts.MaxBytes)
	}
	sum := sha256.Sum256(body)
	p, err := extractBounded(parent, r.opts.ExtractTimeout, body, kind, ct, final)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", final, err)
	}
	p.URL = rawURL
	p.FinalURL = final.String()
	p.FetchedAt = r.opts.Now().UTC()
	p.SHA256 = hex.EncodeToString(sum[:])
	p.Bytes = len(body)
	p.Truncated = truncated
	return p, nil
}

// fetchError turns a transport error into a refusal or a plain message.
func (r *Reader) fetchError(parent, ctx context.Context, rawURL string, err error) error {
	var refused *RefusedError
	if errors.As(err, &refused) {
		if refused.URL == "" {
			refused.URL = rawURL
		}
		return refused
	}
	if perr := parent.Err(); perr != nil {
		return fmt.Errorf("reading %s: %w", rawURL, perr) // the caller gave up or ran out of time
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("reading %s: no complete answer within %s", rawURL, r.opts.Timeout)
	}
	return fmt.Errorf("reading %s: %w", rawURL, unwrapURLError(err))
}

// pageKind says how a content type is read: "html", "text", "pdf",
// "binary" for a generic binary type that is read only if the body turns
// out to be a PDF, or "" when there is no type to go by. Other types are
// refused.
func pageKind(u *url.URL, ct string) (string, error) {
	if strings.TrimSpace(ct) == "" {
		return "", nil
	}
	switch mt := mediaType(ct); mt {
	case "text/html", "application/xhtml+xml":
		return "html", nil
	case "text/plain", "text/markdown", "text/x-markdown":
		return "text", nil
	case "application/pdf", "application/x-pdf":
		return "pdf", nil
	case "application/octet-stream", "binary/octet-stream", "application/download", "application/force-download":
		if strings.HasSuffix(strings.ToLower(u.Path), ".pdf") {
			return "pdf", nil
		}
		return "binary", nil
	default:
		return "", typeRefusal(u, mt)
	}
}

func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0]))
	}
	return mt
}

func typeRefusal(u *url.URL, mt string) error {
	return &RefusedError{URL: u.String(), Reason: fmt.Sprintf("%s is %s, and only HTML, plain-text and PDF documents can be read", u, mt)}
}

// tidyText trims each line and keeps at most one blank line in a row, in
// one pass: the text is copied once.
func tidyText(s string) string {
	var t tidier
	t.b.Grow(len(s))
	for line := range strings.SplitSeq(s, "\n") {
		t.line(line)
	}
	return t.b.String()
}

// tidier builds tidyText's text one line at a time.
type tidier struct {
	b   strings.Builder
	gap bool // a blank line since the last line written
}

func (t *tidier) line(line string) {
	l := strings.TrimSpace(line)
	switch {
	case l == "":
		t.gap = t.b.Len() > 0
		return
	case t.b.Len() > 0 && t.gap:
		t.b.WriteString("\n\n")
	case t.b.Len() > 0:
		t.b.WriteByte('\n')
	}
	t.b.WriteString(l)
	t.gap = false
}

// metaCharset finds a charset declared in a <meta> tag, however far into
// the head it is.
var metaCharset = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.-]+)`)
})

// toUTF8 decodes body as the header, a byte-order mark or a <meta> tag
// says; with none of them, a body that is valid UTF-8 is read as UTF-8
// and any other as Windows-1252. Browsers look past the first kilobyte
// that the HTML prescan covers, and so does this.
func toUTF8(body []byte, contentType string) ([]byte, error) {
	enc, name, certain := charset.DetermineEncoding(body, contentType)
	if !certain {
		head := body[:min(len(body), 64<<10)]
		if m := metaCharset().FindSubmatch(head); m != nil {
			if e, n := charset.Lookup(string(m[1])); e != nil {
				enc, name = e, n
			}
		} else if utf8.Valid(body) {
			return body, nil
		}
	}
	if name == "utf-8" {
		return body, nil
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return body, nil // undecodable: read as is
	}
	return out, nil
}

func siteOf(u *url.URL) string {
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

func titleOf(doc *html.Node) string {
	var walk func(*html.Node) string
	walk = func(n *html.Node) string {
		if n.Type == html.ElementNode && n.Data == "title" {
			var b strings.Builder
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.TextNode {
					b.WriteString(c.Data)
				}
			}
			return strings.Join(strings.Fields(b.String()), " ")
		}
		if n.Type == html.ElementNode && n.Data == "body" {
			return ""
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if t := walk(c); t != "" {
				return t
			}
		}
		return ""
	}
	return walk(doc)
}
