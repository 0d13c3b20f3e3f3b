package store

import (
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"

	"github.com/factbot-dev/factbot/factcheck"
)

var update = flag.Bool("update", false, "rewrite testdata/v1.db")

const v1Fixture = "testdata/v1.db"

// writeV1Fixture writes a schema version 1 file the way factbot before
// indexes did: bare JSON records, lower-cased verdict keys, "done" flags.
func writeV1Fixture(path string) error {
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	at := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	put := func(tx *bolt.Tx, tenant, bucket, key string, v any) error {
		root, err := tx.CreateBucketIfNotExists([]byte("tenants"))
		if err != nil {
			return err
		}
		tb, err := root.CreateBucketIfNotExists([]byte(tenant))
		if err != nil {
			return err
		}
		b, err := tb.CreateBucketIfNotExists([]byte(bucket))
		if err != nil {
			return err
		}
		j, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return b.Put([]byte(key), j)
	}
	return db.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists([]byte("meta"))
		if err != nil {
			return err
		}
		if err := meta.Put([]byte("schema"), []byte("1")); err != nil {
			return err
		}
		v := verdict("The Eiffel Tower is 330 m tall.", factcheck.Supported, at)
		rep := &factcheck.Report{Input: "The Eiffel Tower is 330 m tall.", Claims: []*factcheck.Verdict{v}, CheckedAt: at, Model: "gemini-flash-latest"}
		for _, rec := range []struct {
			tenant, bucket, key string
			v                   any
		}{
			{"T1", "checks", "20261001T090000Z-aaaa", v1CheckRecord{ID: "20261001T090000Z-aaaa", Tenant: "T1", Channel: "C1", User: "U1", Text: rep.Input, Report: rep, CreatedAt: at}},
			{"T1", "requests", "slack:event:Ev1", v1RequestRecord{Key: "slack:event:Ev1", Tenant: "T1", Platform: "slack", Channel: "C1", Thread: "1.1", User: "U1", Text: rep.Input, Done: true, CheckID: "20261001T090000Z-aaaa", CreatedAt: at}},
			{"T1", "requests", "slack:event:Ev2", v1RequestRecord{Key: "slack:event:Ev2", Tenant: "T1", Platform: "slack", Channel: "C1", User: "U2", Text: "Is water wet?", CreatedAt: at.Add(time.Minute)}},
			{"T1", "verdicts", "the eiffel tower is 330 m tall.", v1VerdictRecord{Verdict: v, At: at}},
			{"G9", "checks", "20261001T100000Z-bbbb", v1CheckRecord{ID: "20261001T100000Z-bbbb", Tenant: "G9", Channel: "D1", User: "U7", Text: "Bigfoot", Report: &factcheck.Report{Input: "Bigfoot"}, CreatedAt: at.Add(time.Hour)}},
		} {
			if err := put(tx, rec.tenant, rec.bucket, rec.key, rec.v); err != nil {
				return err
			}
		}
		return nil
	})
}

// The records of a version 1 file, as factbot wrote them then.
type (
	v1CheckRecord struct {
		ID        string            `json:"id"`
		Tenant    string            `json:"tenant"`
		Channel   string            `json:"channel"`
		User      string            `json:"user"`
		Text      string            `json:"text"`
		Report    *factcheck.Report `json:"report"`
		CreatedAt time.Time         `json:"created_at"`
	}
	v1RequestRecord struct {
		Key       string    `json:"key"`
		Tenant    string    `json:"tenant"`
		Platform  string    `json:"platform"`
		Channel   string    `json:"channel"`
		Thread    string    `json:"thread"`
		User      string    `json:"user"`
		Text      string    `json:"text"`
		Done      bool      `json:"done"`
		CheckID   string    `json:"check_id"`
		CreatedAt time.Time `json:"created_at"`
	}
	v1VerdictRecord struct {
		Verdict *factcheck.Verdict `json:"verdict"`
		At      time.Time          `json:"at"`
	}
)

