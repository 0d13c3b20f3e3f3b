package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
)

// withWordRange sets maxWordRange for one test.
func withWordRange(t *testing.T, n int) {
	t.Helper()
	old := maxWordRange
	maxWordRange = n
	t.Cleanup(func() { maxWordRange = old })
}

// longWord is longer than maxIndexedWord.
const longWord = "pneumonoultramicroscopicsilicovolcanoconiosispneumonoultramicroscopicsilicovolcanoconiosis"

func TestWordIndex(t *testing.T) {
	db, clk := newDB(t)
	texts := []string{
		"The Eiffel Tower is 330 m tall",                     // all[5]
		"Towers of Paris: the Élysée towers over Montmartre", // all[4]
		longWord + " is a long word",                         // all[3]
		"Eiffel designed the tower in Paris",                 // all[2]
		"GDP grew 3.5% in 2024",                              // all[1]
		"The Tower of London is in London",                   // all[0]
	}
	var all []string
	for _, s := range texts {
		clk.Add(time.Hour)
		c := check("T1", "C1", "U1", s, clk.Now(), map[string]factcheck.Label{s: factcheck.Supported})
		mustf(t, db.SaveCheck(ctx, c), "save")
		all = append([]string{c.ID}, all...)
	}
	other := check("T2", "C1", "U1", "The Eiffel Tower", clk.Now(), map[string]factcheck.Label{"The Eiffel Tower": factcheck.Supported})
	mustf(t, db.SaveCheck(ctx, other), "save other tenant")
	tests := []struct {
		search string
		want   []string
	}{
		{"tower", []string{all[0], all[2], all[4], all[5]}},
		{"TOWERS", []string{all[4]}},
		{"tow", []string{all[0], all[2], all[4], all[5]}},
		{"ower", []string{}},
		{"eiffel tower", []string{all[2], all[5]}},
		{"tower eiffel paris", []string{all[2]}},
		{"tower paris london", []string{}},
		{"elysee", []string{}}, // accents are kept
		{"élysée", []string{all[4]}},
		{"ÉLYS", []string{all[4]}},
		{"3.5%", []string{all[1]}},
		{"3", []string{all[1], all[5]}},
		{"t", []string{all[0], all[2], all[4], all[5]}},
		{"pneumono", []string{all[3]}},
		{longWord, []string{all[3]}},
		{longWord[:70], []string{all[3]}},
		{longWord[:70] + "x", []string{}},
		{longWord + " long", []string{all[3]}},
		{"nothing", []string{}},
		{"tower nothing", []string{}},
	}
	for _, rng := range []int{20_000, 1, 0} { // the index; some words confirmed in the text; all confirmed
		t.Run(fmt.Sprintf("range %d", rng), func(t *testing.T) {
			withWordRange(t, rng)
			for _, tt := range tests {
				got, err := db.History(ctx, "T1", HistoryQuery{Search: tt.search})
				mustf(t, err, "history")
				if diff := cmp.Diff(tt.want, ids(got), cmpOpts); diff != "" {
					t.Errorf("History(Search: %q) (-want +got):\n%s", tt.search, diff)
				}
			}
			// With other filters, a limit and a since.
			got, _ := db.History(ctx, "T1", HistoryQuery{Search: "tower", Limit: 2})
			if diff := cmp.Diff([]string{all[0], all[2]}, ids(got)); diff != "" {
				t.Errorf("limit 2 (-want +got):\n%s", diff)
			}
			got, _ = db.History(ctx, "T1", HistoryQuery{Search: "tower", Since: t0.Add(3 * time.Hour)})
			if diff := cmp.Diff([]string{all[0], all[2]}, ids(got)); diff != "" {
				t.Errorf("since (-want +got):\n%s", diff)
			}
			got, _ = db.History(ctx, "T1", HistoryQuery{Search: "tower", User: "U2"})
			if len(got) != 0 {
				t.Errorf("search and another user: %v", ids(got))
			}
			if got, _ := db.History(ctx, "T2", HistoryQuery{Search: "tower paris"}); len(got) != 0 {
				t.Errorf("T2 found T1's check: %v", ids(got))
			}
		})
	}
	mustf(t, db.checkInvariants(), "verify")
}

