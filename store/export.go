package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
)

// This file is what another store backend (package store/postgres) shares
// with this one, so both follow the same rules, and the read-all
// iterators that copy a bbolt database into another backend
// ('factbot migrate --from').

// CacheKey returns the key under which the verdict or extraction cache
// keeps text: its Normalize form, or a hash of it when it is long. It is
// the Key of the text's CacheRef.
func CacheKey(text string) string { return string(cacheKey(Normalize(text))) }

// SearchText returns what word search looks in for c: " claims input ",
// normalised. A query word matches when the text contains " "+word.
func SearchText(c *Check) string { return searchText(c) }

// WebKey returns the web cache key (the Key of a RefWeb CacheRef) of an
// entry of package search's bucket.
func WebKey(bucket, key string) string { return webKey(bucket, key) }

// NoteCache records a cache record that was read (a hit) or written in
// ctx's CacheRecorder, if any (see RecordCaches); kind is a Ref constant
// and key the record's CacheRef key.
func NoteCache(ctx context.Context, kind, key string) { record(ctx, kind, []byte(key)) }

// QueryOf returns the normalised search query of a web cache key, "" for
// pages and keys of other buckets.
func QueryOf(key string) string { return queryOf(key) }

// OnlyURL returns the URL if text is nothing but one http(s) link.
func OnlyURL(text string) string { return onlyURL(text) }

// WebRefs collects what records name in the shared web cache, for
// Forget: the web cache keys they recorded, the URLs their checks read or
// cite, their search queries and page snapshots.
type WebRefs struct{ r *webRefs }

// NewWebRefs returns an empty set.
func NewWebRefs() *WebRefs { return &WebRefs{newWebRefs()} }

// AddCheck adds what a check names (see Forget).
func (w *WebRefs) AddCheck(c *Check) { w.r.addCheck(c) }

// AddRefs adds the web records among recorded refs.
func (w *WebRefs) AddRefs(refs []CacheRef) { w.r.addRefs(refs) }

// AddURL adds a page URL.
func (w *WebRefs) AddURL(u string) { w.r.urls[u] = true }

// AddVerdict adds the sources and trace of a (cached) verdict.
func (w *WebRefs) AddVerdict(v *factcheck.Verdict) { w.r.addVerdict(v) }

// WebLookup is what ResolveWeb reads of a web cache: the value stored
// under a web cache key, whether a snapshot is stored, and the keys of
// the stored answers of each normalised query (see QueryOf).
type WebLookup struct {
	Get     func(key string) (val []byte, ok bool)
	HasSnap func(sha256 string) bool
	Queries map[string][]string
}

// ResolveWeb returns the web cache keys and snapshot hashes that refs name
// and that are stored: the exact keys, the page entries of the URLs, the
// answers of the queries, and the snapshots of the refs and of the pages.
// It is the rule Forget uses to find the web records to delete, and the
// ones to keep.
func ResolveWeb(refs *WebRefs, l WebLookup) (keys, snaps map[string]bool) {
	keys, snaps = map[string]bool{}, map[string]bool{}
	addSnap := func(h string) {
		if l.HasSnap(h) {
			snaps[h] = true
		}
	}
	add := func(k string) {
		v, ok := l.Get(k)
		if !ok {
			return
		}
		keys[k] = true
		if strings.HasPrefix(k, search.PageBucket+"\x00") {
			var p search.Page
			if json.Unmarshal(v, &p) == nil && p.SHA256 != "" {
				addSnap(p.SHA256)
			}
		}
	}
	r := refs.r
	for k := range r.keys {
		add(k)
	}
	for u := range r.urls {
		for _, k := range pageKeys(u) {
			add(k)
		}
	}
	for q := range r.queries {
		for _, k := range l.Queries[q] {
			add(k)
		}
	}
	for h := range r.snaps {
		addSnap(h)
	}
	return keys, snaps
}

// EachRequest calls fn with every request of the tenant, in key order,
// from one read transaction (fn may not write to the database).
func (db *DB) EachRequest(ctx context.Context, tenant string, fn func(*Request) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.drv.View(ctx, func(tx Tx) error {
		tb, err := tenantBucket(tx, tenant)
		if err != nil || tb == nil || tb.Bucket(bRequests) == nil {
			return err
		}
		return tb.Bucket(bRequests).ForEach(func(k, v []byte) error {
			var r Request
			if err := decode(v, &r); err != nil {
				return fmt.Errorf("request %s: %w", k, err)
			}
			return fn(&r)
		})
	})
}

// CacheEntry is one record of a tenant's verdict or extraction cache, or
// of the shared web cache or page snapshots, as EachCacheEntry and
// EachWebEntry give it.
type CacheEntry struct {
	Kind string    // RefVerdict, RefExtraction, RefWeb, RefSnapshot
	Key  string    // as a CacheRef of Kind names it
	At   time.Time // when it was cached
	// Value is the record: {"at":…,"verdict":…} or {"at":…,"extraction":…}
	// for the tenant caches, the cached value itself for the web.
	Value json.RawMessage
}

// EachCacheEntry calls fn with every cached verdict and extraction of the
// tenant, from one read transaction.
func (db *DB) EachCacheEntry(ctx context.Context, tenant string, fn func(CacheEntry) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.drv.View(ctx, func(tx Tx) error {
		tb, err := tenantBucket(tx, tenant)
		if err != nil || tb == nil {
			return err
		}
		for _, name := range [][]byte{bVerdicts, bExtractions} {
			b := tb.Bucket(name)
			if b == nil {
				continue
			}
			err := b.ForEach(func(k, v []byte) error {
				_, data, err := openEnvelope(v)
				if err != nil {
					return fmt.Errorf("%s %q: %w", name, k, err)
				}
				at, err := cachedAt(v)
				if err != nil {
					return fmt.Errorf("%s %q: %w", name, k, err)
				}
				return fn(CacheEntry{Kind: refKind(name), Key: string(k), At: at, Value: data})
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// EachWebEntry calls fn with every entry of the shared web cache (Kind
// RefWeb) and every page snapshot (RefSnapshot), from one read
// transaction.
func (db *DB) EachWebEntry(ctx context.Context, fn func(CacheEntry) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.drv.View(ctx, func(tx Tx) error {
		tb := &tenantTx{tx, WebTenant}
		for _, name := range [][]byte{bWebCache, bSnapshots} {
			b := tb.Bucket(name)
			if b == nil {
				continue
			}
			kind := RefWeb
			if string(name) == string(bSnapshots) {
				kind = RefSnapshot
			}
			err := b.ForEach(func(k, v []byte) error {
				var e webEntry
				if err := decode(v, &e); err != nil {
					return fmt.Errorf("%s %q: %w", name, k, err)
				}
				return fn(CacheEntry{Kind: kind, Key: string(k), At: e.At, Value: e.Val})
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}
