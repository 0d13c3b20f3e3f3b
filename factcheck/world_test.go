package factcheck_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/internal/wait"
	"github.com/factbot-dev/factbot/search"
)

// The fake world: a model that reacts to what it is shown (not a fixed
// script of turns), on the wire through the Gemini SDK, with a search
// engine and pages that answer at a real service's pace when latencies
// are set. The latency benchmarks (BenchmarkToVerdict) and the tests of
// each path (speed_test.go) run in it.

// latency is how long the world's services take: a model call, a search,
// a page read.
type latency struct {
	model, search, read time.Duration
}

// realLatency is a flash model's and a search service's pace.
var realLatency = latency{model: 1500 * time.Millisecond, search: 800 * time.Millisecond, read: 600 * time.Millisecond}

// scaled divides every latency by f.
func (l latency) scaled(f int) latency {
	d := time.Duration(f)
	return latency{model: l.model / d, search: l.search / d, read: l.read / d}
}

// reacting is a fake model that decides each answer from the request it
// is shown. It wants needSearches searches and needReads reads in its
// view (made by itself or retrieved for it) and a sentence that settles
// the claim ("… is not visible …", cited by its ID) before it gives a
// verdict; until then it searches, then reads the result pages it has
// not read. The plan writes three questions; so does the extraction, for
// each claim, when its schema asks for them. The critic approves, or
// sends back once when sendBack is set.
type reacting struct {
	needSearches, needReads int
	// queries are what it searches, in turn (the claim after them).
	queries []string
	// sendBack is the critic's note, "" to approve.
	sendBack string
	// lowConfidence gives the verdict's label a margin of 1 over the
	// next (contested), instead of 3.
	lowConfidence bool

	critic atomic.Int32
}

// settling finds the ID of a sentence that settles the claim in what the
// model is shown: tagged in a search snippet or a page, or kept by the
// compact transcript.
var settling = regexp.MustCompile(`\[(p\d+\.\d+)\] [^"\[]*is not visible|"id":"(p\d+\.\d+)","q":\[[\d,]*\],"s":"[^"]*is not visible`)

var (
	urlField  = regexp.MustCompile(`"url":"([^"]+)"`)
	readCalls = regexp.MustCompile(`read_page\((\S+)\)|read_page\{"url":"([^"]+)"\}`)
)

func (m *reacting) handle(r *geminitest.Request) geminitest.Reply {
	names := r.ToolNames()
	switch names[len(names)-1] {
	case factcheck.ToolSubmitClaims:
		return m.extract(r)
	case factcheck.ToolSubmitQuestions:
		return geminitest.Call(factcheck.ToolSubmitQuestions, map[string]any{"questions": planQuestions(claimIn(r.FirstUserText()))})
	case factcheck.ToolSubmitReview:
		if m.sendBack != "" && m.critic.Add(1) == 1 {
			return geminitest.Call(factcheck.ToolSubmitReview, map[string]any{"ok": false, "note": m.sendBack})
		}
		m.critic.Add(1)
		return geminitest.Call(factcheck.ToolSubmitReview, map[string]any{"ok": true, "note": "The verdict follows from the evidence."})
	}
	text := r.AllText()
	searches := strings.Count(text, factcheck.ToolWebSearch+"(") + strings.Count(text, factcheck.ToolWebSearch+"{")
	read := map[string]bool{}
	for _, c := range readCalls.FindAllStringSubmatch(text, -1) {
		read[c[1]+c[2]] = true
	}
	id := ""
	if s := settling.FindStringSubmatch(text); s != nil {
		id = s[1] + s[2]
	}
	forced := len(names) == 1
	if forced || id != "" && searches >= m.needSearches && len(read) >= m.needReads {
		return m.verdict(id)
	}
	var unread []string
	for _, u := range urlField.FindAllStringSubmatch(text, -1) {
		if !read[u[1]] {
			unread = append(unread, u[1])
		}
	}
	// It reads a result that looks like it answers while it wants more
	// reads or has nothing that settles the claim; then it searches while
	// it wants more searches; then it reads any result while it wants more
	// reads; else it searches on.
	for _, u := range unread {
		if strings.Contains(u, "science.example") && (len(read) < m.needReads || id == "") {
			return geminitest.Call(factcheck.ToolReadPage, map[string]string{"url": u})
		}
	}
	if searches < m.needSearches {
		q := claimIn(r.FirstUserText())
		if searches < len(m.queries) {
			q = m.queries[searches]
		}
		return geminitest.Call(factcheck.ToolWebSearch, map[string]string{"query": q})
	}
	if len(unread) > 0 && len(read) < m.needReads {
		return geminitest.Call(factcheck.ToolReadPage, map[string]string{"url": unread[0]})
	}
	q := claimIn(r.FirstUserText())
	if searches < len(m.queries) {
		q = m.queries[searches]
	}
	return geminitest.Call(factcheck.ToolWebSearch, map[string]string{"query": q})
}

