package admin

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

// Data is what the commands that read history (history, show, export,
// web) and factbot check (which saves its check and uses the caches) need
// of the database. *store.DB implements it, and so does *Client, through
// the server that holds the database, so that every command works while
// 'factbot serve' runs: serve stays the file's one writer.
//
// The protocol adds to the maintenance calls (see the package comment):
//
//	POST /check      {"tenant", "id"}                  → store.Check (404 if none)
//	POST /history    {"tenant", "query"}               → []store.CheckSummary
//	POST /page       {"sha256"}                        → search.Page (404 if none)
//	POST /checks     {"tenant"}                        → JSON lines: {"check": …} …, then {"end": true} or {"error": "…"}
//	POST /save-check store.Check                       → the saved store.Check (with its id)
//	POST /verdict    {"tenant", "claim", "max_age"}    → {"verdict", "ok"}
//	POST /put-verdict {"tenant", "verdict"}            → {}
//	POST /extraction {"tenant", "text", "max_age"}     → {"extraction", "ok"}
//	POST /put-extraction {"tenant", "text", "extraction"} → {}
//	POST /cache-get  {"bucket", "key"}                 → {"value", "stored", "ok"}
//	POST /cache-put  {"bucket", "key", "value"}        → {}
type Data interface {
	Check(ctx context.Context, tenant, id string) (*store.Check, error)
	History(ctx context.Context, tenant string, q store.HistoryQuery) ([]store.CheckSummary, error)
	PageSnapshot(ctx context.Context, sha256 string) (*search.Page, error)
	EachCheck(ctx context.Context, tenant string, fn func(*store.Check) error) error
	SaveCheck(ctx context.Context, c *store.Check) error
	factcheck.Cache
	search.Cache
}

// Backend is a database as a command holds it: maintenance and data, and
// Close. *store.DB and *Client implement it.
type Backend interface {
	Store
	Data
	Close() error
}

var (
	_ Backend = (*store.DB)(nil)
	_ Backend = (*Client)(nil)
)

type checkRequest struct {
	Tenant string `json:"tenant"`
	ID     string `json:"id"`
}

type historyRequest struct {
	Tenant string             `json:"tenant"`
	Query  store.HistoryQuery `json:"query"`
}

type pageRequest struct {
	SHA256 string `json:"sha256"`
}

type tenantRequest struct {
	Tenant string `json:"tenant"`
}

// checkLine is one line of POST /checks.
type checkLine struct {
	Check *store.Check `json:"check,omitempty"`
	End   bool         `json:"end,omitempty"`
	Error string       `json:"error,omitempty"`
}

type cachedRequest struct {
	Tenant string        `json:"tenant"`
	Claim  string        `json:"claim,omitempty"`
	Text   string        `json:"text,omitempty"`
	MaxAge time.Duration `json:"max_age"`
}

type verdictAnswer struct {
	Verdict *factcheck.Verdict `json:"verdict"`
	OK      bool               `json:"ok"`
	refsAnswer
}

// refsAnswer carries the cache records a cache call read or wrote, which
// the client tells the call's recorder (search.Recorder).
type refsAnswer struct {
	Refs []store.CacheRef `json:"refs,omitempty"`
}

// tell tells rec, if any, of the records the server named.
func (a refsAnswer) tell(rec search.Recorder) {
	if rec == nil {
		return
	}
	for _, r := range a.Refs {
		rec.Record(r.Kind, r.Key)
	}
}

type putVerdictRequest struct {
	Tenant  string             `json:"tenant"`
	Verdict *factcheck.Verdict `json:"verdict"`
}

type extractionAnswer struct {
	Extraction *factcheck.Extraction `json:"extraction"`
	OK         bool                  `json:"ok"`
	refsAnswer
}

type putExtractionRequest struct {
	Tenant     string                `json:"tenant"`
	Text       string                `json:"text"`
	Extraction *factcheck.Extraction `json:"extraction"`
}

type cacheRequest struct {
	Bucket string          `json:"bucket"`
	Key    string          `json:"key"`
	Value  json.RawMessage `json:"value,omitempty"`
}

type cacheAnswer struct {
	Value  json.RawMessage `json:"value"`
	Stored time.Time       `json:"stored"`
	OK     bool            `json:"ok"`
	refsAnswer
}

