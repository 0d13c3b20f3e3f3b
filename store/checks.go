package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/factbot-dev/factbot/factcheck"
)

// idTimeLayout is the time prefix of check IDs; IDs sort by creation time
// (to the second; within a second their order is arbitrary).
const idTimeLayout = "20060102T150405Z"

// Check is one answered request: who asked, where, when, what they sent and
// what was answered.
type Check struct {
	ID         string            `json:"id"` // sortable, time-ordered, e.g. "20261129T122400Z-3f9a"; unique in its tenant
	Tenant     string            `json:"tenant"`
	Platform   string            `json:"platform,omitempty"`
	Channel    string            `json:"channel,omitempty"`
	Thread     string            `json:"thread,omitempty"`
	Link       string            `json:"link,omitempty"`
	User       string            `json:"user,omitempty"`
	RequestKey string            `json:"request_key,omitempty"`
	Text       string            `json:"text"`   // what the user sent
	Report     *factcheck.Report `json:"report"` // what was answered (claims carry Cached/CheckedAt)
	CreatedAt  time.Time         `json:"created_at"`
	Feedback   []Feedback        `json:"feedback,omitempty"`
	// Private is set when the answer was shown to the asker only; chat
	// history then hides the check from everyone else.
	Private bool `json:"private,omitempty"`
	// Visibility is who could read the place the check was made in
	// (unknown for older records: treated as not public). See VisibleTo.
	Visibility Visibility `json:"visibility,omitempty"`
	// CacheRefs are the cache records the check used or wrote (see
	// CacheRecorder), so Forget can delete them with the check.
	CacheRefs []CacheRef `json:"cache_refs,omitempty"`
	// Message names, in its platform's terms, the message that was
	// checked when it was read from the platform (a thread's first
	// message, a message reacted to, one with attachments), so that
	// "Check again" reads it, and its attachments, again. The SHA-256 of
	// each attachment read is in Report.Attachments.
	Message string `json:"message,omitempty"`
	// Speaker and ClaimDate are who made the claim and when, where the
	// asker said (factbot check --speaker and --as-of): the reviewed
	// claim's author and date in its ClaimReview markup.
	Speaker   string    `json:"speaker,omitempty"`
	ClaimDate time.Time `json:"claim_date,omitzero"`
}

// SaveCheck assigns c.ID (and CreatedAt) if empty and stores the check with
// its indexes. If c.RequestKey names a request of the tenant, the check id
// is recorded on the request in the same transaction; if that request
// already has a saved check, c replaces it under the same ID, so a request
// resumed after a crash never leaves two checks. Callers need not
// serialise their saves: the store does where its driver needs it.
func (db *DB) SaveCheck(ctx context.Context, c *Check) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// One check joins the request writes' group commit, so answers being
	// saved share fsyncs with the acknowledgements instead of delaying them.
	// On a driver of one writer (bbolt, memory) one check at a time waits
	// to be saved, so that acknowledgements queue behind at most one
	// check's save, not one per caller; a shared driver (PostgreSQL) saves
	// them side by side.
	if !db.requests.Solo() {
		db.saves.Lock()
		defer db.saves.Unlock()
	}
	now := db.now().UTC()
	if err := db.requests.Do(func(tx *txn) error { return saveCheck(tx, c, now) }); err != nil {
		return fmt.Errorf("save check: %w", err)
	}
	return nil
}

