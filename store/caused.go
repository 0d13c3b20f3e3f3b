package store

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
)

// CacheRef names one cache record that a request caused or used: an entry
// of its tenant's verdict or extraction cache, or of the shared web cache
// (search answers, pages) or page snapshots. Forget deletes what the
// forgotten person's checks and requests name.
type CacheRef struct {
	Kind string `json:"kind"` // RefVerdict, RefExtraction, RefWeb, RefSnapshot
	// Key is the record's key in its bucket: the normalised claim or text
	// (RefVerdict, RefExtraction), "<bucket>\x00<key>" (RefWeb), or the
	// page body's SHA-256 (RefSnapshot).
	Key string `json:"key"`
}

// CacheRef kinds.
const (
	RefVerdict    = "verdict"
	RefExtraction = "extraction"
	RefWeb        = "web"
	RefSnapshot   = "snapshot"
)

// refBucket is the bucket of each kind of CacheRef.
var refBucket = map[string][]byte{RefVerdict: bVerdicts, RefExtraction: bExtractions, RefWeb: bWebCache, RefSnapshot: bSnapshots}

// CacheRecorder collects the cache records that the store's cache methods
// (Verdict, PutVerdict, Extraction, PutExtraction, Get, Put) read or write
// for one request: it is the search.Recorder those methods are given. The
// chat core makes one for each check, passes it as the check's
// factcheck.Input.Recorder (the engine hands it to every cache call and
// search it makes), and saves rec.Refs() as the check's CacheRefs, so
// Forget can later find, e.g., the extraction of a linked page's text or
// the search answers of the person's claims:
//
//	rec := store.NewCacheRecorder()
//	rep, err := checker.Check(ctx, factcheck.Input{Text: text, Recorder: rec})
//	c.CacheRefs = rec.Refs()
//
// It is safe for concurrent use.
type CacheRecorder struct {
	mu   sync.Mutex
	seen map[CacheRef]bool
}

var _ search.Recorder = (*CacheRecorder)(nil)

// NewCacheRecorder returns an empty CacheRecorder.
func NewCacheRecorder() *CacheRecorder {
	return &CacheRecorder{seen: map[CacheRef]bool{}}
}

// Record implements search.Recorder: kind is a CacheRef kind, key the
// record's key in its bucket. An empty key names nothing.
func (r *CacheRecorder) Record(kind, key string) {
	if r == nil || key == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen[CacheRef{Kind: kind, Key: key}] = true
}

// Refs returns the records seen so far, sorted.
func (r *CacheRecorder) Refs() []CacheRef {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return sortedRefs(r.seen)
}

// sortedRefs returns the refs in set, sorted.
func sortedRefs(set map[CacheRef]bool) []CacheRef {
	return slices.SortedFunc(maps.Keys(set), func(a, b CacheRef) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Key, b.Key))
	})
}

// record tells rec, if any, of a cache record.
func record(rec search.Recorder, kind string, key []byte) {
	if rec != nil && len(key) > 0 {
		rec.Record(kind, string(key))
	}
}

// webRefs is what a set of records names in the shared web cache, before
// it is resolved to keys (see resolve): exact web cache keys, page URLs,
// search queries (normalised as package search does) and snapshots.
type webRefs struct {
	keys, urls, queries, snaps map[string]bool
}

func newWebRefs() *webRefs {
	return &webRefs{keys: map[string]bool{}, urls: map[string]bool{}, queries: map[string]bool{}, snaps: map[string]bool{}}
}

// addRefs adds the web records of recorded refs.
func (w *webRefs) addRefs(refs []CacheRef) {
	for _, r := range refs {
		switch r.Kind {
		case RefWeb:
			w.keys[r.Key] = true
		case RefSnapshot:
			w.snaps[r.Key] = true
		}
	}
}

// addRequest adds what a request names in the web cache: its recorded
// refs, and its input if that is only a link.
func (w *webRefs) addRequest(r *Request) {
	w.addRefs(r.CacheRefs)
	if u := factcheck.OnlyURL(r.Text); u != "" {
		w.urls[u] = true
	}
}

// addCheck adds what a check names in the web cache: what its request
// names, the URLs and page hashes of its sources, and the queries and
// pages of its verdicts' traces.
func (w *webRefs) addCheck(c *Check) {
	w.addRequest(&Request{Text: c.Text, CacheRefs: c.CacheRefs})
	if c.Report == nil {
		return
	}
	w.addTrace(c.Report.Trace)
	for _, v := range c.Report.Claims {
		w.addVerdict(v)
	}
}

// addVerdict adds the sources and trace of a verdict.
func (w *webRefs) addVerdict(v *factcheck.Verdict) {
	if v == nil {
		return
	}
	for _, s := range v.Sources {
		if s.URL != "" {
			w.urls[s.URL] = true
		}
		if s.SHA256 != "" {
			w.snaps[s.SHA256] = true
		}
	}
	for _, e := range v.Evidence {
		if e.SourceURL != "" {
			w.urls[e.SourceURL] = true
		}
	}
	w.addTrace(v.Trace)
}

// addTrace adds the search queries and pages of a trace's tool calls.
func (w *webRefs) addTrace(trace []factcheck.TraceEvent) {
	for _, e := range trace {
		if e.Kind != "tool" || e.Args == "" {
			continue
		}
		var args struct {
			Query string `json:"query"`
			URL   string `json:"url"`
		}
		if json.Unmarshal([]byte(e.Args), &args) != nil {
			continue
		}
		if q := search.NormQuery(args.Query); q != "" {
			w.queries[q] = true
		}
		if args.URL != "" {
			w.urls[strings.TrimSpace(args.URL)] = true
		}
	}
}

// webKey is the web cache key of an entry of package search's bucket.
func webKey(bucket, key string) string { return bucket + "\x00" + key }

// queryOf returns the normalised query of a web cache key of a search
// bucket ("<bucket>\x00<max>\x00<query>"), "" for pages and other keys.
func queryOf(key string) string {
	bucket, rest, ok := strings.Cut(key, "\x00")
	if !ok || bucket == search.PageBucket {
		return ""
	}
	_, q, ok := strings.Cut(rest, "\x00")
	if !ok {
		return ""
	}
	return search.NormQuery(q)
}
