package search

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var reportCreated = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// reportPDF writes a two-page report the way a council or a statistics
// office publishes one: a title, paragraphs wrapped into lines, and page
// two drawn word by word at set positions, as typesetters do, with no
// space characters between the words.
func reportPDF(t testing.TB) []byte {
	t.Helper()
	f := fpdf.New("P", "mm", "A4", "")
	f.SetTitle("Harbour bridge repairs: final report", false)
	f.SetAuthor("City Council Works Department", false)
	f.SetCreationDate(reportCreated)
	f.SetModificationDate(reportCreated.Add(48 * time.Hour))
	tr := f.UnicodeTranslatorFromDescriptor("")

	f.AddPage()
	f.SetFont("Helvetica", "B", 16)
	f.Cell(0, 10, "Harbour bridge repairs: final report")
	f.Ln(14)
	f.SetFont("Helvetica", "", 11)
	f.MultiCell(0, 5, tr("The harbour bridge reopened to traffic on 15 March 2024 after eleven weeks of repairs to its deck. The work\ncost £4.2 million, within the budget of £4.5 million set in the spring."), "", "L", false)
	f.Ln(4)
	f.MultiCell(0, 5, tr("Inspectors found “no structural damage” to the piers; 312 of the 1,040 deck panels were replaced."), "", "L", false)

	f.AddPage()
	f.SetFont("Helvetica", "", 11)
	x := 20.0
	for _, w := range strings.Fields("Traffic counts rose 18% in April.") {
		f.Text(x, 30, w)
		x += f.GetStringWidth(w) + f.GetStringWidth(" ")
	}
	f.Text(20, 36, "Next inspection: 2026.")

	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestExtractPDF(t *testing.T) {
	p, err := extractPDF(reportPDF(t))
	if err != nil {
		t.Fatal(err)
	}
	want := &Page{
		Title:       "Harbour bridge repairs: final report",
		Byline:      "City Council Works Department",
		Published:   "2024-05-06T07:08:09Z",
		PublishedAt: reportCreated,
		PageCount:   2,
		Pages: []PageText{
			{N: 1, Text: "Harbour bridge repairs: final report\n\nThe harbour bridge reopened to traffic on 15 March 2024 after eleven weeks of repairs to its deck. The work\ncost £4.2 million, within the budget of £4.5 million set in the spring.\n\nInspectors found “no structural damage” to the piers; 312 of the 1,040 deck panels were replaced."},
			{N: 2, Text: "Traffic counts rose 18% in April.\nNext inspection: 2026."},
		},
	}
	if diff := cmp.Diff(p, want, cmpopts.IgnoreFields(Page{}, "Text")); diff != "" {
		t.Errorf("extractPDF (-got +want):\n%s", diff)
	}
	if wantText := want.Pages[0].Text + "\n\n" + want.Pages[1].Text; p.Text != wantText {
		t.Errorf("Text = %q, want the pages' text joined: %q", p.Text, wantText)
	}
}

// TestExtractPDFBomb reads a small PDF whose page unpacks to more than
// MaxPDFContentBytes of drawing instructions.
func TestExtractPDFBomb(t *testing.T) {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetFont("Helvetica", "", 11)
	for range 2 {
		f.AddPage()
		for range 4000 {
			f.Text(20, 30, strings.Repeat("bomb ", 120))
		}
	}
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := extractPDF(b.Bytes())
	if !errors.Is(err, ErrTooComplex) {
		t.Errorf("extractPDF err = %v, want ErrTooComplex", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("refusing a %d-byte PDF took %s", b.Len(), took)
	}
}

func TestParsePDFDate(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
	}{
		{"D:20240506070809Z", time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)},
		{"D:20240506070809+02'00'", time.Date(2024, 5, 6, 5, 8, 9, 0, time.UTC)},
		{"D:20240506070809-05'30", time.Date(2024, 5, 6, 12, 38, 9, 0, time.UTC)},
		{"D:2024", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"20240506", time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)},
		{"D:20241306", time.Time{}},
		{"yesterday", time.Time{}},
		{"", time.Time{}},
	}
	for _, tt := range tests {
		got, _ := parsePDFDate(tt.in)
		if diff := cmp.Diff(got, tt.want); diff != "" {
			t.Errorf("parsePDFDate(%q) (-got +want):\n%s", tt.in, diff)
		}
	}
}

// TestReaderReadsPDF serves the report as sites do: typed as a PDF,
// typed as generic bytes at a .pdf address, typed as generic bytes
// elsewhere, and untyped.
func TestReaderReadsPDF(t *testing.T) {
	report := reportPDF(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/report.pdf", "/report":
			w.Header().Set("Content-Type", "application/octet-stream")
		case "/typed":
			w.Header().Set("Content-Type", "application/pdf")
		case "/untyped":
			w.Header()["Content-Type"] = nil
		}
		w.Write(report)
	}))
	defer srv.Close()
	r := NewReader(ReaderOptions{Resolver: testResolver, Dial: dialTo(srv)})
	for _, path := range []string{"/typed", "/report.pdf", "/report", "/untyped"} {
		t.Run(path, func(t *testing.T) {
			p, err := r.Read(context.Background(), "http://news.example"+path)
			if err != nil {
				t.Fatal(err)
			}
			if p.PageCount != 2 || len(p.Pages) != 2 || p.Pages[1].N != 2 || !strings.Contains(p.Pages[1].Text, "rose 18% in April") {
				t.Errorf("pages = %d %+v, want 2 with the traffic counts on page 2", p.PageCount, p.Pages)
			}
			if !p.PublishedAt.Equal(reportCreated) || p.Site != "news.example" || p.Bytes != len(report) {
				t.Errorf("published %v site %q bytes %d", p.PublishedAt, p.Site, p.Bytes)
			}
		})
	}
}

func TestReaderPDFBounds(t *testing.T) {
	report := reportPDF(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		switch r.URL.Path {
		case "/broken.pdf":
			w.Write(report[:len(report)/2])
		default:
			w.Write(report)
		}
	}))
	defer srv.Close()
	r := NewReader(ReaderOptions{Resolver: testResolver, Dial: dialTo(srv), MaxBytes: int64(len(report) - 10)})
	_, err := r.Read(context.Background(), "http://news.example/big.pdf")
	if err == nil || !strings.Contains(err.Error(), "a PDF cannot be read in part") {
		t.Errorf("PDF over the size cap: err = %v", err)
	}
	_, err = r.Read(context.Background(), "http://news.example/broken.pdf")
	var refused *RefusedError
	if err == nil || errors.As(err, &refused) || !strings.Contains(err.Error(), "the PDF could not be read") {
		t.Errorf("broken PDF: err = %v", err)
	}
}

// BenchmarkReadPDF measures reading the two-page report, in documents
// per second on one core.
func BenchmarkReadPDF(b *testing.B) {
	doc := reportPDF(b)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := extractPDF(doc); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}
