package store

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
)

// HistoryQuery selects checks of one tenant. Zero fields do not filter.
type HistoryQuery struct {
	Channel string
	User    string
	Verdict factcheck.Label // checks with at least one claim of this verdict
	Since   time.Time       // checks created at or after
	Until   time.Time       // checks created before (to the second)
	// Before keeps checks whose IDs sort below it: pass the last ID of a
	// page to get the next page.
	Before string
	// Search keeps checks whose claims or input contain every word, each
	// matched at the start of a word, after the same normalisation as the
	// cache (case, Unicode form, punctuation).
	Search string
	Limit  int // default 20, at most 1000
	// Audience is who asks: History returns only the checks
	// (*Check).VisibleTo it. Chat history sets it; nil (the operator's
	// CLI) sees everything.
	Audience *Audience
}

// CheckSummary is one history line.
type CheckSummary struct {
	ID        string            `json:"id"`
	Channel   string            `json:"channel,omitempty"`
	User      string            `json:"user,omitempty"`
	Text      string            `json:"text"` // the input, cut to summaryText bytes
	CreatedAt time.Time         `json:"created_at"`
	Verdicts  []factcheck.Label `json:"verdicts"` // one per claim
	Claims    []string          `json:"claims"`
	Cached    bool              `json:"cached,omitempty"`  // some verdict came from the cache
	Private   bool              `json:"private,omitempty"` // answered to the asker only
	// Visibility is who could read the place the check was made in.
	Visibility Visibility `json:"visibility,omitempty"`
}

// summaryText bounds CheckSummary.Text.
const summaryText = 300

// Default and maximum History limits.
const (
	DefaultLimit = 20
	MaxLimit     = 1000
)

