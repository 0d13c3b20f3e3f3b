package factcheck

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/factcheck/evidence"
)

// The library: every URL a verification's tools returned and every text
// it saw for each, split into sentences with their IDs. The research
// stage fills it; citing, the provenance check and the compact transcript
// read it. It is safe for the concurrent calls of one turn.
type library struct {
	clock func() time.Time
	mu    sync.Mutex
	docs  map[string]*doc // URLs retrieved in this run, by key
	order []string        // doc keys in retrieval order
	// allow are the URLs the user wrote, by key; userLinks the canonical
	// forms of every link the user wrote, with or without a scheme: the
	// model may repeat them.
	allow     map[string]string
	userLinks map[string]bool
}

// newLibrary is an empty library for a claim checked from userText.
func newLibrary(clock func() time.Time, userText string) *library {
	lib := &library{clock: clock, docs: map[string]*doc{}, allow: map[string]string{}, userLinks: evidence.LinkKeys(userText)}
	for _, u := range urlsIn(userText) {
		lib.allow[urlKey(u)] = u
	}
	return lib
}

// fromUser reports whether the user wrote u.
func (lib *library) fromUser(u string) bool {
	_, ok := lib.allow[urlKey(u)]
	return ok
}

// doc is a URL retrieved in a run, with every text the run saw for it.
type doc struct {
	url       string
	n         int // the source's number in passage IDs, from 1
	title     string
	titles    []string // every title seen for url
	via       string
	ps        evidence.Passages // the sentences seen for url, with their places
	fetchedAt time.Time
	sha256    string
	publisher string
	rating    string
	published string // when the source says it was published, if known
}

// seenText is one text a tool returned for a URL: a page, a PDF page, a
// search snippet, or a search summary a model wrote.
type seenText struct {
	place QuotePlace
	page  int
	text  string
}

// remember records a retrieved URL and the texts seen for it, split into
// sentences; it returns the doc and, per text, the range of its sentences
// (nil for a URL no key can be made of).
func (lib *library) remember(u, title, via string, texts []seenText, mod func(*doc)) (*doc, [][2]int) {
	k := urlKey(u)
	if k == "" {
		return nil, nil
	}
	lib.mu.Lock()
	defer lib.mu.Unlock()
	d, ok := lib.docs[k]
	if !ok {
		d = &doc{url: u, title: title, via: via, fetchedAt: lib.clock()}
		lib.docs[k] = d
		lib.order = append(lib.order, k)
		d.n = len(lib.order)
	}
	if d.title == "" {
		d.title = title
	}
	if t := strings.TrimSpace(title); t != "" && !slices.Contains(d.titles, t) {
		d.titles = append(d.titles, t)
	}
	var ranges [][2]int
	for _, t := range texts {
		first, end := d.ps.Add(t.place, t.page, t.text)
		ranges = append(ranges, [2]int{first, end})
	}
	if mod != nil {
		mod(d)
	}
	return d, ranges
}

func (lib *library) lookup(u string) (*doc, bool) {
	lib.mu.Lock()
	defer lib.mu.Unlock()
	if d, ok := lib.docs[urlKey(u)]; ok {
		return d, true
	}
	// A source may be named by its number in passage IDs: "p2".
	if n, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(u)), "p")); err == nil && n >= 1 && n <= len(lib.order) {
		return lib.docs[lib.order[n-1]], true
	}
	return nil, false
}

// sources lists every URL retrieved, in order, marking the cited ones.
func (lib *library) sources(cited []Evidence) []Source {
	keys := map[string]bool{}
	for _, e := range cited {
		keys[urlKey(e.SourceURL)] = true
	}
	var out []Source
	for _, k := range lib.order {
		d := lib.docs[k]
		out = append(out, Source{URL: d.url, Title: d.title, Via: d.via, FetchedAt: d.fetchedAt, SHA256: d.sha256, Cited: keys[k]})
	}
	return out
}

