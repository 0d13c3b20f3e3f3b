package store

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
)

// The word index (schema version 3): per tenant, words/<word>\x00<id> → ""
// for every distinct word of a check's search text (see searchText), so a
// word search seeks each query word's prefix range instead of reading the
// text of every check. The native path (driver.go: NativeTx.IndexWords)
// indexes the text/<id> records under the same words instead.

var bWords = []byte("words")

// maxIndexedWord bounds an indexed word's bytes; longer words are indexed
// by their start (cut on a rune boundary) and a query word longer than that
// is confirmed against the search text.
const maxIndexedWord = 64

// maxWordRange is the most index entries the narrowest query word's prefix
// range may have for History to use the index. When every word's range is
// wider (one-letter words, words in a fifth of the checks at 100,000), the
// words are common enough that scanning the newest checks' text finds a
// page of matches sooner. Measured at 100,000 checks (see bench_test.go):
// walking an entry costs about 80 ns, so giving up on a word costs about
// 1.5 ms; with a bound of 5,000 three words of 8,800 entries each
// ("w42 w43 w44") fell back to a 19 ms scan, with 20,000 they take 6 ms
// through the index, and with 50,000 two common words ("w4 w5") took 16 ms
// instead of 4.
// (A variable so tests can force either path.)
var maxWordRange = 20_000

// indexedWord returns w cut to maxIndexedWord bytes on a rune boundary.
func indexedWord(w string) string {
	if len(w) <= maxIndexedWord {
		return w
	}
	n := maxIndexedWord
	for n > 0 && !utf8.RuneStart(w[n]) {
		n--
	}
	return w[:n]
}

// textWords returns the distinct indexed words of a search text, sorted.
func textWords(text []byte) []string {
	fields := strings.Fields(string(text))
	ws := make([]string, 0, len(fields))
	for _, f := range fields {
		ws = append(ws, indexedWord(f))
	}
	slices.Sort(ws)
	return slices.Compact(ws)
}

// putWords adds the index entries of one check's search text.
func putWords(tb *tenantTx, id string, text []byte) error {
	if n := tb.tx.nat; n != nil {
		return n.IndexWords(sub(tb, bText).b, []byte(id), textWords(text))
	}
	b := sub(tb, bWords)
	for _, w := range textWords(text) {
		if err := b.Put(indexKey(w, id), nil); err != nil {
			return err
		}
	}
	return nil
}

// deleteWords removes the index entries of the check's stored search text.
func deleteWords(tb *tenantTx, id []byte) error {
	if tb.tx.nat != nil {
		return nil // deleted with the record
	}
	text := sub(tb, bText).Get(id)
	if text == nil {
		return nil
	}
	b := sub(tb, bWords)
	for _, w := range textWords(text) {
		if err := b.Delete(indexKey(w, string(id))); err != nil {
			return err
		}
	}
	return nil
}

// wordCandidates looks the query words up in the word index. It walks
// each word's prefix range, up to limit entries, and returns the check IDs
// in every range that ended within the limit (their intersection), newest
// first, with the words the caller must still confirm in each candidate's
// search text: those whose range was wider, and any longer than
// maxIndexedWord. The index is read in key order, and only the checks
// that have every narrow word are read: a search of rare words costs their
// index entries and their matches, not the checks of the commonest. ok is
// false when every range has more than limit entries: the words are all
// common, and the caller should scan the newest checks instead.
func wordCandidates(b *bkt, words []string, limit int) (ids [][]byte, confirm []string, ok bool) {
	if b == nil {
		return nil, nil, true // no check was ever indexed: nothing matches
	}
	if n := b.tx.nat; n != nil {
		return nativeCandidates(n, Bucket{b.b.Tenant, string(bText)}, words, limit)
	}
	words = slices.Compact(slices.Sorted(slices.Values(words)))
	var got [][]byte // a word's IDs; its memory serves the next word
	narrow := false  // some word's range was within the limit
	for _, w := range words {
		prefix := []byte(indexedWord(w))
		if indexedWord(w) != w {
			confirm = append(confirm, w)
		}
		got = got[:0]
		c := b.Cursor()
		k, _ := c.Seek(prefix)
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(got) <= limit; k, _ = c.Next() {
			if j := bytes.IndexByte(k, 0); j >= 0 {
				got = append(got, k[j+1:]) // valid until the transaction ends
			}
		}
		if k != nil && bytes.HasPrefix(k, prefix) { // wider than limit
			if indexedWord(w) == w {
				confirm = append(confirm, w)
			}
			continue
		}
		// A prefix range may hold several words, each with its IDs in order.
		slices.SortFunc(got, func(a, b []byte) int { return bytes.Compare(b, a) })
		got = slices.CompactFunc(got, bytes.Equal)
		if narrow {
			ids = intersectDesc(ids, got)
		} else {
			ids, narrow = slices.Clone(got), true
		}
	}
	if !narrow {
		return nil, nil, false
	}
	return ids, confirm, true
}

// nativeCandidates is wordCandidates on the native path: the IDs with
// every word, unless there are more than limit of them.
func nativeCandidates(ix NativeTx, text Bucket, words []string, limit int) (ids [][]byte, confirm []string, ok bool) {
	prefixes := make([]string, len(words))
	for i, w := range words {
		if prefixes[i] = indexedWord(w); prefixes[i] != w {
			confirm = append(confirm, w)
		}
	}
	if ids = ix.FindWords(text, prefixes, limit+1); len(ids) > limit {
		return nil, nil, false
	}
	return ids, confirm, true
}

// intersectDesc returns the IDs in both a and b, each sorted newest first.
func intersectDesc(a, b [][]byte) [][]byte {
	var out [][]byte
	for len(a) > 0 && len(b) > 0 {
		switch c := bytes.Compare(a[0], b[0]); {
		case c == 0:
			out = append(out, a[0])
			a, b = a[1:], b[1:]
		case c > 0:
			a = a[1:]
		default:
			b = b[1:]
		}
	}
	return out
}

// migrate2to3 builds the word index of every tenant from the stored search
// texts, inserting in key order so the index's pages are packed.
func migrate2to3(tx *txn) error {
	for _, name := range tx.Tenants() {
		tb := &tenantTx{tx, name}
		text := tb.Bucket(bText)
		if err := tb.DeleteBucket(bWords); err != nil {
			return err
		}
		var keys [][]byte
		err := text.ForEach(func(id, t []byte) error {
			for _, w := range textWords(t) {
				keys = append(keys, indexKey(w, string(id)))
			}
			return nil
		})
		if err != nil {
			return err
		}
		slices.SortFunc(keys, bytes.Compare)
		b := sub(tb, bWords)
		for _, k := range keys {
			if err := b.Put(k, nil); err != nil {
				return err
			}
		}
	}
	return nil
}
