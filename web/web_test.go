package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/web/webtest"
)

func TestAccess(t *testing.T) {
	f := newFixture(t)
	s := NewSigner(testSecret, testNow)
	sign := func(c Claims) string {
		c.Expires = testNow().Add(time.Hour).Unix()
		return s.Sign(c)
	}
	checkTok := sign(Claims{Tenant: "T1", Viewer: "U1", Scope: ScopeCheck, Check: f.sample.ID})
	histU1 := sign(Claims{Tenant: "T1", Viewer: "U1", Channel: "C1", Scope: ScopeHistory})
	histU2 := sign(Claims{Tenant: "T1", Viewer: "U2", Channel: "C1", Scope: ScopeHistory})
	expired := s.Sign(Claims{Tenant: "T1", Viewer: "U1", Scope: ScopeCheck, Check: f.sample.ID, Expires: testNow().Unix()})
	other := NewSigner("not the secret", testNow).Sign(Claims{Tenant: "T1", Viewer: "U1", Scope: ScopeCheck, Check: f.sample.ID, Expires: testNow().Add(time.Hour).Unix()})
	check := func(tenant, id, tok string) string {
		return CheckPath(tenant, id) + "?t=" + url.QueryEscape(tok)
	}
	bearer := []string{"Authorization", "Bearer " + testAdmin}
	tests := []struct {
		name   string
		target string
		header []string
		want   int
	}{
		{"check link", local(f.links.CheckURL("T1", "U1", f.sample.ID)), nil, 200},
		{"check link made by hand", check("T1", f.sample.ID, checkTok), nil, 200},
		{"no token", CheckPath("T1", f.sample.ID), nil, 403},
		{"tampered token", check("T1", f.sample.ID, checkTok[:len(checkTok)-10]+string(otherSpelling(checkTok[len(checkTok)-10]))+checkTok[len(checkTok)-9:]), nil, 403},
		{"another secret", check("T1", f.sample.ID, other), nil, 403},
		{"expired", check("T1", f.sample.ID, expired), nil, 403},
		{"check link, another check", check("T1", f.private.ID, checkTok), nil, 403},
		{"check link, another tenant", check("T2", f.sample.ID, checkTok), nil, 403},
		{"check link on history", HistoryPath("T1") + "?t=" + checkTok, nil, 403},
		{"history link", HistoryPath("T1") + "?t=" + histU1, nil, 200},
		{"history link, another tenant", HistoryPath("T2") + "?t=" + histU1, nil, 403},
		{"history link opens a check of its history", check("T1", f.sample.ID, histU1), nil, 200},
		{"history link opens the viewer's private check", check("T1", f.private.ID, histU1), nil, 200},
		{"history link of another viewer: private check", check("T1", f.private.ID, histU2), nil, 403},
		{"history link, check of another tenant", check("T2", f.other.ID, histU1), nil, 403},
		{"history link, unknown check", check("T1", "20260101T000000Z-0000", histU1), nil, 404},
		{"history link is not the operators' view", "/web/?t=" + histU1, nil, 403},
		{"operator: all tenants", "/web/", bearer, 200},
		{"operator: a check", CheckPath("T2", f.other.ID), bearer, 200},
		{"operator: history", HistoryPath("T1"), bearer, 200},
		{"operator: unknown check", CheckPath("T1", "nope"), bearer, 404},
		{"wrong admin token", "/web/", []string{"Authorization", "Bearer " + testAdmin + "x"}, 403},
		{"admin token as a link", "/web/?t=" + testAdmin, nil, 403},
		{"not bearer", "/web/", []string{"Authorization", "Basic " + testAdmin}, 403},
		{"no credentials", "/web/", nil, 403},
		{"bad filter", HistoryPath("T1") + "?verdict=true&t=" + histU1, nil, 400},
		{"bad date", HistoryPath("T1") + "?since=yesterday&t=" + histU1, nil, 400},
		{"export with history link", ExportPath("T1") + "?format=csv&t=" + histU1, nil, 200},
		{"export with check link", ExportPath("T1") + "?t=" + checkTok, nil, 200},
		{"export, another tenant", ExportPath("T2") + "?t=" + histU1, nil, 403},
		{"export, unknown format", ExportPath("T1") + "?format=xml&t=" + histU1, nil, 400},
		{"export of all: operators only", "/web/export?t=" + histU1, nil, 403},
		{"operator: export of all", "/web/export", bearer, 200},
		{"stylesheet needs no link", "/web/static/style.css", nil, 200},
		{"unknown page", "/web/nothing", nil, 404},
		{"no listing of the static files", "/web/static/", nil, 404},
		{"unknown static file", "/web/static/app.js", nil, 404},
		{"post", "", nil, 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w interface {
				Result() *http.Response
			}
			if tt.name == "post" {
				r, _ := http.NewRequest(http.MethodPost, "/web/history/T1?t="+histU1, nil)
				rec := newRecorder()
				f.srv.ServeHTTP(rec, r)
				w = rec
			} else {
				w = f.get(t, tt.target, tt.header...)
			}
			res := w.Result()
			if res.StatusCode != tt.want {
				t.Fatalf("GET %s: status %d, want %d", tt.target, res.StatusCode, tt.want)
			}
			h := res.Header
			for k, want := range map[string]string{
				"Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
				"Referrer-Policy":         "no-referrer",
				"X-Content-Type-Options":  "nosniff",
			} {
				if got := h.Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if c := h.Values("Set-Cookie"); len(c) > 0 {
				t.Errorf("Set-Cookie %q: the view sets no cookies", c)
			}
			if tt.want >= 400 {
				body := readAll(t, res)
				for _, leak := range []string{f.sample.Text, f.private.Text, f.other.Text, "Eiffel"} {
					if strings.Contains(body, leak) {
						t.Errorf("status %d page shows %q", tt.want, leak)
					}
				}
			}
		})
	}
}

