package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
)

// ForgetStats counts what Forget and ForgetTenant removed.
type ForgetStats struct {
	Checks      int `json:"checks"`
	Requests    int `json:"requests"`
	Verdicts    int `json:"verdicts"`
	Extractions int `json:"extractions"`
	Feedback    int `json:"feedback"` // notes on the deleted checks
	// Searches counts cached search and fact-check answers, Pages cached
	// pages, Snapshots page snapshots, of the shared web cache.
	Searches  int `json:"searches"`
	Pages     int `json:"pages"`
	Snapshots int `json:"snapshots"`
	// Installations counts the tenant's app installs (ForgetTenant),
	// with their tokens.
	Installations int `json:"installations,omitempty"`
}

// Forget deletes what one user asked in one tenant, and everything their
// requests caused, in one transaction: their checks with every index entry
// and the feedback on them, their requests (pending ones too), the cached
// verdicts of their claims and extractions of their texts (a linked page's
// text too, when the message was only a link), and, in the shared web
// cache, the search answers of the queries built from their claims and the
// pages and snapshots of the URLs their checks read or cite — except the
// web entries that a remaining check or cached verdict of any tenant also
// cites. Feedback they left on other people's checks is kept.
func (db *DB) Forget(ctx context.Context, tenant, user string) (ForgetStats, error) {
	if user == "" {
		return ForgetStats{}, fmt.Errorf("forget: empty user")
	}
	return db.forget(ctx, tenant, "forget", func(tb *tenantTx, web *webRefs, st *ForgetStats) error {
		if err := forgetChecks(tb, user, web, st); err != nil {
			return err
		}
		return forgetRequests(tb, user, web, st)
	})
}

// ForgetTenant deletes every record of a tenant (a workspace or guild that
// removed the bot), in one transaction, with the web cache entries its
// checks and requests caused that no other tenant's records cite.
func (db *DB) ForgetTenant(ctx context.Context, tenant string) (ForgetStats, error) {
	return db.forget(ctx, tenant, "forget tenant "+tenant, func(tb *tenantTx, web *webRefs, st *ForgetStats) error {
		if err := tenantWebRefs(tb, web, st); err != nil {
			return err
		}
		if err := tb.tx.DropTenant(tenant); err != nil {
			return err
		}
		var err error
		st.Installations, err = forgetInstallations(tb.tx, tenant)
		return err
	})
}

// forget runs fn, which deletes records of the tenant and adds what they
// name in the web cache to web, then forgetWeb, in one transaction.
func (db *DB) forget(ctx context.Context, tenant, what string, fn func(*tenantTx, *webRefs, *ForgetStats) error) (ForgetStats, error) {
	var st ForgetStats
	if tenant == WebTenant {
		return st, fmt.Errorf("%s: %s is not a tenant", what, WebTenant)
	}
	err := db.updateTenant(ctx, tenant, func(tb *tenantTx) error {
		st = ForgetStats{} // a driver may run fn again
		web := newWebRefs()
		if err := fn(tb, web, &st); err != nil {
			return err
		}
		return forgetWeb(tb.tx, web, &st)
	})
	if err != nil {
		return st, fmt.Errorf("%s: %w", what, err)
	}
	return st, nil
}

// tenantWebRefs adds to web what the records of tenant bucket tb name in
// the web cache, and counts the records in st.
func tenantWebRefs(tb *tenantTx, web *webRefs, st *ForgetStats) error {
	count := func(name []byte) int { return countKeys(tb.Bucket(name)) }
	st.Verdicts, st.Extractions, st.Feedback = count(bVerdicts), count(bExtractions), count(bFeedback)
	err := eachRecord(tb.Bucket(bChecks), nil, func(_ []byte, c *Check) error {
		web.addCheck(c)
		st.Checks++
		return nil
	})
	if err != nil {
		return err
	}
	err = eachRecord(tb.Bucket(bRequests), nil, func(_ []byte, r *Request) error {
		web.addRequest(r)
		st.Requests++
		return nil
	})
	if err != nil {
		return err
	}
	return tb.Bucket(bVerdicts).ForEach(func(_, v []byte) error {
		var e CachedVerdict
		if decode(v, &e) == nil {
			web.addVerdict(e.Verdict)
		}
		return nil
	})
}

// forgetChecks deletes the user's checks in tenant bucket tb, with the
// cached verdicts of their claims and the cached extractions they caused,
// and adds what they name in the web cache to web.
func forgetChecks(tb *tenantTx, user string, web *webRefs, st *ForgetStats) error {
	var ids [][]byte
	prefix := indexKey(user, "")
	tb.Bucket(bByUser).scan(prefix, func(k, _ []byte) error {
		ids = append(ids, bytes.Clone(k[len(prefix):]))
		return nil
	})
	for _, id := range ids {
		var c Check
		if err := decode(tb.Bucket(bChecks).Get(id), &c); err != nil {
			return fmt.Errorf("check %s: %w", id, err)
		}
		refs := []CacheRef{{RefExtraction, CacheKey(c.Text)}}
		for _, claim := range claims(&c) {
			refs = append(refs, CacheRef{RefVerdict, CacheKey(claim)})
		}
		if err := forgetRefs(tb, append(refs, c.CacheRefs...), st); err != nil {
			return err
		}
		if len(c.CacheRefs) == 0 && factcheck.OnlyURL(c.Text) != "" {
			// Written before checks recorded their cache entries: the
			// extraction of the linked page is found by its claims.
			if err := forgetPageExtraction(tb, &c, st); err != nil {
				return err
			}
		}
		web.addCheck(&c)
		n, err := deleteCheck(tb, summarize(&c))
		if err != nil {
			return err
		}
		st.Feedback += n
		st.Checks++
	}
	return nil
}