func TestMigrateFromV1(t *testing.T) {
	if *update {
		os.Remove(v1Fixture)
		if err := writeV1Fixture(v1Fixture); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "factbot.db")
	copyFile(t, v1Fixture, path)
	now := time.Date(2026, 10, 2, 9, 0, 0, 0, time.UTC)
	db, err := Open(path, Options{Now: func() time.Time { return now }})
	mustf(t, err, "open v1 file")
	defer db.Close()

	h, err := db.History(ctx, "T1", HistoryQuery{Verdict: factcheck.Supported, Search: "eiffel"})
	mustf(t, err, "history")
	if diff := cmp.Diff([]string{"20261001T090000Z-aaaa"}, ids(h)); diff != "" {
		t.Errorf("migrated check through the new indexes (-want +got):\n%s", diff)
	}
	c, err := db.Check(ctx, "T1", "20261001T090000Z-aaaa")
	mustf(t, err, "check")
	if c.RequestKey != "slack:event:Ev1" || c.Platform != "slack" || c.Thread != "1.1" || c.Report.Claims[0].Verdict != factcheck.Supported {
		t.Errorf("migrated check: %+v", c)
	}
	// Its evidence was saved before quotes had a place: where each quote
	// was found reads as unknown when it was found, not found otherwise.
	var where []factcheck.QuotePlace
	for _, e := range c.Report.Claims[0].Evidence {
		where = append(where, e.Where())
	}
	if diff := cmp.Diff([]factcheck.QuotePlace{factcheck.QuoteUnknown, factcheck.QuoteNotFound}, where); diff != "" {
		t.Errorf("where the migrated check's quotes were found (-want +got):\n%s", diff)
	}
	// The verdict is found under the new normalisation (no full stop, other case).
	v, ok, err := db.Verdict(ctx, "T1", "THE EIFFEL TOWER IS 330 M TALL", 0, nil)
	if err != nil || !ok || !v.Cached {
		t.Errorf("migrated verdict: %v %v %v", v, ok, err)
	}
	r, err := db.Request(ctx, "T1", "slack:event:Ev1")
	mustf(t, err, "request")
	if r.State != RequestDone {
		t.Errorf("done v1 request has state %q", r.State)
	}
	pend, err := db.PendingRequests(ctx, "T1")
	mustf(t, err, "pending")
	if diff := cmp.Diff([]string{"slack:event:Ev2"}, keys(pend)); diff != "" {
		t.Errorf("pending after migration (-want +got):\n%s", diff)
	}
	if h, _ := db.History(ctx, "G9", HistoryQuery{User: "U7"}); len(h) != 1 {
		t.Errorf("second tenant's migrated check: %v", ids(h))
	}
	// Old records have no visibility: unknown, never public. A tenant-wide
	// listing shows them to their asker and to the channel they were made
	// in only.
	for _, tc := range []struct {
		a    *Audience
		want int
	}{
		{&Audience{User: "U9", Channel: "C9", TenantWide: true}, 0},
		{&Audience{User: "U9", Channel: "C1", TenantWide: true}, 1},
		{&Audience{User: "U1", TenantWide: true}, 1},
	} {
		if h, _ := db.History(ctx, "T1", HistoryQuery{Audience: tc.a}); len(h) != tc.want {
			t.Errorf("migrated check seen by %+v: %v, want %d", *tc.a, ids(h), tc.want)
		}
	}
	mustf(t, db.checkInvariants(), "verify")
	db.Close()

	// The file now says version 3, and opening again changes nothing.
	db2, err := Open(path, Options{})
	mustf(t, err, "reopen")
	defer db2.Close()
	db2.run(ctx, ModeView, func(tx *txn) error {
		if s := global(tx, bMeta).Get(kSchema); string(s) != strconv.Itoa(schemaVersion) {
			t.Errorf("schema after migration = %q", s)
		}
		return nil
	})
}

func TestOpenNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	b, err := bolt.Open(path, 0o600, nil)
	mustf(t, err, "bolt open")
	b.Update(func(tx *bolt.Tx) error {
		m, _ := tx.CreateBucketIfNotExists(bMeta)
		tx.CreateBucketIfNotExists(bTenants)
		return m.Put(kSchema, []byte("99"))
	})
	b.Close()
	if _, err := Open(path, Options{}); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("Open of a version 99 file: %v, want ErrNewerSchema", err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	mustf(t, err, "open %s (run with -update to write it)", from)
	defer in.Close()
	out, err := os.Create(to)
	mustf(t, err, "create")
	_, err = io.Copy(out, in)
	mustf(t, err, "copy")
	mustf(t, out.Close(), "close")
}