func TestHistoryVisibility(t *testing.T) {
	f := newFixture(t)
	open := func(viewer string) string {
		w := f.get(t, local(f.links.HistoryURL("T1", viewer, "C1")))
		if w.Code != 200 {
			t.Fatalf("history of %s: status %d", viewer, w.Code)
		}
		return w.Body.String()
	}
	if b := open("U1"); !strings.Contains(b, f.private.Text) || !strings.Contains(b, "Eiffel") {
		t.Error("the asker's history lacks their private check or the sample")
	}
	b := open("U2")
	if strings.Contains(b, f.private.Text) {
		t.Error("another viewer's history shows a private check")
	}
	if !strings.Contains(b, "Eiffel") || strings.Contains(b, f.other.Text) {
		t.Error("history shows the wrong checks")
	}
	w := f.get(t, "/web/", "Authorization", "Bearer "+testAdmin)
	for _, want := range []string{f.private.Text, f.other.Text, "Eiffel"} {
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("the operators' view lacks %q", want)
		}
	}
}

func TestHistoryPaging(t *testing.T) {
	f := newFixture(t)
	if _, err := webtest.Fill(t.Context(), f.db, "T3", 60, t0); err != nil {
		t.Fatal(err)
	}
	link := local(f.links.HistoryURL("T3", "U0", "C1"))
	seen := map[string]bool{}
	pages := 0
	for link != "" {
		w := f.get(t, link)
		if w.Code != 200 {
			t.Fatalf("GET %s: %d", link, w.Code)
		}
		pages++
		body := w.Body.String()
		for _, id := range hrefs(body, "/web/check/T3/") {
			if seen[id] {
				t.Errorf("check %s on two pages", id)
			}
			seen[id] = true
		}
		link = ""
		if i := strings.Index(body, `">Older →`); i >= 0 {
			j := strings.LastIndex(body[:i], `href="`)
			link = htmlUnescape(body[j+len(`href="`) : i])
		}
	}
	sums, err := f.db.History(t.Context(), "T3", historyQuery(storeQuery(), audience("U0", "C1")))
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(sums) || pages != (len(sums)+pageSize-1)/pageSize {
		t.Errorf("paged through %d checks on %d pages, want %d", len(seen), pages, len(sums))
	}
}

func TestRateLimit(t *testing.T) {
	f := newFixture(t)
	f.srv = New(Options{Store: f.db, Secret: testSecret, Now: testNow, Burst: 2, Rate: 0.001})
	link := local(f.links.CheckURL("T1", "U1", f.sample.ID))
	for i, want := range []int{200, 200, 429} {
		if w := f.get(t, link); w.Code != want {
			t.Errorf("request %d: status %d, want %d", i+1, w.Code, want)
		}
	}
	// Another link has its own allowance.
	if w := f.get(t, local(f.links.HistoryURL("T1", "U1", "C1"))); w.Code != 200 {
		t.Errorf("another link: status %d, want 200", w.Code)
	}
}

// Without a secret no link opens anything, even one signed with the empty
// key.
func TestNoSecret(t *testing.T) {
	f := newFixture(t)
	f.srv = New(Options{Store: f.db, Now: testNow})
	empty := NewLinks("https://factbot.example", "", 0, 0, testNow)
	if w := f.get(t, local(empty.CheckURL("T1", "U1", f.sample.ID))); w.Code != http.StatusForbidden {
		t.Errorf("a link signed with the empty key: status %d, want 403", w.Code)
	}
	if w := f.get(t, "/web/", "Authorization", "Bearer "); w.Code != http.StatusForbidden {
		t.Errorf("an empty admin token: status %d, want 403", w.Code)
	}
}
