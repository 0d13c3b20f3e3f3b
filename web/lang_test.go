package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// TestPageLanguage: the check page, through the real HTTP server, takes
// its words in the browser's language (Accept-Language), else in the
// claim's; Arabic is written right to left.
func TestPageLanguage(t *testing.T) {
	f := newFixture(t)
	spanish := spanishCheck(t, f)
	ts := httptest.NewServer(f.srv)
	t.Cleanup(ts.Close)
	for _, tt := range []struct {
		name, accept string
		check        *store.Check
		want, not    []string
	}{{
		name: "Spanish browser", accept: "es-ES,es;q=0.9,en;q=0.5", check: f.sample,
		want: []string{`<html lang="es" dir="ltr">`, "<h2>Afirmaciones</h2>", "<h2>Fuentes</h2>", "<h2>Mapa de pruebas</h2>",
			"✅ Respaldada", "❌ Desmentida", "confianza alta", "cita encontrada en la página", `<span class="stance">respalda</span>`,
			"detenida antes de tiempo: se alcanzó el límite de búsquedas", "Comprobada", "PDF, 2 páginas.", "Página 2", "sobre la afirmación 3:"},
		not: []string{"<h2>Claims</h2>", "<h2>Sources</h2>", "Evidence map", "high confidence", "Read-only view"},
	}, {
		name: "Arabic browser", accept: "ar", check: f.sample,
		want: []string{`<html lang="ar" dir="rtl">`, "<h2>الادعاءات</h2>", "<h2>المصادر</h2>", "مؤكَّد", "ثقة عالية", "الاقتباس موجود في الصفحة"},
		not:  []string{"<h2>Claims</h2>", "high confidence"},
	}, {
		name: "no header, a Spanish claim", check: spanish,
		want: []string{`<html lang="es" dir="ltr">`, "<h2>Afirmaciones</h2>", "✅ Respaldada"},
		not:  []string{"<h2>Claims</h2>"},
	}, {
		name: "a browser without a catalog's language, a Spanish claim", accept: "ko-KR,ko", check: spanish,
		want: []string{`<html lang="es" dir="ltr">`, "<h2>Afirmaciones</h2>"},
	}, {
		name: "an English browser, a Spanish claim", accept: "en-GB,en", check: spanish,
		want: []string{`<html lang="en" dir="ltr">`, "<h2>Claims</h2>", "✅ Supported"},
		not:  []string{"Afirmaciones"},
	}, {
		name: "no header, an English claim", check: f.sample,
		want: []string{`<html lang="en" dir="ltr">`, "<h2>Claims</h2>", "high confidence", "Read-only view"},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			body := fetch(t, ts.URL+local(f.links.CheckURL("T1", "U1", tt.check.ID)), tt.accept, http.StatusOK)
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(body, n) {
					t.Errorf("the page shows %q", n)
				}
			}
		})
	}
}

// TestHistoryAndErrorLanguage: the history page and the error pages take
// the browser's language.
func TestHistoryAndErrorLanguage(t *testing.T) {
	f := newFixture(t)
	ts := httptest.NewServer(f.srv)
	t.Cleanup(ts.Close)
	body := fetch(t, ts.URL+local(f.links.HistoryURL("T1", "U1", "C1")), "de-DE,de", http.StatusOK)
	for _, w := range []string{`<html lang="de" dir="ltr">`, "<title>Verlauf · factbot</title>", ">Filtern</button>", "✅ Bestätigt", "Exportieren, was du siehst:"} {
		if !strings.Contains(body, w) {
			t.Errorf("the history page lacks %q", w)
		}
	}
	body = fetch(t, ts.URL+CheckPath("T1", f.sample.ID)+"?t=forged", "ar", http.StatusForbidden)
	for _, w := range []string{`<html lang="ar" dir="rtl">`, "هذا الرابط غير صالح"} {
		if !strings.Contains(body, w) {
			t.Errorf("the error page lacks %q:\n%s", w, body)
		}
	}
}

// spanishCheck saves a copy of the sample check whose claims are Spanish.
func spanishCheck(t *testing.T, f *fixture) *store.Check {
	t.Helper()
	rep := *f.sample.Report
	rep.Language = "es"
	c := &store.Check{Tenant: "T1", Channel: "C1", User: "U1", Text: "La torre Eiffel mide 330 metros.", CreatedAt: t0.Add(3 * time.Minute), Report: &rep}
	if err := f.db.SaveCheck(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	return c
}

// fetch GETs url with an Accept-Language header (none when "") and
// returns the body, failing unless the status is want.
func fetch(t *testing.T, url, accept string, want int) string {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept-Language", accept)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != want {
		t.Fatalf("GET %s: status %d, want %d", url, res.StatusCode, want)
	}
	return readAll(t, res)
}