// maxDataBody bounds the body of a Data call: a check with its sources
// and trace, or a page for the cache, is far larger than a maintenance
// call.
const maxDataBody = 64 << 20

// dataRoutes adds the Data calls to mux.
func dataRoutes(mux *http.ServeMux, d Data) {
	route(mux, "/check", func(ctx context.Context, q checkRequest) (any, error) { return d.Check(ctx, q.Tenant, q.ID) })
	route(mux, "/history", func(ctx context.Context, q historyRequest) (any, error) {
		return d.History(ctx, q.Tenant, q.Query)
	})
	route(mux, "/page", func(ctx context.Context, q pageRequest) (any, error) { return d.PageSnapshot(ctx, q.SHA256) })
	route(mux, "/save-check", func(ctx context.Context, c store.Check) (any, error) {
		err := d.SaveCheck(ctx, &c)
		return &c, err
	})
	// The cache calls tell a recorder of the call's own, and answer with
	// what it was told.
	route(mux, "/verdict", func(ctx context.Context, q cachedRequest) (any, error) {
		rec := store.NewCacheRecorder()
		v, ok, err := d.Verdict(ctx, q.Tenant, q.Claim, q.MaxAge, rec)
		return verdictAnswer{v, ok, refsAnswer{rec.Refs()}}, err
	})
	route(mux, "/put-verdict", func(ctx context.Context, q putVerdictRequest) (any, error) {
		rec := store.NewCacheRecorder()
		err := d.PutVerdict(ctx, q.Tenant, q.Verdict, rec)
		return refsAnswer{rec.Refs()}, err
	})
	route(mux, "/extraction", func(ctx context.Context, q cachedRequest) (any, error) {
		rec := store.NewCacheRecorder()
		x, ok, err := d.Extraction(ctx, q.Tenant, q.Text, q.MaxAge, rec)
		return extractionAnswer{x, ok, refsAnswer{rec.Refs()}}, err
	})
	route(mux, "/put-extraction", func(ctx context.Context, q putExtractionRequest) (any, error) {
		rec := store.NewCacheRecorder()
		err := d.PutExtraction(ctx, q.Tenant, q.Text, q.Extraction, rec)
		return refsAnswer{rec.Refs()}, err
	})
	route(mux, "/cache-get", func(ctx context.Context, q cacheRequest) (any, error) {
		rec := store.NewCacheRecorder()
		v, at, ok, err := d.Get(ctx, q.Bucket, q.Key, rec)
		return cacheAnswer{v, at, ok, refsAnswer{rec.Refs()}}, err
	})
	route(mux, "/cache-put", func(ctx context.Context, q cacheRequest) (any, error) {
		rec := store.NewCacheRecorder()
		err := d.Put(ctx, q.Bucket, q.Key, q.Value, rec)
		return refsAnswer{rec.Refs()}, err
	})
	mux.HandleFunc("POST /checks", func(w http.ResponseWriter, r *http.Request) { eachCheck(w, r, d) })
}

// route serves POST path: the body decoded as Q, fn's answer as JSON; an
// error wrapping store.ErrNotFound answers 404.
func route[Q any](mux *http.ServeMux, path string, fn func(context.Context, Q) (any, error)) {
	mux.HandleFunc("POST "+path, func(w http.ResponseWriter, r *http.Request) {
		var q Q
		if !readJSONUpTo(w, r, &q, maxDataBody) {
			return
		}
		v, err := fn(r.Context(), q)
		if errors.Is(err, store.ErrNotFound) {
			writeError(w, http.StatusNotFound, err)
			return
		}
		reply(w, v, err)
	})
}

// eachCheck streams a tenant's checks as JSON lines, ending with a line
// that says whether the walk ended or failed.
func eachCheck(w http.ResponseWriter, r *http.Request, d Data) {
	var q tenantRequest
	if !readJSON(w, r, &q) {
		return
	}
	w.Header().Set("Content-Type", "application/jsonl")
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	err := d.EachCheck(r.Context(), q.Tenant, func(c *store.Check) error { return enc.Encode(checkLine{Check: c}) })
	end := checkLine{End: err == nil}
	if err != nil {
		end.Error = err.Error()
	}
	enc.Encode(end)
	bw.Flush()
}