// History returns the tenant's checks matching q, newest first. With
// search words it intersects the word index's prefix ranges of the words
// (see wordCandidates) and reads only the candidates; otherwise, or when
// every word is too common for the index to help, it walks one index
// (user, channel or verdict, in that order of preference, or all checks)
// from the newest entry. Either way it stops after q.Limit matches or at
// q.Since.
func (db *DB) History(ctx context.Context, tenant string, q HistoryQuery) ([]CheckSummary, error) {
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	q.Limit = min(q.Limit, MaxLimit)
	out := []CheckSummary{}
	err := db.read(ctx, tenant, func(tb *tenantTx) error {
		h := &historyScan{q: &q, tb: tb, sums: tb.Bucket(bSums), text: tb.Bucket(bText), upper: q.upper()}
		if !q.Since.IsZero() {
			h.stop = []byte(q.Since.UTC().Format(idTimeLayout))
		}
		err := h.run(strings.Fields(Normalize(q.Search)))
		out = append(out, h.out...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return out, nil
}

// upper returns the exclusive upper bound of the IDs q selects (from Until
// and Before), or nil.
func (q *HistoryQuery) upper() []byte {
	var u string
	if !q.Until.IsZero() {
		u = q.Until.UTC().Format(idTimeLayout)
	}
	if q.Before != "" && (u == "" || q.Before < u) {
		u = q.Before
	}
	if u == "" {
		return nil
	}
	return []byte(u)
}

// historyScan is one History read: it visits candidate check IDs, newest
// first, and collects the summaries that match until the limit.
type historyScan struct {
	q          *HistoryQuery
	tb         *tenantTx // the tenant's buckets
	sums, text *bkt
	stop       []byte   // IDs below this are older than q.Since
	upper      []byte   // IDs at or above this are excluded (Until, Before)
	confirm    [][]byte // spaced words to find in each candidate's search text
	out        []CheckSummary
}

// run visits the candidates: those the word index gives for the search
// words, if it is narrow enough, or else the entries of the most selective
// index of the query.
func (h *historyScan) run(words []string) error {
	if len(words) > 0 {
		ids, rest, ok := wordCandidates(h.tb.Bucket(bWords), words, maxWordRange)
		if ok {
			h.confirm = spaced(rest)
			return h.visitAll(func(fn func(id, sum []byte) (bool, error)) error {
				for id := range ids {
					if more, err := fn(id, nil); err != nil || !more {
						return err
					}
				}
				return nil
			})
		}
		h.confirm = spaced(words)
	}
	b, prefix := h.index()
	return h.visitAll(func(fn func(id, sum []byte) (bool, error)) error { return walkDesc(b, prefix, h.upper, fn) })
}

// visitAll visits the IDs walk gives, with their summaries where it has
// them, in batches as large as the room left on the page, each batch's
// other records prefetched where the driver can.
func (h *historyScan) visitAll(walk func(func(id, sum []byte) (bool, error)) error) error {
	var ids, sums, missing [][]byte
	more := true
	flush := func() (err error) {
		if n := h.tb.tx.nat; n != nil {
			n.Prefetch(h.sums.b, missing)
			if len(h.confirm) > 0 {
				n.Prefetch(h.text.b, ids)
			}
		}
		for i, id := range ids {
			if more, err = h.visit(id, sums[i]); err != nil || !more {
				break
			}
		}
		ids, sums, missing = ids[:0], sums[:0], missing[:0]
		return err
	}
	err := walk(func(id, sum []byte) (bool, error) {
		id = bytes.Clone(id)
		if ids, sums = append(ids, id), append(sums, sum); len(sum) == 0 {
			missing = append(missing, id)
		}
		if len(ids) < h.q.Limit-len(h.out) {
			return true, nil
		}
		err := flush()
		return more, err
	})
	if err == nil && more && len(ids) > 0 {
		err = flush()
	}
	return err
}

// index returns the bucket to walk and the key prefix of the query's
// entries in it: the user, channel or verdict index, in that order of
// preference, or all summaries.
func (h *historyScan) index() (*bkt, []byte) {
	switch q := h.q; {
	case q.User != "":
		return h.tb.Bucket(bByUser), indexKey(q.User, "")
	case q.Channel != "":
		return h.tb.Bucket(bByChannel), indexKey(q.Channel, "")
	case q.Verdict != "":
		return h.tb.Bucket(bByVerdict), indexKey(string(q.Verdict), "")
	}
	return h.sums, nil
}

// visit adds the check id, whose summary is raw or else read, to the page
// if it matches, and says whether to go on: false once the page is full or
// the IDs are older than q.Since.
func (h *historyScan) visit(id, raw []byte) (bool, error) {
	if h.stop != nil && bytes.Compare(id, h.stop) < 0 {
		return false, nil
	}
	if h.upper != nil && bytes.Compare(id, h.upper) >= 0 {
		return true, nil
	}
	if len(h.confirm) > 0 {
		t := h.text.Get(id)
		for _, w := range h.confirm {
			if !bytes.Contains(t, w) {
				return true, nil
			}
		}
	}
	if len(raw) == 0 {
		raw = h.sums.Get(id)
	}
	if raw == nil { // deleted since its index entry was read (ModeRead)
		return true, nil
	}
	var s CheckSummary
	if err := decode(raw, &s); err != nil {
		return false, fmt.Errorf("summary %s: %w", id, err)
	}
	if !h.q.matches(&s) {
		return true, nil
	}
	h.out = append(h.out, s)
	return len(h.out) < h.q.Limit, nil
}

// spaced returns each word with a leading space: a search text contains
// " "+w exactly when one of its words starts with w.
func spaced(words []string) [][]byte {
	out := make([][]byte, len(words))
	for i, w := range words {
		out[i] = []byte(" " + w)
	}
	return out
}

// Matches reports whether q selects c, its Limit aside: History returns the
// newest checks that match, at most the limit of them. A caller without
// indexes may filter with it.
func (q *HistoryQuery) Matches(c *Check) bool {
	if !q.matches(summarize(c)) {
		return false
	}
	text := searchText(c)
	return !slices.ContainsFunc(strings.Fields(Normalize(q.Search)), func(w string) bool { return !strings.Contains(text, " "+w) })
}

// matches is Matches without the search words, on a stored summary.
func (q *HistoryQuery) matches(s *CheckSummary) bool {
	if !s.VisibleTo(q.Audience) {
		return false
	}
	if q.User != "" && s.User != q.User {
		return false
	}
	if q.Channel != "" && s.Channel != q.Channel {
		return false
	}
	if !q.Since.IsZero() && s.CreatedAt.Before(q.Since) {
		return false
	}
	if u := q.upper(); u != nil && s.ID >= string(u) {
		return false
	}
	return q.Verdict == "" || slices.Contains(s.Verdicts, q.Verdict)
}

// walkDesc calls fn with the IDs under prefix of b and their values,
// newest first, while fn returns true, starting below the ID upper when it
// is not nil. With a nil prefix the keys themselves are the IDs.
func walkDesc(b *bkt, prefix, upper []byte, fn func(id, v []byte) (bool, error)) error {
	// end is the least key past the walk: prefix+upper, or, with no
	// upper, past every key under prefix (which ends in 0x00, so every key
	// under it is below prefix[:n-1]+0x01), or past every key.
	var end []byte
	if upper != nil {
		end = append(bytes.Clone(prefix), upper...)
	} else if len(prefix) > 0 {
		end = append(bytes.Clone(prefix[:len(prefix)-1]), 1)
	}
	var c Cursor
	var k, v []byte
	if n := b.tx.nat; n != nil && end != nil {
		c, k, v = n.SeekBefore(b.b, end)
	} else if c = b.Cursor(); end == nil {
		k, v = c.Last()
	} else if k, _ = c.Seek(end); k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
		more, err := fn(k[len(prefix):], v)
		if err != nil || !more {
			return err
		}
	}
	return nil
}
