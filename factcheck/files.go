package factcheck

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/factbot-dev/factbot/search"
)

// File is a file given with the text to check: a picture (a screenshot, a
// photo), read by the model with the text, or a PDF, whose text is read
// like a PDF page. The engine knows nothing of where it came from.
type File struct {
	Name string // the file's name, for the report
	// MIME is the media type: image/png, image/jpeg, image/webp,
	// image/gif or application/pdf.
	MIME string
	Data []byte
}

// MIMEPDF is a PDF's media type.
const MIMEPDF = "application/pdf"

// IsPicture says whether the file is a picture (an image/ media type).
func (f File) IsPicture() bool { return strings.HasPrefix(f.MIME, "image/") }

// SHA256 is the hex SHA-256 of the file's bytes.
func (f File) SHA256() string {
	h := sha256.Sum256(f.Data)
	return hex.EncodeToString(h[:])
}

// ImageReader is implemented by models that can be sent pictures
// (Message.Images). A model that does not implement it, or says false, is
// sent none, and the report says the pictures were not read.
type ImageReader interface {
	ReadsImages() bool
}

// Attachment is what a report records of a file given with the input:
// pictures in the order a claim's Picture numbers them from 1, then PDFs.
type Attachment struct {
	Name   string `json:"name,omitempty"`
	MIME   string `json:"mime"`
	Bytes  int    `json:"bytes"`
	SHA256 string `json:"sha256"`
	// Picture is the number a claim read from this picture carries (0 for
	// a PDF).
	Picture int `json:"picture,omitempty"`
	// Read is set when the model was given the picture or the PDF's text
	// was read; Note says why not.
	Read bool   `json:"read"`
	Note string `json:"note,omitempty"`
	// NoteCode is Note's code (AttachmentNoPictures…), for translations.
	NoteCode string `json:"note_code,omitempty"`
}

// readsImages reports whether m accepts pictures.
func readsImages(m Model) bool {
	r, ok := m.(ImageReader)
	return ok && r.ReadsImages()
}

// attachments records the input's files in rep and returns the pictures
// to give the model (none when it does not read them) and the text of
// the PDFs, to check with the input's.
func (c *Checker) attachments(files []File, rep *Report) (pictures []File, pdfText string) {
	canSee := readsImages(c.Model)
	var texts []string
	unread, numbered := 0, 0
	for _, f := range files {
		a := Attachment{Name: f.Name, MIME: f.MIME, Bytes: len(f.Data), SHA256: f.SHA256()}
		switch {
		case f.IsPicture():
			numbered++
			a.Picture = numbered
			if canSee {
				pictures = append(pictures, f)
				a.Read = true
			} else {
				unread++
				a.Note, a.NoteCode = "the model does not read pictures", AttachmentNoPictures
			}
		case f.MIME == MIMEPDF:
			p, err := search.ReadPDF(f.Data)
			if err != nil {
				a.Note, a.NoteCode = err.Error(), AttachmentPDFUnread
				break
			}
			a.Read = true
			texts = append(texts, "[PDF "+f.Name+"]\n"+p.Text)
		default:
			a.Note, a.NoteCode = "not a picture or a PDF", AttachmentNotPictOrPDF
		}
		rep.Attachments = append(rep.Attachments, a)
	}
	if unread > 0 {
		rep.AddNote(Note{Code: NotePicturesUnread, Count: unread, Model: c.Model.Name(),
			Text: fmt.Sprintf("%s not read: the model %s does not read pictures.", plural(unread, "picture was", "pictures were"), c.Model.Name())})
	}
	return pictures, truncate(strings.Join(texts, "\n\n"), pageInputChars)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// picturePrompt tells the model about the pictures sent with the text.
func picturePrompt(n int) string {
	return fmt.Sprintf("\n\n%s attached, numbered from 1 in order. Read the claims they show too (text in a screenshot, a chart's figures, a caption), and give each such claim the number of its picture in `picture`; claims of the text have no picture number.", plural(n, "picture is", "pictures are"))
}
