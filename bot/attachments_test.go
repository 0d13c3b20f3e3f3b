package bot

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPickAttachments(t *testing.T) {
	var fs []Attachment
	for i := range 5 {
		fs = append(fs, Attachment{Name: fmt.Sprintf("p%d.png", i), MIME: "image/png", Size: 10})
	}
	fs = append([]Attachment{
		{Name: "big.jpg", MIME: "image/jpeg", Size: MaxAttachmentBytes + 1},
		{Name: "notes.txt", MIME: "text/plain; charset=utf-8"},
		{Name: "doc.pdf", MIME: "application/PDF"},
	}, fs...)
	keep, notes := pickAttachments(fs)
	var names []string
	for _, f := range keep {
		names = append(names, f.Name)
	}
	if diff := cmp.Diff(names, []string{"doc.pdf", "p0.png", "p1.png", "p2.png"}); diff != "" {
		t.Errorf("kept (-got +want):\n%s", diff)
	}
	want := []string{
		"big.jpg was not read: it is over 5 MB.",
		"notes.txt was not read: only PNG, JPEG, WebP and GIF pictures and PDFs are.",
		"p3.png was not read: at most 4 attachments are read per message.",
		"p4.png was not read: at most 4 attachments are read per message.",
	}
	var texts, es []string
	for _, n := range notes {
		texts = append(texts, n.Text)
		es = append(es, LangFor("es").Note(n))
	}
	if diff := cmp.Diff(texts, want); diff != "" {
		t.Errorf("notes (-got +want):\n%s", diff)
	}
	// In the asker's language, from the notes' codes.
	wantES := []string{
		"big.jpg no se leyó: supera los 5 MB.",
		"notes.txt no se leyó: solo se leen imágenes PNG, JPEG, WebP y GIF y archivos PDF.",
		"p3.png no se leyó: se leen como máximo 4 adjuntos por mensaje.",
		"p4.png no se leyó: se leen como máximo 4 adjuntos por mensaje.",
	}
	if diff := cmp.Diff(es, wantES); diff != "" {
		t.Errorf("notes in Spanish (-got +want):\n%s", diff)
	}
}