// SaveChecks saves several checks in one transaction (one fsync), as
// SaveCheck does for one.
func (db *DB) SaveChecks(ctx context.Context, cs []*Check) error {
	now := db.now().UTC()
	err := db.update(ctx, func(tx *txn) error {
		for _, c := range cs {
			if err := saveCheck(tx, c, now); err != nil {
				return fmt.Errorf("check %s: %w", c.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save check: %w", err)
	}
	return nil
}

func saveCheck(tx *txn, c *Check, now time.Time) error {
	return inTenant(tx, c.Tenant, func(tb *tenantTx) error {
		if c.CreatedAt.IsZero() {
			c.CreatedAt = now
		}
		var req *Request
		if c.RequestKey != "" {
			if r, err := getRequest(tb, c.RequestKey); err == nil {
				req = r
				if c.ID == "" && r.CheckID != "" && tb.Bucket(bChecks).Get([]byte(r.CheckID)) != nil {
					c.ID = r.CheckID
				}
			}
		}
		if c.ID == "" {
			c.ID = NewCheckID(c.CreatedAt, func(id string) bool { return tb.Bucket(bChecks).Get([]byte(id)) != nil })
		}
		if err := putCheck(tb, c); err != nil || req == nil || req.CheckID == c.ID {
			return err
		}
		r := *req
		r.CheckID, r.UpdatedAt = c.ID, now
		return putRequest(tb, req, &r)
	})
}

// NewCheckID returns an unused ID for a check created at t: the time (so
// IDs sort by creation time, to the second), then 4 random hex digits, more
// after repeated collisions. taken reports whether an ID is in use in the
// check's tenant.
func NewCheckID(t time.Time, taken func(id string) bool) string {
	prefix := t.UTC().Format(idTimeLayout) + "-"
	for try := 0; ; try++ {
		b := make([]byte, 2+try/4)
		rand.Read(b)
		id := prefix + hex.EncodeToString(b)
		if !taken(id) {
			return id
		}
	}
}

// putCheck writes a check, its summary, search text and index entries,
// replacing those of a stored check with the same ID.
func putCheck(tb *tenantTx, c *Check) error {
	id := []byte(c.ID)
	if old := tb.Bucket(bSums).Get(id); old != nil {
		var s CheckSummary
		if err := decode(old, &s); err != nil {
			return err
		}
		if err := deleteIndexes(tb, &s); err != nil {
			return err
		}
	}
	if err := deleteWords(tb, id); err != nil {
		return err
	}
	s := summarize(c)
	if err := tb.Bucket(bChecks).putRecord(id, withoutStoredFeedback(tb, c)); err != nil {
		return err
	}
	sum, err := encode(s)
	if err == nil {
		err = tb.Bucket(bSums).Put(id, sum)
	}
	if err != nil {
		return err
	}
	if err := putVectors(tb, c); err != nil {
		return err
	}
	text := []byte(searchText(c))
	if err := tb.Bucket(bText).Put(id, text); err != nil {
		return err
	}
	if err := putWords(tb, c.ID, text); err != nil {
		return err
	}
	if tb.tx.nat == nil { // the native path's entries hold the summary
		sum = nil
	}
	for _, e := range indexEntries(s) {
		if err := tb.Bucket(e.bucket).Put(e.key, sum); err != nil {
			return err
		}
	}
	return nil
}

// withoutStoredFeedback returns c, or a copy without the notes that tenant
// bucket tb keeps in its feedback bucket (a check read with Check and saved
// again must not store them twice).
func withoutStoredFeedback(tb *tenantTx, c *Check) *Check {
	if len(c.Feedback) == 0 || c.ID == "" {
		return c
	}
	stored := Check{ID: c.ID}
	if readFeedback(tb, &stored) != nil || len(stored.Feedback) == 0 {
		return c
	}
	cp := *c
	cp.Feedback = nil
	for _, f := range c.Feedback {
		if i := slices.IndexFunc(stored.Feedback, func(g Feedback) bool {
			return g.User == f.User && g.Claim == f.Claim && g.Note == f.Note && g.At.Equal(f.At)
		}); i >= 0 {
			stored.Feedback = slices.Delete(stored.Feedback, i, i+1)
			continue
		}
		cp.Feedback = append(cp.Feedback, f)
	}
	return &cp
}

// deleteCheck removes a check and everything derived from it, and returns
// how many notes of feedback it had.
func deleteCheck(tb *tenantTx, s *CheckSummary) (int, error) {
	id := []byte(s.ID)
	if err := deleteIndexes(tb, s); err != nil {
		return 0, err
	}
	if err := deleteWords(tb, id); err != nil {
		return 0, err
	}
	for _, name := range [][]byte{bChecks, bSums, bText, bVectors} {
		if err := tb.Bucket(name).Delete(id); err != nil {
			return 0, err
		}
	}
	return tb.Bucket(bFeedback).deleteIf(indexKey(s.ID, ""), func(_, _ []byte) (bool, error) { return true, nil })
}

func deleteIndexes(tb *tenantTx, s *CheckSummary) error {
	for _, e := range indexEntries(s) {
		if err := tb.Bucket(e.bucket).Delete(e.key); err != nil {
			return err
		}
	}
	return nil
}

type indexEntry struct {
	bucket []byte
	key    []byte
}

func indexKey(value, id string) []byte {
	value = strings.ReplaceAll(value, "\x00", "")
	k := make([]byte, 0, len(value)+1+len(id))
	k = append(k, value...)
	k = append(k, 0)
	return append(k, id...)
}

func indexEntries(s *CheckSummary) []indexEntry {
	var out []indexEntry
	if s.Channel != "" {
		out = append(out, indexEntry{bByChannel, indexKey(s.Channel, s.ID)})
	}
	if s.User != "" {
		out = append(out, indexEntry{bByUser, indexKey(s.User, s.ID)})
	}
	for _, l := range slices.Compact(slices.Sorted(slices.Values(s.Verdicts))) {
		out = append(out, indexEntry{bByVerdict, indexKey(string(l), s.ID)})
	}
	return out
}

func summarize(c *Check) *CheckSummary {
	s := &CheckSummary{
		ID:         c.ID,
		Channel:    c.Channel,
		User:       c.User,
		Text:       cut(c.Text, summaryText),
		CreatedAt:  c.CreatedAt,
		Verdicts:   []factcheck.Label{},
		Claims:     []string{},
		Private:    c.Private,
		Visibility: c.Visibility,
	}
	if c.Report != nil {
		for _, v := range c.Report.Claims {
			if v == nil {
				continue
			}
			s.Verdicts = append(s.Verdicts, v.Verdict)
			s.Claims = append(s.Claims, v.Claim)
			s.Cached = s.Cached || v.Cached
		}
	}
	return s
}

// searchText is what word search looks in: " claims input ", normalised.
func searchText(c *Check) string {
	var b strings.Builder
	b.WriteByte(' ')
	for _, claim := range claims(c) {
		b.WriteString(Normalize(claim))
		b.WriteByte(' ')
	}
	b.WriteString(Normalize(c.Text))
	b.WriteByte(' ')
	return b.String()
}

// cut shortens s to at most n bytes on a rune boundary, adding "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return runeCut(s, n) + "…"
}

// runeCut returns s cut to at most n bytes on a rune boundary.
func runeCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Check returns one check of the tenant, or an error wrapping ErrNotFound.
func (db *DB) Check(ctx context.Context, tenant, id string) (*Check, error) {
	var c Check
	err := db.view(ctx, tenant, func(tb *tenantTx) error {
		if err := getRecord(tb.Bucket(bChecks), []byte(id), &c); err != nil {
			return err
		}
		return readFeedback(tb, &c)
	})
	if err != nil {
		return nil, fmt.Errorf("check %q: %w", id, err)
	}
	return &c, nil
}

// EachCheck calls fn for every check of the tenant, oldest first. It reads
// in batches, each in its own read transaction, so fn may be slow (it may
// not write to the database from inside, though it may between batches).
func (db *DB) EachCheck(ctx context.Context, tenant string, fn func(*Check) error) error {
	const batch = 256
	var after []byte
	for {
		var cs []*Check
		err := db.view(ctx, tenant, func(tb *tenantTx) error {
			cur := tb.Bucket(bChecks).Cursor()
			// after+0x00 is the least key above after.
			for k, v := cur.Seek(after); k != nil && len(cs) < batch; k, v = cur.Next() {
				var c Check
				if err := decode(v, &c); err != nil {
					return fmt.Errorf("check %s: %w", k, err)
				}
				if err := readFeedback(tb, &c); err != nil {
					return fmt.Errorf("check %s: %w", k, err)
				}
				cs = append(cs, &c)
				after = append(bytes.Clone(k), 0)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		for _, c := range cs {
			if err := fn(c); err != nil {
				return err
			}
		}
		if len(cs) < batch {
			return nil
		}
	}
}