// The index gives the same answers as reading every check's text, on a
// random corpus with shared prefixes.
func TestWordIndexMatchesScan(t *testing.T) {
	db, clk := newDB(t)
	rng := rand.New(rand.NewPCG(3, 4))
	vocab := []string{"a", "ab", "abc", "abd", "b", "ba", "bab", "cat", "cats", "dog", "dogma", "élan", "Über", "3.5%", "35", "x" + longWord, "x" + longWord + "y"}
	var cs []*Check
	for range 300 {
		clk.Add(time.Minute)
		var ws []string
		for range 1 + rng.IntN(5) {
			ws = append(ws, vocab[rng.IntN(len(vocab))])
		}
		s := strings.Join(ws, " ")
		cs = append(cs, check("T1", fmt.Sprintf("C%d", rng.IntN(3)), "U1", s, clk.Now(), map[string]factcheck.Label{s: factcheck.Labels[rng.IntN(4)]}))
	}
	mustf(t, db.SaveChecks(ctx, cs), "save")
	prefixes := []string{"a", "ab", "abc", "b", "ba", "c", "cat", "cats", "d", "dogm", "é", "ü", "3", "3.", "35", "x", "x" + longWord[:70], "x" + longWord + "y", "z"}
	for range 300 {
		var qs []string
		for range 1 + rng.IntN(3) {
			qs = append(qs, prefixes[rng.IntN(len(prefixes))])
		}
		q := HistoryQuery{Search: strings.Join(qs, " "), Limit: 1 + rng.IntN(40)}
		if rng.IntN(3) == 0 {
			q.Channel = fmt.Sprintf("C%d", rng.IntN(3))
		}
		if rng.IntN(3) == 0 {
			q.Since = t0.Add(time.Duration(rng.IntN(300)) * time.Minute)
		}
		results := map[int][]string{}
		for _, n := range []int{20_000, 30, 0} {
			maxWordRange = n
			h, err := db.History(ctx, "T1", q)
			mustf(t, err, "history")
			results[n] = ids(h)
		}
		maxWordRange = 20_000
		if diff := cmp.Diff(results[0], results[20_000], cmpOpts); diff != "" {
			t.Fatalf("History(%+v): index and scan differ (-scan +index):\n%s", q, diff)
		}
		if diff := cmp.Diff(results[0], results[30], cmpOpts); diff != "" {
			t.Fatalf("History(%+v): mixed and scan differ (-scan +mixed):\n%s", q, diff)
		}
	}
}

