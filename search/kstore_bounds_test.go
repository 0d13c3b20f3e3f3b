package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeClaims writes n claims' files of docs documents each into a new
// folder.
func writeClaims(t testing.TB, n, docs int) string {
	t.Helper()
	dir := t.TempDir()
	for c := range n {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		for d := range docs {
			var sents []string
			for s := range 40 {
				sents = append(sents, fmt.Sprintf("Claim %d document %d sentence %d says the harbour of town%d handled %d tonnes of grain in year %d.", c, d, s, d, c*1000+s, 1900+s))
			}
			enc.Encode(map[string]any{"claim_id": c, "url": fmt.Sprintf("https://site%d.example/%d", d, c), "url2text": sents})
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(c)+".json"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A claim held for its check is shared by its holders and let go when
// the last releases it: nothing stays loaded after a run.
func TestKnowledgeStoreHold(t *testing.T) {
	k, err := NewKnowledgeStore(writeClaims(t, 3, 2))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r1, err := k.Hold("1")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := k.Hold("1")
	if err != nil {
		t.Fatal(err)
	}
	if res, err := k.Search(ctx, Query{Text: "harbour grain tonnes", Max: 5, Claim: "1"}); err != nil || len(res.Results) == 0 {
		t.Fatalf("Search = %+v, %v", res, err)
	}
	r1()
	r1() // a second release is a no-op
	if _, ok := k.held["1"]; !ok {
		t.Error("the claim was let go while a holder remains")
	}
	r2()
	for id := range 3 {
		release, err := k.Hold(fmt.Sprint(id))
		if err != nil {
			t.Fatal(err)
		}
		release()
	}
	if len(k.held) != 0 || k.last != nil {
		t.Errorf("after every release, %d claims held and last %v; want none", len(k.held), k.last != nil)
	}
	// Without Hold, one claim at most is kept.
	for id := range 3 {
		if _, err := k.Search(context.Background(), Query{Text: "harbour", Max: 5, Claim: fmt.Sprint(id)}); err != nil {
			t.Fatal(err)
		}
	}
	if len(k.held) != 0 || k.lastID != "2" {
		t.Errorf("searches without Hold kept %d held claims and %q last; want none and the last", len(k.held), k.lastID)
	}
}

// A claim's file that is missing, malformed, not a regular file, a link
// out of the store or over the size bound is an error of Hold, at once.
func TestKnowledgeStoreClaimFiles(t *testing.T) {
	dir := writeClaims(t, 1, 1)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "bad.json"), []byte("{\"url\": \n"), 0o644))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644))
	must(os.Symlink("/proc/self/environ", filepath.Join(dir, "env.json")))
	must(os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")))
	k, err := NewKnowledgeStore(dir)
	must(err)
	for id, want := range map[string]string{"missing": "no such file", "bad": "line 1", "fifo": "not a regular file", "env": "escapes", "zero": "escapes"} {
		done := make(chan error, 1)
		go func() {
			_, err := k.Hold(id)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Hold(%q) = %v, want an error saying %q", id, err, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("Hold(%q) hung", id)
		}
	}
	if _, err := readClaimDocs(strings.NewReader(strings.Repeat(`{"url": "https://a.example/", "url2text": ["x"]}`+"\n", 100)), "big.json", 1000, t.TempDir()); !errors.Is(err, errTooLarge) {
		t.Errorf("readClaimDocs over its bound = %v, want errTooLarge", err)
	}
}

// BenchmarkKnowledgeStoreClaims checks claims one after another as a run
// does (hold, search, read, release) and reports the heap a held claim
// takes, the heap still in use once every claim is done (near zero: each
// claim is let go after its check, so a run holds only the claims being
// checked) and the bytes allocated per claim.
func BenchmarkKnowledgeStoreClaims(b *testing.B) {
	const claims = 8
	dir := writeClaims(b, claims, 100)
	heap := func() int64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	var held, retained, allocated int64
	for b.Loop() {
		k, err := NewKnowledgeStore(dir)
		if err != nil {
			b.Fatal(err)
		}
		var before runtime.MemStats
		base := heap()
		runtime.ReadMemStats(&before)
		for id := range claims {
			release, err := k.Hold(fmt.Sprint(id))
			if err != nil {
				b.Fatal(err)
			}
			ctx, claim := context.Background(), fmt.Sprint(id)
			res, err := k.Search(ctx, Query{Text: "harbour grain tonnes", Max: 5, Claim: claim})
			if err != nil || len(res.Results) == 0 {
				b.Fatal(res, err)
			}
			if _, err := k.ReadPage(ctx, PageRequest{URL: res.Results[0].URL, Claim: claim}); err != nil {
				b.Fatal(err)
			}
			held = max(held, heap()-base)
			release()
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		allocated += int64(after.TotalAlloc - before.TotalAlloc)
		retained = max(retained, heap()-base)
		runtime.KeepAlive(k)
	}
	b.ReportMetric(float64(held)/(1<<20), "MB-heap-held-claim")
	b.ReportMetric(float64(retained)/(1<<20), "MB-heap-after-8-claims")
	b.ReportMetric(float64(allocated)/float64(b.N*claims)/(1<<20), "MB-alloc/claim")
}
