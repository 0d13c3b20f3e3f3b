package web

import (
	"bytes"
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

// snapshotChars bounds the page text shown as read; the rest is cut with a
// note (the whole page stays in the database).
const snapshotChars = 20000

// checkPage is what the check page shows.
type checkPage struct {
	pageBase
	Check        *store.Check
	Claims       []claimView
	Notice       string // the report's notices, in the page's language
	NotCheckable []notCheckable
	Map          *evidenceMap
	StackedMap   *evidenceMap // the map for narrow screens
	Sources      []sourceRow
	Snapshots    []snapshotView
	Trace        []traceSection
	Feedback     []feedbackView
	EvidenceN    int
	// Tally counts the claims of each verdict, in display order.
	Tally []tally
	// ClaimReviews are the verdicts as schema.org markup, each written
	// in a JSON-LD block (html/template escapes it as JSON in a script).
	ClaimReviews []ClaimReview
}

// notCheckable is a sentence not checked and why, in the page's language.
type notCheckable struct{ Text, Reason string }

type tally struct {
	Label factcheck.Label
	N     int
}

type claimView struct {
	N          int
	Anchor     string // its id on the page, the fragment of its ClaimReview's url (ClaimAnchor)
	V          *factcheck.Verdict
	Evidence   []evidenceView
	Stopped    string // words.English.Stopped
	TokensUsed int
	// Earlier is the earlier check that answered the claim (match.go).
	Earlier *earlierView
}

type evidenceView struct {
	factcheck.Evidence
	Stance    string // the class: supports, refutes, context
	StanceIn  string // the stance in the page's language
	QuoteNote string
	PDF       bool
	Host      string
}

// sourceRow is one line of the sources table: a URL a claim's run
// retrieved.
type sourceRow struct {
	// Claims are the claims (numbered from 1) that cite the source, or,
	// when none does, those whose runs retrieved it.
	Claims    []int
	Source    factcheck.Source
	Host      string
	Publisher string
	Published string
	QuoteHow  string
	Snapshot  string // the anchor of its snapshot, when kept
	PDF       bool
}

type snapshotView struct {
	Anchor    string
	URL       string
	Title     string
	FetchedAt time.Time
	SHA256    string
	// Parts is the text as read: one part for a web page, one per page
	// for a PDF (PageCount pages).
	Parts     []snapshotPart
	PageCount int
	Cut       bool // only the first snapshotChars bytes are shown
	Truncated bool // the reader read only the start of the body
	Missing   bool // the snapshot is no longer kept
}

type snapshotPart struct {
	Page int // the PDF page, from 1; 0 for a web page
	Text string
}

type traceSection struct {
	Title   string
	Events  []traceEvent
	Stopped string
}

type traceEvent struct {
	Offset string // since the section's first event
	Kind   string
	What   string
	Detail string
	Error  string
}

type feedbackView struct {
	store.Feedback
	Claim string
}

func (s *Server) check(w http.ResponseWriter, r *http.Request, a *access) {
	tenant, id := r.PathValue("tenant"), r.PathValue("id")
	if !a.admin && !a.claims.allowsCheck(tenant, id) {
		s.fail(w, r, http.StatusForbidden)
		return
	}
	c, err := s.st.Check(r.Context(), tenant, id)
	if err != nil {
		s.storeError(w, r, err)
		return
	}
	if !visible(c, a.audience(c.Channel)) {
		s.fail(w, r, http.StatusForbidden)
		return
	}
	p := &checkPage{Check: c}
	p.pageBase = s.base(a, tenant, "")
	p.Lang = pageLang(r, c)
	p.Title = p.Lang.CheckRef(c.ID)
	p.ClaimReviews = ClaimReviews(c, s.reviewSite(r))
	s.fillCheck(r, p)
	s.fillEarlier(r, a, p)
	s.render(w, r, "check.html", p)
}

func (s *Server) fillCheck(r *http.Request, p *checkPage) {
	rep := p.Check.Report
	if rep == nil {
		rep = &factcheck.Report{}
	}
	p.Notice = p.Lang.Notice(rep)
	for _, nc := range rep.NotCheckable {
		p.NotCheckable = append(p.NotCheckable, notCheckable{Text: nc.Text, Reason: p.Lang.Reason(nc)})
	}
	for _, l := range factcheck.Labels {
		n := 0
		for _, v := range rep.Claims {
			if v != nil && v.Verdict == l {
				n++
			}
		}
		if n > 0 {
			p.Tally = append(p.Tally, tally{l, n})
		}
	}
	read := s.pagesAsRead(r, p, rep)
	p.Map = drawMap(p.Lang, rep.Claims, read.isPDF)
	p.StackedMap = drawStackedMap(p.Lang, rep.Claims, read.isPDF)
	p.fillClaims(rep, read)
	p.fillTraceAndFeedback(rep)
}

// pagesRead are the pages a check read, as they were read.
type pagesRead struct {
	pages   map[string]*search.Page // by SHA-256
	anchors map[string]string       // SHA-256 → the snapshot's anchor on the page
	pdf     map[string]bool         // source URLs that are PDFs
}

func (pr *pagesRead) isPDF(u string) bool { return pr.pdf[u] || isPDF(u) }

// pagesAsRead loads the snapshot of every page the check read, once per
// hash, in the order the sources name them, into p.Snapshots.
func (s *Server) pagesAsRead(r *http.Request, p *checkPage, rep *factcheck.Report) *pagesRead {
	pr := &pagesRead{pages: map[string]*search.Page{}, anchors: map[string]string{}, pdf: map[string]bool{}}
	for _, v := range rep.Claims {
		if v == nil {
			continue
		}
		for _, src := range v.Sources {
			if isPDF(src.URL) {
				pr.pdf[src.URL] = true
			}
			if src.SHA256 == "" || pr.anchors[src.SHA256] != "" {
				continue
			}
			pr.anchors[src.SHA256] = fmt.Sprintf("page-%d", len(pr.anchors)+1)
			sv := snapshotView{Anchor: pr.anchors[src.SHA256], URL: src.URL, Title: src.Title, FetchedAt: src.FetchedAt, SHA256: src.SHA256}
			pg, err := s.st.PageSnapshot(r.Context(), src.SHA256)
			if err != nil {
				sv.Missing = true
				p.Snapshots = append(p.Snapshots, sv)
				continue
			}
			pr.pages[src.SHA256] = pg
			if pg.Title != "" {
				sv.Title = pg.Title
			}
			sv.PageCount, sv.Truncated = pg.PageCount, pg.Truncated
			if pg.PageCount > 0 {
				pr.pdf[src.URL] = true
			}
			sv.Parts, sv.Cut = snapshotParts(pg, snapshotChars)
			p.Snapshots = append(p.Snapshots, sv)
		}
	}
	return pr
}

// fillClaims fills each claim with its evidence, and the sources table.
func (p *checkPage) fillClaims(rep *factcheck.Report, read *pagesRead) {
	for i, v := range rep.Claims {
		if v == nil {
			continue
		}
		cv := claimView{N: i + 1, Anchor: ClaimAnchor(i + 1), V: v, Stopped: p.Lang.Stopped(v.StoppedBy), TokensUsed: v.Usage.PromptTokens + v.Usage.OutputTokens}
		for _, e := range v.Evidence {
			cv.Evidence = append(cv.Evidence, evidenceView{Evidence: e, Stance: string(e.StanceOf()), StanceIn: stance(p.Lang, e),
				QuoteNote: quoteHow(p.Lang, e), PDF: read.isPDF(e.SourceURL), Host: host(e.SourceURL)})
			p.EvidenceN++
		}
		p.Claims = append(p.Claims, cv)
	}
	p.Sources = sourceRows(p.Lang, rep, read)
}

// sourceRows is the sources table: one row per URL retrieved, in the order
// first retrieved, with the claims that cite it (else those that
// retrieved it) and where each one's quote was found, in l.
func sourceRows(l words.Lang, rep *factcheck.Report, read *pagesRead) []sourceRow {
	var rows []sourceRow
	index := map[string]int{}
	cited := map[string][]int{}
	for i, v := range rep.Claims {
		if v == nil {
			continue
		}
		for _, src := range v.Sources {
			k, ok := index[src.URL]
			if !ok {
				k = len(rows)
				index[src.URL] = k
				rows = append(rows, sourceRow{Source: src, Host: host(src.URL), Snapshot: read.anchors[src.SHA256], PDF: read.pdf[src.URL]})
				if pg := read.pages[src.SHA256]; pg != nil {
					rows[k].Publisher, rows[k].Published = pg.Site, pg.Published
				}
			}
			r := &rows[k]
			r.Claims = appendOnce(r.Claims, i+1)
			r.Source.Cited = r.Source.Cited || src.Cited
			if r.Snapshot == "" && src.SHA256 != "" {
				r.Source.SHA256, r.Snapshot = src.SHA256, read.anchors[src.SHA256]
			}
		}
		for _, e := range v.Evidence {
			k, ok := index[e.SourceURL]
			if !ok || slices.Contains(cited[e.SourceURL], i+1) {
				continue
			}
			cited[e.SourceURL] = append(cited[e.SourceURL], i+1)
			r := &rows[k]
			r.Publisher = cmp.Or(e.Publisher, r.Publisher)
			r.Published = cmp.Or(r.Published, e.Published)
			r.QuoteHow = joinOnce(r.QuoteHow, quoteHow(l, e))
		}
	}
	for url, k := range index {
		if c := cited[url]; len(c) > 0 {
			rows[k].Claims = c
		}
	}
	return rows
}

func appendOnce(s []int, n int) []int {
	if slices.Contains(s, n) {
		return s
	}
	return append(s, n)
}

// joinOnce adds note to the notes in s ("a; b"), unless it is there.
func joinOnce(s, note string) string {
	if note == "" || slices.Contains(strings.Split(s, "; "), note) {
		return s
	}
	if s == "" {
		return note
	}
	return s + "; " + note
}

// fillTraceAndFeedback fills the timeline of each run and the feedback.
func (p *checkPage) fillTraceAndFeedback(rep *factcheck.Report) {
	if len(rep.Trace) > 0 {
		p.Trace = append(p.Trace, p.traceOf(p.Lang.MustWord("WebFindingClaims"), rep.Trace, ""))
	}
	for i, v := range rep.Claims {
		if v != nil && (len(v.Trace) > 0 || v.StoppedBy != "") {
			title := p.Lang.MustWord("WebClaimN", "N", i+1, "Title", bot.Truncate(v.Claim, 80))
			p.Trace = append(p.Trace, p.traceOf(title, v.Trace, v.StoppedBy))
		}
	}
	for _, f := range p.Check.Feedback {
		fv := feedbackView{Feedback: f, Claim: p.Lang.MustWord("WebOnCheck")}
		if f.Claim >= 0 && f.Claim < len(rep.Claims) {
			fv.Claim = p.Lang.MustWord("WebOnClaim", "N", f.Claim+1)
		}
		p.Feedback = append(p.Feedback, fv)
	}
}

func (p *checkPage) traceOf(title string, evs []factcheck.TraceEvent, stoppedBy string) traceSection {
	t := traceSection{Title: title, Stopped: p.Lang.Stopped(stoppedBy)}
	var start time.Time
	for _, ev := range evs {
		if start.IsZero() {
			start = ev.At
		}
		te := traceEvent{Kind: ev.Kind, Offset: fmt.Sprintf("+%.1fs", ev.At.Sub(start).Seconds()), Error: ev.Error}
		switch ev.Kind {
		case "model":
			te.What = p.Lang.MustWord("WebModelCall")
			if ev.Usage != nil {
				te.Detail = fmt.Sprintf("%d prompt tokens (%d cached), %d output tokens", ev.Usage.PromptTokens, ev.Usage.CachedTokens, ev.Usage.OutputTokens)
			}
			if ev.FinishReason != "" {
				te.Detail = strings.TrimPrefix(te.Detail+"; finished: "+ev.FinishReason, "; ")
			}
		case "tool":
			te.What = ev.Tool
			te.Detail = ev.Args
			if ev.ResultBytes > 0 {
				te.Detail += fmt.Sprintf(" → %d bytes", ev.ResultBytes)
			}
		default:
			te.What = ev.Kind
			te.Detail = ev.Note
		}
		t.Events = append(t.Events, te)
	}
	return t
}

// snapshotParts splits a page as read into what the page shows, at most n
// bytes of text in all: the PDF's pages, each under its number, or the
// page's text.
func snapshotParts(pg *search.Page, n int) ([]snapshotPart, bool) {
	if len(pg.Pages) == 0 {
		t, cut := cutText(pg.Text, n)
		return []snapshotPart{{Text: t}}, cut
	}
	var parts []snapshotPart
	for _, pt := range pg.Pages {
		if n <= 0 {
			return parts, true
		}
		t, cut := cutText(pt.Text, n)
		parts = append(parts, snapshotPart{Page: pt.N, Text: t})
		n -= len(t)
		if cut {
			return parts, true
		}
	}
	return parts, false
}

// cutText returns at most n bytes of s, on a rune boundary, and whether it
// cut.
func cutText(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	return strings.ToValidUTF8(s[:n], ""), true
}

func host(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(p.Hostname(), "www.")
}

// isPDF reports whether a source is a PDF, by its path.
func isPDF(u string) bool {
	p, err := url.Parse(u)
	return err == nil && strings.HasSuffix(strings.ToLower(p.Path), ".pdf")
}

// render executes a page template into a buffer first, so a failure is a
// clean 500, not half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, name string, data any) {
	var b bytes.Buffer
	if err := pages().ExecuteTemplate(&b, name, data); err != nil {
		s.log.Error("web: render", "page", name, "err", err)
		s.fail(w, r, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// reviewSite is the site for a check page's ClaimReviews: the configured
// public address, else the one the request came to.
func (s *Server) reviewSite(r *http.Request) ReviewSite {
	site := s.site
	if site.PublicURL == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		site.PublicURL = scheme + "://" + r.Host
	}
	return site
}
