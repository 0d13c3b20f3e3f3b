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
// text of every check.

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
	text := get(sub(tb, bText), id)
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

// wordCandidates looks the query words up in the word index. It walks the
// words' prefix ranges side by side, one entry of each at a time, until the
// narrowest range ends, and returns that range's check IDs, newest first,
// with the words the caller must still confirm in each candidate's search
// text: the others, and any longer than maxIndexedWord. Walking side by side
// costs at most the number of words times the narrowest range, however
// common the other words are. ok is false when every range has more than
// limit entries: the words are all common, and the caller should scan the
// newest checks instead.
func wordCandidates(b *bkt, words []string, limit int) (ids [][]byte, confirm []string, ok bool) {
	if b == nil {
		return nil, nil, true // no check was ever indexed: nothing matches
	}
	words = slices.Compact(slices.Sorted(slices.Values(words)))
	type walk struct {
		prefix []byte
		cur    Cursor
		k      []byte
		ids    [][]byte
	}
	ws := make([]*walk, len(words))
	for i, w := range words {
		ws[i] = &walk{prefix: []byte(indexedWord(w)), cur: b.Cursor()}
		ws[i].k, _ = ws[i].cur.Seek(ws[i].prefix)
	}
	narrowest := -1
	for n := 0; narrowest < 0 && n <= limit; n++ {
		for i, w := range ws {
			if w.k == nil || !bytes.HasPrefix(w.k, w.prefix) {
				narrowest = i
				break
			}
			if n == limit {
				continue // one entry too many: not narrow
			}
			if j := bytes.IndexByte(w.k, 0); j >= 0 {
				w.ids = append(w.ids, w.k[j+1:])
			}
			w.k, _ = w.cur.Next()
		}
	}
	if narrowest < 0 {
		return nil, nil, false
	}
	for i, w := range words {
		if i != narrowest || indexedWord(w) != w {
			confirm = append(confirm, w)
		}
	}
	// The IDs of each word of the range are in order; a prefix range may
	// hold several words.
	ids = ws[narrowest].ids
	slices.SortFunc(ids, func(a, b []byte) int { return bytes.Compare(b, a) })
	return slices.CompactFunc(ids, bytes.Equal), confirm, true
}

// migrate2to3 builds the word index of every tenant from the stored search
// texts, inserting in key order so the index's pages are packed.
func migrate2to3(tx Tx) error {
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
