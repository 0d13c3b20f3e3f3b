package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/factbot-dev/factbot/store"
)

// SaveCheck assigns c.ID (and CreatedAt) if empty and stores the check. If
// c.RequestKey names a request of the tenant, the check id is recorded on
// the request in the same transaction; if that request already has a
// saved check, c replaces it under the same ID, so a request resumed after
// a crash never leaves two checks.
func (db *DB) SaveCheck(ctx context.Context, c *store.Check) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := db.now().UTC()
	if err := db.inTx(ctx, func(tx pgx.Tx) error { return db.saveCheck(ctx, tx, c, now) }); err != nil {
		return fmt.Errorf("save check: %w", ctxErr(ctx, err))
	}
	return nil
}

// SaveChecks saves several checks in one transaction, as SaveCheck does
// for one.
func (db *DB) SaveChecks(ctx context.Context, cs []*store.Check) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := db.now().UTC()
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		for _, c := range cs {
			if err := db.saveCheck(ctx, tx, c, now); err != nil {
				return fmt.Errorf("check %s: %w", c.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save check: %w", ctxErr(ctx, err))
	}
	return nil
}

func (db *DB) saveCheck(ctx context.Context, tx pgx.Tx, c *store.Check, now time.Time) error {
	if c.Tenant == "" {
		return store.ErrNoTenant
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = now
	}
	var req *store.Request
	if c.RequestKey != "" {
		if r, err := getRequest(ctx, tx, c.Tenant, c.RequestKey, true); err == nil {
			req = r
			if c.ID == "" && r.CheckID != "" {
				ok, err := checkExists(ctx, tx, c.Tenant, r.CheckID)
				if err != nil {
					return err
				}
				if ok {
					c.ID = r.CheckID
				}
			}
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	if c.ID == "" {
		// A new ID: one taken meanwhile by another replica's insert is
		// found by the insert, which then tries another.
		for {
			var taken error
			id := store.NewCheckID(c.CreatedAt, func(id string) bool {
				ok, err := checkExists(ctx, tx, c.Tenant, id)
				taken = err
				return ok && err == nil
			})
			if taken != nil {
				return taken
			}
			inserted, err := putCheck(ctx, tx, c, id, false)
			if err != nil {
				return err
			}
			if inserted {
				c.ID = id
				break
			}
		}
	} else if _, err := putCheck(ctx, tx, c, c.ID, true); err != nil {
		return err
	}
	if req != nil && req.CheckID != c.ID {
		r := *req
		r.CheckID = c.ID
		r.UpdatedAt = now
		return putRequest(ctx, tx, &r)
	}
	return nil
}

func checkExists(ctx context.Context, q querier, tenant, id string) (bool, error) {
	var ok bool
	err := q.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM checks WHERE tenant = $1 AND id = $2)", pgText(tenant), pgText(id)).Scan(&ok)
	return ok, err
}

// maxLexeme bounds a word of the tsvector (PostgreSQL allows 2047 bytes);
// longer words are indexed by their start, and every query word is
// confirmed in the search text.
const maxLexeme = 1000

// searchWords returns the distinct words of a search text, each cut to
// maxLexeme bytes: the lexemes of its tsvector. They are the words of
// store.SearchText (split at spaces, after store.Normalize), not those of
// PostgreSQL's text parser, which splits "3.5", "1,000" or "50%"
// differently; so a word matches exactly when bbolt's index matches it.
func searchWords(text string) []string {
	ws := strings.Fields(text)
	for i, w := range ws {
		ws[i] = pgText(cutWord(w))
	}
	slices.Sort(ws)
	return slices.Compact(ws)
}

func cutWord(w string) string {
	if len(w) <= maxLexeme {
		return w
	}
	n := maxLexeme
	for n > 0 && !utf8.RuneStart(w[n]) {
		n--
	}
	return w[:n]
}

// putCheck writes c under id: an upsert if replace, else an insert that
// reports false if the id is taken. The record keeps only the notes that
// are not in the feedback table (a check read with Check and saved again
// must not store them twice).
func putCheck(ctx context.Context, tx pgx.Tx, c *store.Check, id string, replace bool) (bool, error) {
	cp := *c
	cp.ID = id
	rec, err := withoutStoredFeedback(ctx, tx, &cp)
	if err != nil {
		return false, err
	}
	s := cp.Summary()
	sum, err := toJSONB(&s)
	if err != nil {
		return false, err
	}
	record, err := toJSONB(rec)
	if err != nil {
		return false, err
	}
	sql := insertCheckSQL
	if replace {
		sql += ` ON CONFLICT (tenant, id) DO UPDATE SET channel = EXCLUDED.channel, user_id = EXCLUDED.user_id, private = EXCLUDED.private,
	visibility = EXCLUDED.visibility, verdicts = EXCLUDED.verdicts, created_ns = EXCLUDED.created_ns, search_text = EXCLUDED.search_text,
	words = EXCLUDED.words, summary = EXCLUDED.summary, record = EXCLUDED.record`
	} else {
		sql += ` ON CONFLICT (tenant, id) DO NOTHING`
	}
	tag, err := tx.Exec(ctx, sql, checkArgs(&cp, &s, sum, record)...)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() == 1, nil
}

// insertCheckSQL inserts the values of checkArgs.
const insertCheckSQL = `INSERT INTO checks (tenant, id, channel, user_id, private, visibility, verdicts, created_ns, search_text, words, summary, record)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, array_to_tsvector($10::text[]), $11::jsonb, $12::jsonb)`

// checkArgs returns the column values of check c (with its ID set),
// whose summary s and record are given as JSONB text.
func checkArgs(c *store.Check, s *store.CheckSummary, sum, record string) []any {
	verdicts := []string{}
	for _, l := range s.Verdicts {
		if v := pgText(string(l)); !slices.Contains(verdicts, v) {
			verdicts = append(verdicts, v)
		}
	}
	text := store.SearchText(c)
	return []any{pgText(c.Tenant), pgText(c.ID), pgText(c.Channel), pgText(c.User), c.Private, string(c.Visibility),
		verdicts, ns(c.CreatedAt), pgText(text), searchWords(text), sum, record}
}

// withoutStoredFeedback returns c, or a copy without the notes that the
// feedback table holds for it.
func withoutStoredFeedback(ctx context.Context, q querier, c *store.Check) (*store.Check, error) {
	if len(c.Feedback) == 0 {
		return c, nil
	}
	stored, err := readFeedback(ctx, q, c.Tenant, c.ID)
	if err != nil || len(stored) == 0 {
		return c, err
	}
	cp := *c
	cp.Feedback = nil
	for _, f := range c.Feedback {
		if i := slices.IndexFunc(stored, func(g store.Feedback) bool {
			return g.User == f.User && g.Claim == f.Claim && g.Note == f.Note && g.At.Equal(f.At)
		}); i >= 0 {
			stored = slices.Delete(stored, i, i+1)
			continue
		}
		cp.Feedback = append(cp.Feedback, f)
	}
	return &cp, nil
}

// readFeedback returns the notes of the feedback table on a check, in the
// order they were added.
func readFeedback(ctx context.Context, q querier, tenant, id string) ([]store.Feedback, error) {
	rows, err := q.Query(ctx, "SELECT record::text FROM feedback WHERE tenant = $1 AND check_id = $2 ORDER BY seq", pgText(tenant), pgText(id))
	if err != nil {
		return nil, err
	}
	fs, err := collectJSON[store.Feedback](rows)
	if err != nil {
		return nil, err
	}
	out := make([]store.Feedback, len(fs))
	for i, f := range fs {
		out[i] = *f
	}
	return out, nil
}

// Check returns one check of the tenant, with its feedback, or an error
// wrapping store.ErrNotFound.
func (db *DB) Check(ctx context.Context, tenant, id string) (*store.Check, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, err := getCheck(ctx, db.pool, tenant, id, false)
	if err != nil {
		return nil, fmt.Errorf("check %q: %w", id, ctxErr(ctx, err))
	}
	return c, nil
}

func getCheck(ctx context.Context, q querier, tenant, id string, forUpdate bool) (*store.Check, error) {
	if tenant == "" {
		return nil, store.ErrNoTenant
	}
	sql := "SELECT record::text FROM checks WHERE tenant = $1 AND id = $2"
	if forUpdate {
		sql += " FOR UPDATE"
	}
	var rec string
	err := q.QueryRow(ctx, sql, pgText(tenant), pgText(id)).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	var c store.Check
	if err := fromJSONB(rec, &c); err != nil {
		return nil, err
	}
	fs, err := readFeedback(ctx, q, tenant, id)
	if err != nil {
		return nil, err
	}
	c.Feedback = append(c.Feedback, fs...)
	return &c, nil
}

// AddFeedback records feedback on a check, or returns an error wrapping
// store.ErrNotFound, or store.ErrFeedbackLimit when the check already has
// store.MaxFeedbackPerCheck notes or f.User store.MaxFeedbackPerUser of
// them. The check's row is locked while the notes are counted, so
// replicas cannot pass the limits together; the check is not rewritten.
func (db *DB) AddFeedback(ctx context.Context, tenant, checkID string, f store.Feedback) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if f.At.IsZero() {
		f.At = db.now().UTC()
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		c, err := getCheck(ctx, tx, tenant, checkID, true)
		if err != nil {
			return err
		}
		if len(c.Feedback) >= store.MaxFeedbackPerCheck {
			return fmt.Errorf("%w: the check has %d notes", store.ErrFeedbackLimit, len(c.Feedback))
		}
		mine := 0
		for _, g := range c.Feedback {
			if g.User == f.User {
				mine++
			}
		}
		if mine >= store.MaxFeedbackPerUser {
			return fmt.Errorf("%w: %d notes of %s on the check", store.ErrFeedbackLimit, mine, f.User)
		}
		rec, err := toJSONB(&f)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO feedback (tenant, check_id, seq, user_id, record)
VALUES ($1, $2, (SELECT COALESCE(MAX(seq) + 1, 0) FROM feedback WHERE tenant = $1 AND check_id = $2), $3, $4::jsonb)`,
			pgText(tenant), pgText(checkID), pgText(f.User), rec)
		return err
	})
	if err != nil {
		return fmt.Errorf("add feedback to %q: %w", checkID, ctxErr(ctx, err))
	}
	return nil
}

// History returns the tenant's checks matching q, newest first (by ID,
// which starts with the creation time), at most q.Limit of them. Every
// filter is a condition of one query: user and channel use their indexes,
// the verdict and word search their GIN indexes, and the audience is
// (*store.Check).VisibleTo's rule written in SQL (and checked again on
// each line).
func (db *DB) History(ctx context.Context, tenant string, q store.HistoryQuery) ([]store.CheckSummary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if tenant == "" {
		return nil, fmt.Errorf("history: %w", store.ErrNoTenant)
	}
	sql, args := historySQL(tenant, &q)
	rows, err := db.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("history: %w", ctxErr(ctx, err))
	}
	sums, err := collectJSON[store.CheckSummary](rows)
	if err != nil {
		return nil, fmt.Errorf("history: %w", ctxErr(ctx, err))
	}
	out := []store.CheckSummary{}
	for _, s := range sums {
		if s.VisibleTo(q.Audience) {
			out = append(out, *s)
		}
	}
	return out, nil
}

// historySQL returns the query of a history page.
func historySQL(tenant string, q *store.HistoryQuery) (string, []any) {
	args := []any{pgText(tenant)}
	where := []string{"tenant = $1"}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if q.User != "" {
		where = append(where, "user_id = "+arg(pgText(q.User)))
	}
	if q.Channel != "" {
		where = append(where, "channel = "+arg(pgText(q.Channel)))
	}
	if q.Verdict != "" {
		where = append(where, "verdicts @> ARRAY["+arg(pgText(string(q.Verdict)))+"::text]")
	}
	if !q.Since.IsZero() {
		where = append(where, "created_ns >= "+arg(ns(q.Since)))
	}
	if u := upper(q); u != "" {
		where = append(where, "id < "+arg(pgText(u)))
	}
	if words := strings.Fields(store.Normalize(q.Search)); len(words) > 0 {
		where = append(where, "words @@ "+arg(prefixQuery(words))+"::tsquery")
		for _, w := range words {
			where = append(where, "strpos(search_text, "+arg(" "+pgText(w))+") > 0")
		}
	}
	if a := q.Audience; a != nil {
		where = append(where, audienceSQL(a, arg))
	}
	return "SELECT summary::text FROM checks WHERE " + strings.Join(where, " AND ") +
		" ORDER BY id DESC LIMIT " + strconv.Itoa(limit(q.Limit)), args
}

// idTimeLayout is the time prefix of check IDs (see store.NewCheckID).
const idTimeLayout = "20060102T150405Z"

// upper returns the exclusive upper bound of the IDs q selects, as store
// computes it: the lower of Until (to the second: IDs start with their
// time) and Before; "" for none.
func upper(q *store.HistoryQuery) string {
	var u string
	if !q.Until.IsZero() {
		u = q.Until.UTC().Format(idTimeLayout)
	}
	if q.Before != "" && (u == "" || q.Before < u) {
		u = q.Before
	}
	return u
}

// audienceSQL is visibleTo (store/visibility.go) as a condition: the
// asker always; anyone else only when the answer was not private and the
// check was made in the audience's channel or, for a tenant-wide listing,
// in a public channel.
func audienceSQL(a *store.Audience, arg func(any) string) string {
	var either, shared []string
	if a.User != "" {
		either = append(either, "user_id = "+arg(pgText(a.User)))
	}
	if a.Channel != "" {
		shared = append(shared, "channel = "+arg(pgText(a.Channel)))
	}
	if a.TenantWide {
		shared = append(shared, "visibility = "+arg(string(store.VisibilityPublic)))
	}
	if len(shared) > 0 {
		either = append(either, "(NOT private AND ("+strings.Join(shared, " OR ")+"))")
	}
	if len(either) == 0 {
		return "false"
	}
	return "(" + strings.Join(either, " OR ") + ")"
}

// prefixQuery returns the tsquery text that matches a tsvector with, for
// each word, a lexeme that starts with it: 'w1':* & 'w2':*.
func prefixQuery(words []string) string {
	qs := make([]string, len(words))
	for i, w := range words {
		w = pgText(cutWord(w))
		w = strings.ReplaceAll(w, `\`, `\\`)
		w = strings.ReplaceAll(w, `'`, `''`)
		qs[i] = "'" + w + "':*"
	}
	return strings.Join(qs, " & ")
}

// limit returns a history limit, defaulted and bounded as store does.
func limit(n int) int {
	switch {
	case n <= 0:
		return store.DefaultLimit
	case n > store.MaxLimit:
		return store.MaxLimit
	}
	return n
}

// EachCheck calls fn for every check of the tenant, oldest first, with
// its feedback. It reads in batches, so fn may be slow.
func (db *DB) EachCheck(ctx context.Context, tenant string, fn func(*store.Check) error) error {
	const batch = 256
	after := ""
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rows, err := db.pool.Query(ctx, "SELECT id FROM checks WHERE tenant = $1 AND id > $2 ORDER BY id LIMIT $3", pgText(tenant), after, batch)
		if err != nil {
			return fmt.Errorf("export: %w", ctxErr(ctx, err))
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("export: %w", ctxErr(ctx, err))
		}
		for _, id := range ids {
			after = id
			c, err := getCheck(ctx, db.pool, tenant, fromText(id), false)
			if errors.Is(err, store.ErrNotFound) {
				continue // deleted meanwhile
			}
			if err != nil {
				return fmt.Errorf("export: %w", ctxErr(ctx, err))
			}
			if err := fn(c); err != nil {
				return err
			}
		}
		if len(ids) < batch {
			return nil
		}
	}
}