// Index entries follow their check through replacement, Prune and Forget.
func TestWordIndexMaintained(t *testing.T) {
	db, clk := newDB(t)
	search := func(tenant, words string) []string {
		t.Helper()
		h, err := db.History(ctx, tenant, HistoryQuery{Search: words})
		mustf(t, err, "history")
		return ids(h)
	}
	// Replacement: a request resumed after a crash saves a new check under
	// the first one's ID.
	_, err := db.AcceptRequest(ctx, &Request{Key: "k1", Tenant: "T1", User: "U1", Text: "Zebras are striped"})
	mustf(t, err, "accept")
	first := check("T1", "C1", "U1", "Zebras are striped", clk.Now(), map[string]factcheck.Label{"Zebras are striped": factcheck.Supported})
	first.RequestKey = "k1"
	mustf(t, db.SaveCheck(ctx, first), "save")
	second := check("T1", "C1", "U1", "Okapis are striped", clk.Now(), map[string]factcheck.Label{"Okapis are striped": factcheck.Supported})
	second.RequestKey = "k1"
	mustf(t, db.SaveCheck(ctx, second), "save again")
	if second.ID != first.ID {
		t.Fatalf("replacement got a new ID")
	}
	if got := search("T1", "zebra"); len(got) != 0 {
		t.Errorf("replaced check's old word still found: %v", got)
	}
	if diff := cmp.Diff([]string{first.ID}, search("T1", "okapi striped")); diff != "" {
		t.Errorf("replacement's words (-want +got):\n%s", diff)
	}
	mustf(t, db.checkInvariants(), "verify after replacement")

	// Forget.
	clk.Add(time.Hour)
	mine := check("T1", "C1", "U2", "Quokkas smile", clk.Now(), map[string]factcheck.Label{"Quokkas smile": factcheck.Contested})
	theirs := check("T1", "C1", "U3", "Quokkas are marsupials", clk.Now(), map[string]factcheck.Label{"Quokkas are marsupials": factcheck.Supported})
	mustf(t, db.SaveChecks(ctx, []*Check{mine, theirs}), "save")
	_, err = db.Forget(ctx, "T1", "U2")
	mustf(t, err, "forget")
	if diff := cmp.Diff([]string{theirs.ID}, search("T1", "quokka")); diff != "" {
		t.Errorf("after forget (-want +got):\n%s", diff)
	}
	if got := search("T1", "smile"); len(got) != 0 {
		t.Errorf("forgotten words still found: %v", got)
	}
	mustf(t, db.checkInvariants(), "verify after forget")

	// Prune.
	clk.Add(40 * 24 * time.Hour)
	recent := check("T1", "C1", "U1", "Okapis are giraffids", clk.Now(), map[string]factcheck.Label{"Okapis are giraffids": factcheck.Supported})
	mustf(t, db.SaveCheck(ctx, recent), "save")
	_, err = db.Prune(ctx, clk.Now().Add(-30*24*time.Hour))
	mustf(t, err, "prune")
	if diff := cmp.Diff([]string{recent.ID}, search("T1", "okapi")); diff != "" {
		t.Errorf("after prune (-want +got):\n%s", diff)
	}
	for _, w := range []string{"quokka", "striped", "zebra"} {
		if got := search("T1", w); len(got) != 0 {
			t.Errorf("pruned word %q still found: %v", w, got)
		}
	}
	mustf(t, db.checkInvariants(), "verify after prune")
	db.run(ctx, ModeView, func(tx *txn) error {
		tb := &tenantTx{tx, "T1"}
		if n := countKeys(tb.Bucket(bWords)); n != len(textWords([]byte(" okapis are giraffids okapis are giraffids "))) {
			t.Errorf("word index has %d entries after prune, want those of one check", n)
		}
		return nil
	})
}

// A file written by the version 2 code (testdata/v2.db, with records in
// version 2 envelopes and no word index) gets its index on open.
func TestMigrateFromV2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	copyFile(t, "testdata/v2.db", path)
	db, err := Open(path, Options{Now: func() time.Time { return time.Date(2026, 10, 6, 0, 0, 0, 0, time.UTC) }})
	mustf(t, err, "open v2 file")
	defer db.Close()
	mustf(t, db.checkInvariants(), "verify")
	tests := []struct {
		tenant, search string
		want           []string
	}{
		{"T1", "tower", []string{"20261005T090100Z-bbbb", "20261005T090000Z-aaaa"}},
		{"T1", "eiffel tow", []string{"20261005T090000Z-aaaa"}},
		{"T1", "élysée montmartre", []string{"20261005T090100Z-bbbb"}},
		{"T1", "pneumonoultramicroscopicsilicovolcanoconiosispneumonoultramicroscopicsilicovolcanoconiosis longest", []string{"20261005T090200Z-cccc"}},
		{"T1", "gustave", []string{}},
		{"G9", "gustave eiffel", []string{"20261005T090300Z-dddd"}},
	}
	for _, tt := range tests {
		h, err := db.History(ctx, tt.tenant, HistoryQuery{Search: tt.search})
		mustf(t, err, "history")
		if diff := cmp.Diff(tt.want, ids(h), cmpOpts); diff != "" {
			t.Errorf("History(%s, %q) after migration (-want +got):\n%s", tt.tenant, tt.search, diff)
		}
	}
	// Version 2 records are read as they are.
	c, err := db.Check(ctx, "T1", "20261005T090100Z-bbbb")
	mustf(t, err, "check")
	if len(c.Feedback) != 1 || c.Report.Claims[0].Verdict != factcheck.Contradicted {
		t.Errorf("migrated check: %+v", c)
	}
	if _, ok, err := db.Verdict(ctx, "T1", "the eiffel tower is 330 m tall", 1000*24*time.Hour, nil); !ok || err != nil {
		t.Errorf("version 2 cached verdict: %v, %v", ok, err)
	}
	if p, err := db.PendingRequests(ctx, "T1"); err != nil || len(p) != 1 {
		t.Errorf("pending requests: %v, %v", p, err)
	}
	db.run(ctx, ModeView, func(tx *txn) error {
		if s := global(tx, bMeta).Get(kSchema); string(s) != strconv.Itoa(schemaVersion) {
			t.Errorf("schema after migration = %q", s)
		}
		return nil
	})
}

