package web

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// pageSize is the number of checks on a history page.
const pageSize = 25

// pageBase is what every page's frame needs.
type pageBase struct {
	Title string
	// Lang is the language of the page's words (pageLang).
	Lang  words.Lang
	Admin bool
	// Tenant is the page's tenant ("" on the operators' view of all).
	Tenant string
	// token is the link token, carried on links to other pages.
	token string
	// HistoryLink is the history page the holder may open, if any.
	HistoryLink string
}

// link returns path with the page's token (and extra query values).
func (p *pageBase) link(path string, q url.Values) string {
	if q == nil {
		q = url.Values{}
	}
	if p.token != "" {
		q.Set("t", p.token)
	}
	if enc := q.Encode(); enc != "" {
		return path + "?" + enc
	}
	return path
}

// Token is the link token, for the filter form's hidden field.
func (p *pageBase) Token() string { return p.token }

func (s *Server) base(a *access, tenant, title string) pageBase {
	p := pageBase{Title: title, Admin: a.admin, Tenant: tenant, token: a.token}
	switch {
	case a.admin:
		p.HistoryLink = "/web/"
		if tenant != "" {
			p.HistoryLink = HistoryPath(tenant)
		}
	case a.claims.Scope == ScopeHistory:
		p.HistoryLink = p.link(HistoryPath(a.claims.Tenant), nil)
	}
	return p
}

// filters are the history page's filters, as in its query string.
type filters struct {
	Channel, User, Verdict, Since, Until, Words, Tenant string
	Before                                              string // the page cursor
}

func parseFilters(r *http.Request) (filters, store.HistoryQuery, bool) {
	v := r.URL.Query()
	f := filters{
		Channel: strings.TrimSpace(v.Get("channel")), User: strings.TrimSpace(v.Get("user")),
		Verdict: v.Get("verdict"), Since: v.Get("since"), Until: v.Get("until"),
		Words: strings.TrimSpace(v.Get("q")), Tenant: strings.TrimSpace(v.Get("tenant")), Before: v.Get("before"),
	}
	q := store.HistoryQuery{Channel: f.Channel, User: f.User, Search: f.Words, Before: f.Before}
	if f.Verdict != "" {
		q.Verdict = factcheck.Label(f.Verdict)
		if !q.Verdict.Valid() {
			return f, q, false
		}
	}
	for _, d := range []struct {
		s  string
		to *time.Time
		up bool
	}{{f.Since, &q.Since, false}, {f.Until, &q.Until, true}} {
		if d.s == "" {
			continue
		}
		t, err := time.Parse("2006-01-02", d.s)
		if err != nil {
			return f, q, false
		}
		if d.up { // until a day includes it
			t = t.AddDate(0, 0, 1)
		}
		*d.to = t
	}
	return f, q, true
}

// values is the query string of the filters (without the cursor).
func (f filters) values() url.Values {
	v := url.Values{}
	for k, s := range map[string]string{"channel": f.Channel, "user": f.User, "verdict": f.Verdict, "since": f.Since, "until": f.Until, "q": f.Words, "tenant": f.Tenant} {
		if s != "" {
			v.Set(k, s)
		}
	}
	return v
}

// historyPage is what the history page shows.
type historyPage struct {
	pageBase
	Filters   filters
	Verdicts  []factcheck.Label
	Rows      []historyRow
	Next      string // the next page, if there may be one
	First     string // the first page, when not on it
	Action    string // the filter form's action
	ExportCSV string
	ExportJL  string
	Empty     bool
}

type historyRow struct {
	store.CheckSummary
	Tenant string
	Link   string
}

func (s *Server) history(w http.ResponseWriter, r *http.Request, a *access) {
	tenant := r.PathValue("tenant")
	if !a.admin && (a.claims.Scope != ScopeHistory || a.claims.Tenant != tenant) {
		s.fail(w, r, http.StatusForbidden)
		return
	}
	s.historyOf(w, r, a, []string{tenant}, HistoryPath(tenant), ExportPath(tenant))
}

// operatorTenants are the tenants of an operator's all-tenant page: every
// tenant with checks, or the one ?tenant= names. false means the request
// was answered (not an operator, or the store failed).
func (s *Server) operatorTenants(w http.ResponseWriter, r *http.Request, a *access) ([]string, bool) {
	if !a.admin {
		s.fail(w, r, http.StatusForbidden)
		return nil, false
	}
	if t := strings.TrimSpace(r.URL.Query().Get("tenant")); t != "" {
		return []string{t}, true
	}
	tenants, err := s.st.UserTenants(r.Context())
	if err != nil {
		s.storeError(w, r, err)
		return nil, false
	}
	return tenants, true
}

// allHistory is the operators' view: the history of every tenant.
func (s *Server) allHistory(w http.ResponseWriter, r *http.Request, a *access) {
	tenants, ok := s.operatorTenants(w, r, a)
	if !ok {
		return
	}
	s.historyOf(w, r, a, tenants, "/web/", "/web/export")
}

func (s *Server) historyOf(w http.ResponseWriter, r *http.Request, a *access, tenants []string, path, export string) {
	f, q, ok := parseFilters(r)
	if !ok {
		s.fail(w, r, http.StatusBadRequest)
		return
	}
	tenant := ""
	if len(tenants) == 1 && path != "/web/" {
		tenant = tenants[0]
	}
	p := &historyPage{Filters: f, Verdicts: factcheck.Labels, Action: path}
	p.pageBase = s.base(a, tenant, "")
	p.Lang = pageLang(r, nil)
	p.Title = p.Lang.MustWord("WebHistory")
	if tenant == "" {
		p.Title = p.Lang.MustWord("WebHistoryAll")
	}
	rows, more, err := s.page(r, a, tenants, q)
	if err != nil {
		s.storeError(w, r, err)
		return
	}
	for _, row := range rows {
		row.Link = p.link(CheckPath(row.Tenant, row.ID), nil)
		p.Rows = append(p.Rows, row)
	}
	p.Empty = len(rows) == 0
	fv := f.values()
	if more {
		nv := f.values()
		nv.Set("before", rows[len(rows)-1].ID)
		p.Next = p.link(path, nv)
	}
	if f.Before != "" {
		p.First = p.link(path, fv)
	}
	csv, jl := f.values(), f.values()
	csv.Set("format", "csv")
	jl.Set("format", "jsonl")
	p.ExportCSV, p.ExportJL = p.link(export, csv), p.link(export, jl)
	s.render(w, r, "history.html", p)
}

// page reads one history page (pageSize rows, newest first) across the
// tenants, as the holder may see it, and says whether more may follow.
func (s *Server) page(r *http.Request, a *access, tenants []string, q store.HistoryQuery) ([]historyRow, bool, error) {
	q = historyQuery(q, a.audience(""))
	q.Limit = pageSize + 1
	var rows []historyRow
	for _, t := range tenants {
		sums, err := s.st.History(r.Context(), t, q)
		if err != nil {
			return nil, false, err
		}
		for _, sum := range sums {
			rows = append(rows, historyRow{CheckSummary: sum, Tenant: t})
		}
	}
	// IDs sort by creation time in every tenant: merge newest first.
	slices.SortStableFunc(rows, func(x, y historyRow) int { return cmp.Compare(y.ID, x.ID) })
	if len(rows) > pageSize {
		return rows[:pageSize], true, nil
	}
	return rows, false, nil
}
