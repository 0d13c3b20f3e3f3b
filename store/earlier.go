package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/vecquant"
)

// Claim matching's search: the vectors of a tenant's checks (embed.go) are
// held in memory, loaded on the tenant's first lookup and brought up to
// date at each one from the newest records (those another replica saved
// too). A lookup reads every vector the asker may see within the window,
// by the one visibility rule (visibleTo, on numbers): first the sign bits
// of each, keeping the 64 nearest by that measure, then their 4-bit
// components for the cosine (internal/vecquant); the checks of the nearest
// above the threshold are read, and shown only if they are still there and
// visible (a check forgotten since makes the tenant's vectors load again).

// Earlier returns the earlier checks of tenant the audience may see, for
// factcheck.Input.Earlier (nil audience: the operator, every check).
func (db *DB) Earlier(tenant string, a *Audience) factcheck.Earlier {
	return &earlier{db: db, tenant: tenant, audience: a}
}

type earlier struct {
	db       *DB
	tenant   string
	audience *Audience
}

// vectorIndexes are the tenants' vectors in memory, each loaded on first use.
type vectorIndexes struct {
	mu      sync.Mutex
	tenants map[string]*tenantVectors // made by New
}

func (x *vectorIndexes) tenant(t string) *tenantVectors {
	x.mu.Lock()
	defer x.mu.Unlock()
	tv := x.tenants[t]
	if tv == nil {
		tv = &tenantVectors{}
		x.tenants[t] = tv
	}
	return tv
}

// tenantVectors are one tenant's vectors of one model: what the
// visibility rule reads of each (users and channels as numbers), their
// sign bits and their components, each in one slab.
type tenantVectors struct {
	mu      sync.Mutex
	loaded  bool
	stale   bool   // a check it names is gone: load again
	model   uint32 // modelHash
	dim     int
	known   map[string]bool // check IDs loaded
	newest  string          // the greatest check ID loaded
	names   map[string]int32
	entries []vectorEntry
	signs   []uint64 // words(dim) per entry
	comps   []int8   // dim per entry
}

type vectorEntry struct {
	created int64 // unix seconds
	user    int32 // numbers of names
	channel int32
	flags   uint8 // entryPrivate, entryPublic
	claim   int32
	norm    float32 // of the components
	id      string
}

// A vector entry's flags, and a vectors record's (embed.go).
const (
	entryPrivate = 1 << iota
	entryPublic
)

// name returns the number of a user or channel name, 0 for "" (and -1
// for a name never seen, from number).
func (tv *tenantVectors) name(s string) int32 {
	if s == "" {
		return 0
	}
	n, ok := tv.names[s]
	if !ok {
		n = int32(len(tv.names) + 1)
		tv.names[s] = n
	}
	return n
}

func (tv *tenantVectors) number(s string) int32 {
	if s == "" {
		return 0
	}
	if n, ok := tv.names[s]; ok {
		return n
	}
	return -1
}

// refreshOverlap is how far before the newest vector loaded a refresh
// reads again: checks saved late under an earlier ID (a check's ID is
// its creation time) are found so.
const refreshOverlap = 2 * time.Minute

// prefilter is how many vectors, nearest by their sign bits, have their
// cosine computed.
const prefilter = 64

// candidate is a vector near the query.
type candidate struct {
	entry vectorEntry
	sim   float64
}

// Nearest is factcheck.Earlier's.
func (e *earlier) Nearest(ctx context.Context, q factcheck.EarlierQuery) ([]factcheck.EarlierClaim, error) {
	cands, err := e.db.vectors.tenant(e.tenant).nearest(ctx, e.db, e.tenant, e.audience, q)
	if err != nil {
		return nil, fmt.Errorf("earlier checks: %w", err)
	}
	var out []factcheck.EarlierClaim
	for _, c := range cands {
		if len(out) == q.Limit {
			break
		}
		chk, err := e.db.Check(ctx, e.tenant, c.entry.id)
		if errors.Is(err, ErrNotFound) {
			e.db.vectors.tenant(e.tenant).markStale()
			continue
		}
		if err != nil {
			return out, fmt.Errorf("earlier checks: %w", err)
		}
		if !chk.VisibleTo(e.audience) || chk.Report == nil || int(c.entry.claim) >= len(chk.Report.Claims) || chk.Report.Claims[c.entry.claim] == nil {
			continue
		}
		out = append(out, factcheck.EarlierClaim{CheckID: chk.ID, CheckedAt: chk.CreatedAt, Similarity: c.sim, Verdict: chk.Report.Claims[c.entry.claim]})
	}
	return out, nil
}