// Check IDs are packed in the word index (schema version 6): an ID of
// NewCheckID's form in 7 bytes or more, sorting as the IDs do; any other
// as it is.
func TestPackID(t *testing.T) {
	tests := []struct {
		id     string
		packed int // its length packed
	}{
		{"20261129T122400Z-3f9a", 7},
		{"19700101T000000Z-0000", 7},
		{"21060207T062815Z-ffff", 7},   // the last second of 4 bytes
		{"21060207T062816Z-ffff", 22},  // after it
		{"19691231T235959Z-0001", 22},  // before 1970
		{"20261129T122400Z-3f9a0b", 8}, // more digits after collisions
		{"20261129T122400Z-", 5},
		{"20261129T122400Z-3F9A", 22}, // not as NewCheckID writes it
		{"20261129T122400Z-3f9", 21},
		{"20261131T122400Z-3f9a", 22}, // no such day
		{"20261129T122400Z_3f9a", 22},
		{"c1", 3},
		{"", 1},
		{"\x01\x00\x00\x00\x00", 6},
	}
	for _, tt := range tests {
		p := packID(tt.id)
		if len(p) != tt.packed {
			t.Errorf("packID(%q) = %x, %d bytes, want %d", tt.id, p, len(p), tt.packed)
		}
		if got := string(unpackID([]byte("x"), p)); got != "x"+tt.id {
			t.Errorf("unpackID(packID(%q)) = %q", tt.id, got[1:])
		}
	}
	at := time.Date(2026, 11, 29, 12, 24, 0, 0, time.UTC)
	ids := []string{"20261129T122400Z-0000", "20261129T122400Z-00ff", "20261129T122400Z-0100", "20261129T122400Z-010000", "20261129T122401Z-0000"}
	for range 200 {
		ids = append(ids, NewCheckID(at.Add(time.Duration(rand.IntN(1e6))*time.Second), func(string) bool { return false }))
	}
	for _, a := range ids {
		for _, b := range ids {
			if got, want := bytes.Compare(packID(a), packID(b)), strings.Compare(a, b); got != want {
				t.Fatalf("packed %q and %q compare %d, the IDs %d", a, b, got, want)
			}
		}
	}
}

// A word search finds checks whose IDs are not of NewCheckID's form,
// among others, newest first.
func TestWordIndexRawIDs(t *testing.T) {
	db, _ := newDB(t)
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"20261129T120000Z-0001", "c1", "20261129T120200Z-0003", "20261129T120100Z-0002", "zz"} {
		c := check("T1", "C1", "U1", "okapis are giraffids", at.Add(time.Duration(i)*time.Minute), map[string]factcheck.Label{"okapis are giraffids": factcheck.Supported})
		c.ID = id
		mustf(t, db.SaveCheck(ctx, c), "save %s", id)
	}
	h, err := db.History(ctx, "T1", HistoryQuery{Search: "okapis giraffid", Limit: 10})
	mustf(t, err, "history")
	want := []string{"zz", "c1", "20261129T120200Z-0003", "20261129T120100Z-0002", "20261129T120000Z-0001"}
	if diff := cmp.Diff(want, ids(h)); diff != "" {
		t.Errorf("History by words (-want +got):\n%s", diff)
	}
	h, err = db.History(ctx, "T1", HistoryQuery{Search: "okapis", Limit: 2})
	mustf(t, err, "history")
	if diff := cmp.Diff(want[:2], ids(h)); diff != "" {
		t.Errorf("History by words, a page of 2 (-want +got):\n%s", diff)
	}
	mustf(t, db.checkInvariants(), "invariants")
}