// verdict cites the settling sentence, or is unverifiable without one.
func (m *reacting) verdict(id string) geminitest.Reply {
	if id == "" {
		return geminitest.Call(factcheck.ToolSubmitVerdict, map[string]any{"verdict": "unverifiable",
			"scores": map[string]int{"supported": 1, "contradicted": 1, "contested": 1, "unverifiable": 5}, "reasoning": "Nothing found settles it.", "evidence": []any{}})
	}
	scores := map[string]int{"supported": 1, "contradicted": 5, "contested": 2, "unverifiable": 1}
	if m.lowConfidence {
		scores["contested"] = 4
	}
	return geminitest.Call(factcheck.ToolSubmitVerdict, map[string]any{"verdict": "contradicted", "scores": scores,
		"reasoning": "The page says it is not visible with the naked eye.",
		"evidence":  []any{map[string]any{"passage": id, "stance": "refutes", "summary": "Not visible."}}})
}

// extract makes each sentence of the text a claim, with three questions
// when the tool's schema asks for them.
func (m *reacting) extract(r *geminitest.Request) geminitest.Reply {
	text := r.FirstUserText()
	text = text[strings.Index(text, "<user_text>\n")+len("<user_text>\n") : strings.Index(text, "\n</user_text>")]
	decl := r.Tools[len(r.Tools)-1]
	asks := strings.Contains(string(decl.ParametersJSONSchema)+string(decl.Parameters), `"questions"`)
	var claims []any
	for _, s := range strings.SplitAfter(text, ". ") {
		s = strings.TrimSpace(s)
		c := map[string]any{"claim": strings.TrimSuffix(s, "."), "span": s}
		if asks {
			c["questions"] = planQuestions(strings.TrimSuffix(s, "."))
		}
		claims = append(claims, c)
	}
	return geminitest.Call(factcheck.ToolSubmitClaims, map[string]any{"claims": claims, "language": "en"})
}

// planQuestions are three questions about a claim, the last seeking a
// debunk.
func planQuestions(claim string) []string {
	return []string{"Is it true that " + claim + "?", "What do astronauts say: " + claim + "?", "Has the claim that " + claim + " been debunked?"}
}

// claimIn is the claim of a verification request's first message.
func claimIn(t string) string {
	i := strings.Index(t, "<claim>\n")
	j := strings.Index(t, "\n</claim>")
	if i < 0 || j < i {
		return ""
	}
	return t[i+len("<claim>\n") : j]
}

// worldSearch answers every query with results about the claim it names:
// the page that settles it first, then pages that do not. It waits its
// latency, counts searches, and records the most run at once.
type worldSearch struct {
	delay time.Duration
	// fail, if set, fails the searches whose query it matches.
	fail func(q string) error
	// settles, if set, says which queries find the page that settles the
	// claim; every query does when nil.
	settles func(q string) bool
	// snippetSettles makes that page's snippet settle the claim too.
	snippetSettles bool
	// together, if set, holds each search until that many run at once
	// (or 10 s have passed: a hang guard only), to show they run in
	// parallel.
	together int32

	gauge
}