// claims returns the claims of c's verdicts.
func claims(c *Check) []string {
	var out []string
	if c.Report != nil {
		for _, v := range c.Report.Claims {
			if v != nil {
				out = append(out, v.Claim)
			}
		}
	}
	return out
}

// forgetRequests deletes the user's requests in tenant bucket tb, pending
// ones too, with the cached extractions of their texts and the records
// they caused.
func forgetRequests(tb *tenantTx, user string, web *webRefs, st *ForgetStats) error {
	reqs, err := requestsWhere(tb, func(r *Request) bool { return r.User == user })
	if err != nil {
		return err
	}
	for _, r := range reqs {
		if err := deleteRequest(tb, r); err != nil {
			return err
		}
		if err := forgetRefs(tb, append(r.CacheRefs, CacheRef{RefExtraction, CacheKey(r.Text)}), st); err != nil {
			return err
		}
		web.addRequest(r)
	}
	st.Requests += len(reqs)
	return nil
}

// forgetRefs deletes the tenant cache entries (verdicts, extractions) that
// refs name from tenant bucket tb, counting those it finds.
func forgetRefs(tb *tenantTx, refs []CacheRef, st *ForgetStats) error {
	for _, r := range refs {
		n := map[string]*int{RefVerdict: &st.Verdicts, RefExtraction: &st.Extractions}[r.Kind]
		b, k := tb.Bucket(refBucket[r.Kind]), []byte(r.Key)
		if n == nil || len(k) == 0 || b.Get(k) == nil {
			continue
		}
		if err := b.Delete(k); err != nil {
			return err
		}
		*n++
	}
	return nil
}

// forgetPageExtraction deletes from tenant bucket tb the cached
// extractions whose claims begin with the claims of c, a check of a
// message that was only a link: the extraction is keyed by the page's
// text, not the message.
func forgetPageExtraction(tb *tenantTx, c *Check, st *ForgetStats) error {
	claims := claims(c)
	if len(claims) == 0 {
		return nil
	}
	n, err := tb.Bucket(bExtractions).deleteIf(nil, func(_, v []byte) (bool, error) {
		var e CachedExtraction
		if decode(v, &e) != nil || e.Extraction == nil || len(e.Extraction.Claims) < len(claims) {
			return false, nil
		}
		return slices.EqualFunc(e.Extraction.Claims[:len(claims)], claims, func(x factcheck.ExtractedClaim, cl string) bool { return x.Claim == cl }), nil
	})
	st.Extractions += n
	return err
}

// forgetWeb deletes, in key and hash order, the web cache entries and
// snapshots that gone names, except those that the remaining records of
// every tenant name too, counting them in st as pages, searches and
// snapshots: the last step of Forget.
func forgetWeb(tx *txn, gone *webRefs, st *ForgetStats) error {
	wt := &tenantTx{tx, WebTenant}
	queries := queryIndex(wt.Bucket(bWebCache))
	del := resolve(wt, gone, queries)
	if len(del) == 0 {
		return nil
	}
	// Scanning every remaining record is the cost of a rare operation;
	// it only happens when the forgotten records name stored web entries.
	kept := newWebRefs()
	for _, name := range tx.Tenants() {
		if name != WebTenant {
			if err := tenantWebRefs(&tenantTx{tx, name}, kept, &ForgetStats{}); err != nil {
				return err
			}
		}
	}
	keep := resolve(wt, kept, queries)
	for _, r := range sortedRefs(del) {
		if keep[r] {
			continue
		}
		if err := wt.Bucket(refBucket[r.Kind]).Delete([]byte(r.Key)); err != nil {
			return err
		}
		switch {
		case r.Kind == RefSnapshot:
			st.Snapshots++
		case strings.HasPrefix(r.Key, search.PageBucket+"\x00"):
			st.Pages++
		default:
			st.Searches++
		}
	}
	return nil
}

// queryIndex maps each normalised search query of the web cache to the keys
// of its answers (one per bucket and result count).
func queryIndex(cache *bkt) map[string][]string {
	idx := map[string][]string{}
	cache.ForEach(func(k, _ []byte) error {
		if q := queryOf(string(k)); q != "" {
			idx[q] = append(idx[q], string(k))
		}
		return nil
	})
	return idx
}

// resolve returns the web cache entries and snapshots that refs name and
// that are stored: the exact keys, the page entries of the URLs, the
// answers of the queries, and the snapshots of the refs and of the pages.
// It is the rule Forget uses to find the web records to delete, and the
// ones to keep.
func resolve(wt *tenantTx, refs *webRefs, queries map[string][]string) map[CacheRef]bool {
	out := map[CacheRef]bool{}
	addSnap := func(h string) {
		if wt.Bucket(bSnapshots).Get([]byte(h)) != nil {
			out[CacheRef{RefSnapshot, h}] = true
		}
	}
	add := func(k string) {
		raw := wt.Bucket(bWebCache).Get([]byte(k))
		if raw == nil {
			return
		}
		out[CacheRef{RefWeb, k}] = true // stored, even if its page cannot be read
		var e webEntry
		var p search.Page
		if strings.HasPrefix(k, search.PageBucket+"\x00") && decode(raw, &e) == nil &&
			json.Unmarshal(e.Val, &p) == nil && p.SHA256 != "" {
			addSnap(p.SHA256)
		}
	}
	for k := range refs.keys {
		add(k)
	}
	// search's reader caches a page with and without the address check lifted.
	for u := range refs.urls {
		add(webKey(search.PageBucket, u))
		add(webKey(search.PageBucket, "allow-private "+u))
	}
	for q := range refs.queries {
		for _, k := range queries[q] {
			add(k)
		}
	}
	for h := range refs.snaps {
		addSnap(h)
	}
	return out
}