// Check implements Data through the server.
func (c *Client) Check(ctx context.Context, tenant, id string) (*store.Check, error) {
	var out store.Check
	if err := c.call(ctx, "/check", checkRequest{tenant, id}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// History implements Data through the server.
func (c *Client) History(ctx context.Context, tenant string, q store.HistoryQuery) ([]store.CheckSummary, error) {
	var out []store.CheckSummary
	err := c.call(ctx, "/history", historyRequest{tenant, q}, &out)
	return out, err
}

// PageSnapshot implements Data through the server.
func (c *Client) PageSnapshot(ctx context.Context, sha256 string) (*search.Page, error) {
	var out search.Page
	if err := c.call(ctx, "/page", pageRequest{sha256}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SaveCheck implements Data through the server, which assigns the id.
func (c *Client) SaveCheck(ctx context.Context, ck *store.Check) error {
	var out store.Check
	if err := c.call(ctx, "/save-check", ck, &out); err != nil {
		return err
	}
	*ck = out
	return nil
}

// Verdict implements factcheck.Cache through the server, telling rec of
// what the server's store read.
func (c *Client) Verdict(ctx context.Context, tenant, claim string, maxAge time.Duration, rec search.Recorder) (*factcheck.Verdict, bool, error) {
	var out verdictAnswer
	err := c.call(ctx, "/verdict", cachedRequest{Tenant: tenant, Claim: claim, MaxAge: maxAge}, &out)
	out.tell(rec)
	return out.Verdict, out.OK, err
}

// PutVerdict implements factcheck.Cache through the server.
func (c *Client) PutVerdict(ctx context.Context, tenant string, v *factcheck.Verdict, rec search.Recorder) error {
	var out refsAnswer
	err := c.call(ctx, "/put-verdict", putVerdictRequest{tenant, v}, &out)
	out.tell(rec)
	return err
}

// Extraction implements factcheck.Cache through the server.
func (c *Client) Extraction(ctx context.Context, tenant, text string, maxAge time.Duration, rec search.Recorder) (*factcheck.Extraction, bool, error) {
	var out extractionAnswer
	err := c.call(ctx, "/extraction", cachedRequest{Tenant: tenant, Text: text, MaxAge: maxAge}, &out)
	out.tell(rec)
	return out.Extraction, out.OK, err
}

// PutExtraction implements factcheck.Cache through the server.
func (c *Client) PutExtraction(ctx context.Context, tenant, text string, x *factcheck.Extraction, rec search.Recorder) error {
	var out refsAnswer
	err := c.call(ctx, "/put-extraction", putExtractionRequest{tenant, text, x}, &out)
	out.tell(rec)
	return err
}

// Get implements search.Cache through the server.
func (c *Client) Get(ctx context.Context, bucket, key string, rec search.Recorder) ([]byte, time.Time, bool, error) {
	var out cacheAnswer
	err := c.call(ctx, "/cache-get", cacheRequest{Bucket: bucket, Key: key}, &out)
	out.tell(rec)
	if err != nil || !out.OK {
		return nil, time.Time{}, false, err
	}
	return out.Value, out.Stored, true, nil
}

// Put implements search.Cache through the server.
func (c *Client) Put(ctx context.Context, bucket, key string, val []byte, rec search.Recorder) error {
	if !json.Valid(val) {
		return fmt.Errorf("store: web cache value for %s is not JSON", bucket)
	}
	var out refsAnswer
	err := c.call(ctx, "/cache-put", cacheRequest{Bucket: bucket, Key: key, Value: val}, &out)
	out.tell(rec)
	return err
}

// EachCheck implements Data through the server, calling fn for each check
// as it arrives.
func (c *Client) EachCheck(ctx context.Context, tenant string, fn func(*store.Check) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the server's walk if fn fails
	r, err := c.post(ctx, "/checks", tenantRequest{tenant})
	if err != nil {
		return err
	}
	defer r.Body.Close()
	dec := json.NewDecoder(r.Body)
	for {
		var l checkLine
		if err := dec.Decode(&l); err != nil {
			return fmt.Errorf("admin socket %s: the list of checks ended early: %w", c.path, err)
		}
		switch {
		case l.Error != "":
			return fmt.Errorf("factbot serve: %s", l.Error)
		case l.End:
			return nil
		case l.Check != nil:
			if err := fn(l.Check); err != nil {
				return err
			}
		}
	}
}