func (s *worldSearch) Search(ctx context.Context, q search.Query) (*search.Response, error) {
	defer s.enter(s.together)()
	if err := wait.Sleep(ctx, s.delay); err != nil {
		return nil, err
	}
	if s.fail != nil {
		if err := s.fail(q.Text); err != nil {
			return nil, err
		}
	}
	slug := slugOf(q.Text)
	var rs []search.Result
	if s.settles == nil || s.settles(q.Text) {
		snippet := "Astronauts and NASA on whether the Great Wall of China is visible from space with the naked eye."
		if s.snippetSettles {
			snippet = "The Great Wall of China is not visible from space with the naked eye, astronauts say."
		}
		rs = append(rs, search.Result{Title: "Is the Great Wall of China visible from space?", URL: "https://science.example/wall/" + slug,
			Snippet: snippet, Score: 0.9})
	}
	for i := range 4 {
		rs = append(rs, search.Result{Title: fmt.Sprintf("Travel notes %d", i), URL: fmt.Sprintf("https://travel.example/%s/%d", slug, i),
			Snippet: "Opening hours and tickets for a day trip.", Score: 0.5})
	}
	return &search.Response{Query: q.Text, Results: rs[:min(len(rs), q.Max)], Provider: "world"}, nil
}

// worldReader serves the world's pages: the settling page under
// science.example, travel notes elsewhere.
type worldReader struct {
	delay time.Duration
	// fail, if set, fails the reads of the URLs it matches.
	fail func(u string) error

	// together is as worldSearch's, for reads.
	together int32

	gauge
	mu   sync.Mutex
	urls []string
}

func (rd *worldReader) ReadPage(ctx context.Context, req search.PageRequest) (*search.Page, error) {
	defer rd.enter(rd.together)()
	rd.mu.Lock()
	rd.urls = append(rd.urls, req.URL)
	rd.mu.Unlock()
	if err := wait.Sleep(ctx, rd.delay); err != nil {
		return nil, err
	}
	if rd.fail != nil {
		if err := rd.fail(req.URL); err != nil {
			return nil, err
		}
	}
	text := strings.Repeat("Tickets cost ten yuan and the section opens at eight. ", 20)
	title := "Travel notes"
	if strings.Contains(req.URL, "science.example") {
		title = "Visible from space?"
		text = "The Great Wall of China is about 21,196 km long according to a 2012 survey. " +
			"The Great Wall is not visible from the Moon with the naked eye, and astronauts in low orbit rarely see it. " +
			strings.Repeat("The wall was built over many centuries by several dynasties. ", 10)
	}
	return &search.Page{URL: req.URL, FinalURL: req.URL, Title: title, Text: text, FetchedAt: time.Now()}, nil
}

// gauge counts a fake's calls and records the most run at once.
type gauge struct{ calls, running, most atomic.Int32 }

// enter counts a call and, when together is positive, waits until that
// many have run at once (a hang guard ends the wait after 10 s); the
// returned func ends the call.
func (g *gauge) enter(together int32) (leave func()) {
	g.calls.Add(1)
	n := g.running.Add(1)
	for {
		m := g.most.Load()
		if n <= m || g.most.CompareAndSwap(m, n) {
			break
		}
	}
	for end := time.Now().Add(10 * time.Second); together > 0 && g.most.Load() < together && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	return func() { g.running.Add(-1) }
}

func slugOf(q string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, q)
}

// world is one fake world: the reacting model on a fake Gemini server,
// the search and the pages, and a Checker over them.
type world struct {
	model  *reacting
	srv    *geminitest.Server
	search *worldSearch
	reader *worldReader
	c      *factcheck.Checker
}

func newWorld(tb testing.TB, m *reacting, lat latency, opts factcheck.Options) *world {
	tb.Helper()
	w := &world{model: m, search: &worldSearch{delay: lat.search}, reader: &worldReader{delay: lat.read}}
	w.srv = geminitest.NewServer(tb, m.handle, geminitest.WithDelay(lat.model))
	gm, err := gemini.New(context.Background(), gemini.Config{APIKey: "k", BaseURL: w.srv.URL})
	if err != nil {
		tb.Fatal(err)
	}
	w.c = &factcheck.Checker{Model: gm, Search: w.search, Reader: w.reader, Options: opts}
	return w
}

// requestBytes sums the request bodies the model received from the
// first'th on.
func (w *world) requestBytes(first int) (sum, calls int) {
	for _, r := range w.srv.Requests()[first:] {
		sum += len(r.Body)
		calls++
	}
	return sum, calls
}

// errWorld is the error a failing search or page gives.
var errWorld = errors.New("503 Service Unavailable")

// jsonOf is v as JSON, for failure messages.
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
