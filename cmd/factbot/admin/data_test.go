package admin_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/cmd/factbot/admin"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
	"github.com/google/go-cmp/cmp"
)

// serveData opens a bbolt file, serves it on its admin socket and dials
// it; all are closed when the test ends.
func serveData(t *testing.T) (*store.DB, *admin.Client) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.db")
	db, err := store.Open(path, store.Options{})
	mustf(t, err, "open")
	t.Cleanup(func() { db.Close() })
	srv, err := admin.Start(context.Background(), path, db, admin.Options{})
	mustf(t, err, "start")
	t.Cleanup(func() { srv.Close() })
	c, err := admin.Dial(path)
	mustf(t, err, "dial")
	t.Cleanup(func() { c.Close() })
	return db, c
}

// TestDataThroughTheSocket: what the commands read and write reaches the
// database through the server as it would directly: a large check saved
// and read back, history, the caches, a missing check (ErrNotFound) and
// the streamed walk over the checks.
func TestDataThroughTheSocket(t *testing.T) {
	ctx := context.Background()
	db, c := serveData(t)

	big := strings.Repeat("a claim about the world. ", 20000) // 500 kB
	ck := &store.Check{Tenant: "cli", Platform: "cli", User: "ann", Text: big,
		Report: &factcheck.Report{Claims: []*factcheck.Verdict{{Claim: "The sky is blue", Verdict: factcheck.Supported}}}}
	mustf(t, c.SaveCheck(ctx, ck), "save a large check")
	if ck.ID == "" || ck.CreatedAt.IsZero() {
		t.Fatalf("saved check has no id or time: %+v", ck)
	}
	got, err := db.Check(ctx, "cli", ck.ID)
	if err != nil || got.Text != big {
		t.Fatalf("the check saved through the socket, read directly: %v", err)
	}
	if got, err := c.Check(ctx, "cli", ck.ID); err != nil || got.Text != big || got.Report.Claims[0].Claim != "The sky is blue" {
		t.Errorf("Check through the socket: %v", err)
	}
	if _, err := c.Check(ctx, "cli", "nosuch"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Check of a missing id = %v, want store.ErrNotFound", err)
	}
	if h, err := c.History(ctx, "cli", store.HistoryQuery{Search: "sky", Limit: 5}); err != nil || len(h) != 1 || h[0].ID != ck.ID {
		t.Errorf("History through the socket = %+v, %v", h, err)
	}

	v := &factcheck.Verdict{Claim: "Water boils at 100 °C at sea level", Verdict: factcheck.Supported, Confidence: factcheck.High}
	mustf(t, c.PutVerdict(ctx, "cli", v, nil), "put verdict")
	if got, ok, err := c.Verdict(ctx, "cli", v.Claim, time.Hour, nil); err != nil || !ok || got.Verdict != factcheck.Supported {
		t.Errorf("Verdict through the socket = %+v, %v, %v", got, ok, err)
	}
	if _, ok, err := c.Verdict(ctx, "cli", "never asked", time.Hour, nil); err != nil || ok {
		t.Errorf("Verdict of an unknown claim = %v, %v; want a miss", ok, err)
	}
	val, _ := json.Marshal(map[string]string{"q": "x"})
	mustf(t, c.Put(ctx, search.SearchBucket, "k", val, nil), "cache put")
	if got, at, ok, err := c.Get(ctx, search.SearchBucket, "k", nil); err != nil || !ok || string(got) != string(val) || at.IsZero() {
		t.Errorf("Get through the socket = %s, %v, %v, %v", got, at, ok, err)
	}
	if _, _, ok, err := c.Get(ctx, search.SearchBucket, "missing", nil); err != nil || ok {
		t.Errorf("Get of a missing key = %v, %v; want a miss", ok, err)
	}

	mustf(t, c.SaveCheck(ctx, &store.Check{Tenant: "cli", Platform: "cli", Text: "second"}), "save")
	var n int
	mustf(t, c.EachCheck(ctx, "cli", func(*store.Check) error { n++; return nil }), "each check")
	if n != 2 {
		t.Errorf("EachCheck through the socket saw %d checks, want 2", n)
	}
	stop := errors.New("stop")
	if err := c.EachCheck(ctx, "cli", func(*store.Check) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("EachCheck whose fn fails = %v, want its error", err)
	}
}

// TestCacheRecordsThroughTheSocket: a cache call through the server tells
// the client's recorder of the records the server's store read or wrote,
// as the store tells it directly.
func TestCacheRecordsThroughTheSocket(t *testing.T) {
	ctx := context.Background()
	db, c := serveData(t)

	through, direct := store.NewCacheRecorder(), store.NewCacheRecorder()
	v := &factcheck.Verdict{Claim: "Water boils at 100 °C at sea level", Verdict: factcheck.Supported}
	val, _ := json.Marshal(map[string]string{"q": "x"})
	for _, step := range []struct {
		name string
		run  func(factcheck.Cache, search.Cache, search.Recorder) error
	}{
		{"put verdict", func(fc factcheck.Cache, _ search.Cache, rec search.Recorder) error {
			return fc.PutVerdict(ctx, "cli", v, rec)
		}},
		{"verdict", func(fc factcheck.Cache, _ search.Cache, rec search.Recorder) error {
			_, _, err := fc.Verdict(ctx, "cli", v.Claim, time.Hour, rec)
			return err
		}},
		{"put extraction", func(fc factcheck.Cache, _ search.Cache, rec search.Recorder) error {
			return fc.PutExtraction(ctx, "cli", "Some text", &factcheck.Extraction{}, rec)
		}},
		{"cache put", func(_ factcheck.Cache, sc search.Cache, rec search.Recorder) error {
			return sc.Put(ctx, search.SearchBucket, "k", val, rec)
		}},
		{"cache get", func(_ factcheck.Cache, sc search.Cache, rec search.Recorder) error {
			_, _, _, err := sc.Get(ctx, search.SearchBucket, "k", rec)
			return err
		}},
	} {
		mustf(t, step.run(c, c, through), step.name+" through the socket")
		mustf(t, step.run(db, db, direct), step.name+" directly")
	}
	if len(direct.Refs()) != 3 {
		t.Errorf("direct records %+v, want a verdict, an extraction and a web entry", direct.Refs())
	}
	if diff := cmp.Diff(direct.Refs(), through.Refs()); diff != "" {
		t.Errorf("records through the socket (-direct +through):\n%s", diff)
	}
}