// linkAllowed reports whether the canonical URL k was retrieved in this run
// or written by the user.
func (lib *library) linkAllowed(k string) bool {
	if _, ok := lib.allow[k]; ok || lib.userLinks[k] {
		return true
	}
	lib.mu.Lock()
	defer lib.mu.Unlock()
	_, ok := lib.docs[k]
	return ok
}

// shownSentence is a sentence a tool showed the model, by its ID.
type shownSentence struct {
	id   string
	text string
	d    *doc
}

// shownSentences returns the sentences whose IDs appear in a tool's
// output, once each, in order.
func (lib *library) shownSentences(content []byte) []shownSentence {
	lib.mu.Lock()
	defer lib.mu.Unlock()
	var out []shownSentence
	seen := map[string]bool{}
	for _, m := range shownID().FindAllSubmatch(content, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		i, _ := strconv.Atoi(string(m[2]))
		id := evidence.ID(n, i-1)
		if seen[id] || n < 1 || n > len(lib.order) {
			continue
		}
		seen[id] = true
		d := lib.docs[lib.order[n-1]]
		if i < 1 || i > len(d.ps.Sents) {
			continue
		}
		out = append(out, shownSentence{id, d.ps.Sents[i-1].Text, d})
	}
	return out
}

// show renders sentences rng of d for the model, ID-tagged, in at most
// max bytes: all of them when they fit, else the ones that best answer the
// questions (each question's best in turn), with their neighbouring
// sentences when neighbours is set, in text order, "…" where text is left
// out. A sentence repeated word for word is shown once. It reports
// whether sentences were left out.
func (lib *library) show(d *doc, rng [2]int, max int, neighbours bool, questions []evidence.Query) (string, bool) {
	lib.mu.Lock()
	defer lib.mu.Unlock()
	ss := d.ps.Sents[rng[0]:rng[1]]
	all := make([]int, len(ss))
	for i := range ss {
		all[i] = rng[0] + i
	}
	if t := d.ps.Tagged(d.n, all); len(t) <= max {
		return t, false
	}
	texts := make([]string, len(ss))
	for i, s := range ss {
		texts[i] = s.Text
	}
	pick := &picker{d: d, base: rng[0], n: len(ss), budget: max, kept: map[int]bool{}, norms: map[string]bool{}}
	ranked := evidence.NewRanker(texts).Ranked(questions)
	for k := 0; pick.room(); k++ {
		more := false
		for _, hits := range ranked {
			if k >= len(hits) {
				continue
			}
			more = true
			i := hits[k].I
			if pick.add(i) && neighbours {
				pick.add(i - 1)
				pick.add(i + 1)
			}
		}
		if !more {
			break
		}
	}
	if len(pick.kept) == 0 {
		// Nothing relevant: the opening, which says what the text is about.
		for i := 0; i < len(ss) && pick.room(); i++ {
			pick.add(i)
		}
	}
	if len(pick.kept) == 0 { // one sentence longer than max
		return truncate(d.ps.Tagged(d.n, []int{rng[0]}), max), true
	}
	return d.ps.Tagged(d.n, pick.sorted()), true
}

// picker chooses sentences to show within a byte budget.
type picker struct {
	d      *doc
	base   int
	n      int // sentences in the range
	budget int
	kept   map[int]bool
	norms  map[string]bool
}

// room reports whether another sentence may still fit.
func (p *picker) room() bool { return p.budget > 0 }

// add keeps sentence i (relative to the range) if it fits and was not
// shown already, word for word; it reports whether it was kept.
func (p *picker) add(i int) bool {
	if i < 0 || i >= p.n || p.kept[i] {
		return false
	}
	s := p.d.ps.Sents[p.base+i]
	cost := len(s.Text) + len(evidence.ID(p.d.n, p.base+i)) + 5
	if p.norms[s.Norm] || cost > p.budget {
		return false
	}
	p.kept[i], p.norms[s.Norm] = true, true
	p.budget -= cost
	return true
}

// sorted returns the kept sentences' indices in d.ps.Sents, in text order.
func (p *picker) sorted() []int {
	var out []int
	for i := range p.kept {
		out = append(out, p.base+i)
	}
	sort.Ints(out)
	return out
}
