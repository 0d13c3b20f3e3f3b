package web

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// export writes what the holder may see of the tenant: with a check link
// that one check, with a history link (or as an operator) the checks the
// history filters select. ?format=jsonl (default) or csv.
func (s *Server) export(w http.ResponseWriter, r *http.Request, a *access) {
	tenant := r.PathValue("tenant")
	if !a.admin && a.claims.Tenant != tenant {
		s.fail(w, r, http.StatusForbidden)
		return
	}
	s.exportOf(w, r, a, []string{tenant}, tenant)
}

// exportAll is the operators' export of every tenant.
func (s *Server) exportAll(w http.ResponseWriter, r *http.Request, a *access) {
	tenants, ok := s.operatorTenants(w, r, a)
	if !ok {
		return
	}
	s.exportOf(w, r, a, tenants, "all")
}

func (s *Server) exportOf(w http.ResponseWriter, r *http.Request, a *access, tenants []string, name string) {
	_, q, ok := parseFilters(r)
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "jsonl"
	}
	if !ok || (format != "jsonl" && format != "csv") {
		s.fail(w, r, http.StatusBadRequest)
		return
	}
	var out exporter
	if format == "csv" {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		out = newCSVExporter(w)
	} else {
		w.Header().Set("Content-Type", "application/jsonl; charset=utf-8")
		out = &jsonlExporter{enc: json.NewEncoder(w)}
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", "factbot-"+safeName(name)+"."+format))
	err := s.eachVisible(r, a, tenants, q, out.write)
	if err == nil {
		err = out.flush()
	}
	if err != nil && r.Context().Err() == nil {
		// Headers are gone; the client sees a short file.
		s.log.Error("web: export", "tenant", name, "err", err)
	}
}

// eachVisible calls fn with every check the holder may see that q
// selects, tenant by tenant, newest first.
func (s *Server) eachVisible(r *http.Request, a *access, tenants []string, q store.HistoryQuery, fn func(*store.Check) error) error {
	ctx := r.Context()
	if !a.admin && a.claims.Scope == ScopeCheck {
		c, err := s.st.Check(ctx, a.claims.Tenant, a.claims.Check)
		if err != nil || !visible(c, a.audience(c.Channel)) {
			return err
		}
		return fn(c)
	}
	q = historyQuery(q, a.audience(""))
	q.Limit = store.MaxLimit
	for _, t := range tenants {
		q.Before = ""
		for {
			sums, err := s.st.History(ctx, t, q)
			if err != nil {
				return err
			}
			for _, sum := range sums {
				c, err := s.st.Check(ctx, t, sum.ID)
				if err != nil {
					return err
				}
				if !visible(c, a.audience(c.Channel)) {
					continue
				}
				if err := fn(c); err != nil {
					return err
				}
			}
			if len(sums) < q.Limit {
				break
			}
			q.Before = sums[len(sums)-1].ID
		}
	}
	return nil
}

type exporter interface {
	write(*store.Check) error
	flush() error
}

type jsonlExporter struct{ enc *json.Encoder }

func (e *jsonlExporter) write(c *store.Check) error { return e.enc.Encode(c) }
func (e *jsonlExporter) flush() error               { return nil }

// csvHeader is the CSV export's columns: one row per claim.
var csvHeader = []string{"tenant", "id", "created_at", "platform", "channel", "user", "private", "text", "claim", "verdict", "confidence", "reasoning", "evidence", "sources_cited", "model", "checked_at"}

type csvExporter struct {
	w      *csv.Writer
	header bool
}

func newCSVExporter(w io.Writer) *csvExporter { return &csvExporter{w: csv.NewWriter(w)} }

func (e *csvExporter) write(c *store.Check) error {
	if !e.header {
		e.header = true
		if err := e.w.Write(csvHeader); err != nil {
			return err
		}
	}
	head := []string{c.Tenant, c.ID, c.CreatedAt.UTC().Format(time.RFC3339), c.Platform, c.Channel, c.User, strconv.FormatBool(c.Private), csvSafe(c.Text)}
	if c.Report == nil || len(c.Report.Claims) == 0 {
		return e.w.Write(append(head, make([]string, len(csvHeader)-len(head))...))
	}
	for _, v := range c.Report.Claims {
		if v == nil {
			continue
		}
		cited := 0
		for _, s := range v.Sources {
			if s.Cited {
				cited++
			}
		}
		row := append(head[:len(head):len(head)], csvSafe(v.Claim), string(v.Verdict), string(v.Confidence), csvSafe(v.Reasoning),
			strconv.Itoa(len(v.Evidence)), strconv.Itoa(cited), v.Model, v.CheckedAt.UTC().Format(time.RFC3339))
		if err := e.w.Write(row); err != nil {
			return err
		}
	}
	return nil
}

func (e *csvExporter) flush() error {
	if !e.header {
		e.w.Write(csvHeader)
	}
	e.w.Flush()
	return e.w.Error()
}

// csvSafe keeps a spreadsheet from reading text as a formula (CSV
// injection): a cell starting with = + - @ or a tab gets a leading quote.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// safeName keeps letters, digits, - and _ of a tenant for a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') {
			return r
		}
		return '_'
	}, s)
}
