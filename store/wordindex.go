package store

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"iter"
	"math"
	"slices"
	"strings"
	"time"
)

// The word index (schema version 3): per tenant, words/<word>\x00<id> → ""
// for every distinct word of a check's search text (see searchText), so a
// word search seeks each query word's prefix range instead of reading the
// text of every check. The native path (driver.go: NativeTx.IndexWords)
// indexes the text/<id> records under the same words instead.
//
// Since schema version 6 the <id> of an entry is packed (packID): an ID
// of NewCheckID's form, "20261129T122400Z-3f9a", takes 7 bytes instead of
// 21, and a check has an entry for each of its words (17 in BenchmarkSize).

var bWords = []byte("words")

// The first byte of a packed ID.
const (
	idPacked = 1 // then the ID's time (unix seconds, 4 bytes big endian) and its hex digits as bytes
	idRaw    = 2 // then the ID as it is: one not of NewCheckID's form
)

// packID returns the check ID id as a word index entry holds it. Packed
// IDs of NewCheckID's form sort as the IDs do.
func packID(id string) []byte {
	const n = len(idTimeLayout)
	if len(id) > n && id[n] == '-' {
		t, err := time.Parse(idTimeLayout, id[:n])
		h, herr := hex.DecodeString(id[n+1:])
		if err == nil && herr == nil && t.Unix() >= 0 && t.Unix() <= math.MaxUint32 &&
			t.Format(idTimeLayout) == id[:n] && hex.EncodeToString(h) == id[n+1:] {
			return append(binary.BigEndian.AppendUint32([]byte{idPacked}, uint32(t.Unix())), h...)
		}
	}
	return append([]byte{idRaw}, id...)
}

// unpackID appends the check ID that packID packed as p to dst.
func unpackID(dst, p []byte) []byte {
	switch {
	case len(p) >= 5 && p[0] == idPacked: // idTimeLayout's digits, without time.Format's parsing of it
		t := time.Unix(int64(binary.BigEndian.Uint32(p[1:5])), 0).UTC()
		y, mo, d := t.Date()
		h, mi, s := t.Clock()
		for _, n := range [...]int{y / 100, y % 100, int(mo), d, -1, h, mi, s} {
			if n < 0 {
				dst = append(dst, 'T')
				continue
			}
			dst = append(dst, byte('0'+n/10), byte('0'+n%10))
		}
		return hex.AppendEncode(append(dst, 'Z', '-'), p[5:])
	case len(p) > 0 && p[0] == idRaw:
		return append(dst, p[1:]...)
	}
	return append(dst, p...)
}

// wordKey is the word index key of word w and packed check ID pid (as
// indexKey, in one allocation).
func wordKey(w string, pid []byte) []byte {
	w = strings.ReplaceAll(w, "\x00", "")
	k := make([]byte, 0, len(w)+1+len(pid))
	return append(append(append(k, w...), 0), pid...)
}

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
func indexedWord(w string) string { return runeCut(w, maxIndexedWord) }

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
		return n.IndexWords(tb.Bucket(bText).b, []byte(id), textWords(text))
	}
	b, pid := tb.Bucket(bWords), packID(id)
	for _, w := range textWords(text) {
		if err := b.Put(wordKey(w, pid), nil); err != nil {
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
	text := tb.Bucket(bText).Get(id)
	if text == nil {
		return nil
	}
	b, pid := tb.Bucket(bWords), packID(string(id))
	for _, w := range textWords(text) {
		if err := b.Delete(wordKey(w, pid)); err != nil {
			return err
		}
	}
	return nil
}

// wordCandidates looks the query words up in the word index. It walks
// each word's prefix range, up to limit entries, and returns the check IDs
// in every range that ended within the limit (their intersection), newest
// first (each valid until the next is reached: see checkIDs), with the
// words the caller must still confirm in each candidate's search text:
// those whose range was wider, and any longer than maxIndexedWord. The
// index is read in key order, and only the checks that have every narrow
// word are read: a search of rare words costs their index entries and
// their matches, not the checks of the commonest. ok is false when every
// range has more than limit entries: the words are all common, and the
// caller should scan the newest checks instead.
func wordCandidates(b *bkt, words []string, limit int) (ids iter.Seq[[]byte], confirm []string, ok bool) {
	if n := b.tx.nat; n != nil {
		found, confirm, ok := nativeCandidates(n, Bucket{b.b.Tenant, string(bText)}, words, limit)
		return slices.Values(found), confirm, ok
	}
	packed, confirm, ok := packedCandidates(b, words, limit)
	return checkIDs(packed), confirm, ok
}

// packedCandidates is wordCandidates on the portable path: the packed IDs,
// in the order of their index entries, highest first.
func packedCandidates(b *bkt, words []string, limit int) (ids [][]byte, confirm []string, ok bool) {
	words = slices.Compact(slices.Sorted(slices.Values(words)))
	var got [][]byte // a word's IDs; its memory serves the next word
	narrow := false  // some word's range was within the limit
	for _, w := range words {
		prefix := []byte(indexedWord(w))
		got = got[:0]
		c := b.Cursor()
		k, _ := c.Seek(prefix)
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(got) <= limit; k, _ = c.Next() {
			if j := bytes.IndexByte(k, 0); j >= 0 {
				got = append(got, k[j+1:]) // valid until the transaction ends
			}
		}
		wide := k != nil && bytes.HasPrefix(k, prefix) // more entries than limit
		if wide || string(prefix) != w {
			confirm = append(confirm, w)
		}
		if wide {
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

// checkIDs yields the check IDs of the packed IDs ids (highest first),
// each unpacked as it is reached, into memory the next one reuses. The
// order of packed IDs is the IDs' unless one is raw (not of NewCheckID's
// form): such a list is unpacked whole and sorted first.
func checkIDs(ids [][]byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		if slices.ContainsFunc(ids, func(p []byte) bool { return len(p) == 0 || p[0] != idPacked }) {
			out := make([][]byte, len(ids))
			for i, p := range ids {
				out[i] = unpackID(nil, p)
			}
			slices.SortFunc(out, func(a, b []byte) int { return bytes.Compare(b, a) })
			slices.Values(out)(yield)
			return
		}
		var buf []byte
		for _, p := range ids {
			if buf = unpackID(buf[:0], p); !yield(buf) {
				return
			}
		}
	}
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

// rebuildWords builds the tenant's word index from its stored search
// texts, inserting in key order so the index's pages are packed. It is the
// migration from schema version 5 to 6, which packs the index's IDs; the
// one from 2 to 3, which added the index, does nothing since then. The
// native path keeps no word index of its own.
func rebuildWords(tb *tenantTx) error {
	if tb.tx.nat != nil {
		return nil
	}
	if err := tb.DeleteBucket(bWords); err != nil {
		return err
	}
	var keys [][]byte
	err := tb.Bucket(bText).ForEach(func(id, t []byte) error {
		pid := packID(string(id))
		for _, w := range textWords(t) {
			keys = append(keys, wordKey(w, pid))
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(keys, bytes.Compare)
	b := tb.Bucket(bWords)
	for _, k := range keys {
		if err := b.Put(k, nil); err != nil {
			return err
		}
	}
	return nil
}