func (tv *tenantVectors) markStale() {
	tv.mu.Lock()
	tv.stale = true
	tv.mu.Unlock()
}

// nearest returns the vectors of at least q.Min cosine to q.Vector that a
// may see, created at or after q.Since, nearest first.
func (tv *tenantVectors) nearest(ctx context.Context, db *DB, tenant string, a *Audience, q factcheck.EarlierQuery) ([]candidate, error) {
	tv.mu.Lock()
	defer tv.mu.Unlock()
	if err := tv.update(ctx, db, tenant, q.Model, len(q.Vector)); err != nil {
		return nil, err
	}
	if len(q.Vector) != tv.dim || len(tv.entries) == 0 {
		return nil, nil
	}
	qc := vecquant.Quantize(q.Vector)
	qs := vecquant.Signs(qc)
	qn := vecquant.Norm(qc)
	w := vecquant.Words(tv.dim)
	since := q.Since.Unix()
	var au, ac int32
	if a != nil {
		au, ac = tv.number(a.User), tv.number(a.Channel)
	}
	// The prefilter: the nearest by sign bits, kept sorted by distance.
	type near struct{ i, dist int }
	best := make([]near, 0, prefilter+1)
	for i := range tv.entries {
		en := &tv.entries[i]
		if en.created < since || !visibleTo(a, au, ac, en.user, en.channel, en.flags&entryPrivate != 0, en.flags&entryPublic != 0) {
			continue
		}
		d := vecquant.Hamming(tv.signs[i*w:i*w+w], qs)
		if len(best) == prefilter && d >= best[prefilter-1].dist {
			continue
		}
		at, _ := slices.BinarySearchFunc(best, d, func(n near, d int) int { return cmp.Compare(n.dist, d+1) })
		best = slices.Insert(best, at, near{i, d})
		if len(best) > prefilter {
			best = best[:prefilter]
		}
	}
	var out []candidate
	for _, n := range best {
		en := tv.entries[n.i]
		sim := vecquant.Cosine(tv.comps[n.i*tv.dim:(n.i+1)*tv.dim], qc, en.norm, qn)
		if sim >= q.Min {
			out = append(out, candidate{entry: en, sim: sim})
		}
	}
	slices.SortStableFunc(out, func(x, y candidate) int { return cmp.Compare(y.sim, x.sim) })
	return out, nil
}

// update loads the tenant's vectors of model (dimension dim) on first use,
// after a check was found gone, or for another model; otherwise it reads
// those saved since the newest loaded, less refreshOverlap.
func (tv *tenantVectors) update(ctx context.Context, db *DB, tenant, model string, dim int) error {
	from := []byte(nil)
	if h := modelHash(model); !tv.loaded || tv.stale || tv.model != h || tv.dim != dim {
		tv.loaded, tv.stale, tv.model, tv.dim, tv.known, tv.newest = false, false, h, dim, map[string]bool{}, ""
		tv.names, tv.entries, tv.signs, tv.comps = map[string]int32{}, nil, nil, nil
	} else if t, err := time.Parse(idTimeLayout, tv.newest[:min(len(tv.newest), len(idTimeLayout))]); err == nil {
		from = []byte(t.Add(-refreshOverlap).Format(idTimeLayout))
	}
	err := db.read(ctx, tenant, func(tb *tenantTx) error {
		cur := tb.Bucket(bVectors).Cursor()
		for k, v := cur.Seek(from); k != nil; k, v = cur.Next() {
			if tv.known[string(k)] {
				continue
			}
			r, err := decodeVectors(v)
			if err != nil {
				return fmt.Errorf("vectors %s: %w", k, err)
			}
			tv.add(string(k), r)
		}
		return nil
	})
	if err != nil {
		return err
	}
	tv.loaded = true
	return nil
}

// add adds a check's vectors of the index's model.
func (tv *tenantVectors) add(id string, r *vectorRecord) {
	tv.known[id] = true
	tv.newest = max(tv.newest, id)
	if r.model != tv.model || r.dim != tv.dim {
		return
	}
	for _, c := range r.claims {
		tv.entries = append(tv.entries, vectorEntry{id: id, claim: int32(c.claim), created: r.created.Unix(), user: tv.name(r.user),
			channel: tv.name(r.channel), flags: r.flags, norm: vecquant.Norm(c.q)})
		tv.signs = append(tv.signs, vecquant.Signs(c.q)...)
		tv.comps = append(tv.comps, c.q...)
	}
}
