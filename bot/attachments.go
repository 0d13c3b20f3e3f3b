package bot

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"strings"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// MetaMessage is the Request.Meta key naming, in the adapter's own terms,
// the message a request is about when the core must read it before the
// check: the first message of a thread asked about with a bare mention,
// the message a reaction was added to, a message with attachments. The
// platform's MessageReader reads it when the request runs (not before the
// acknowledgement). A request with it may have no text of its own.
const MetaMessage = "message"

// Attachment limits: at most MaxAttachments files of a message are read,
// each at most MaxAttachmentBytes, of the media types in attachmentTypes.
const (
	MaxAttachments     = 4
	MaxAttachmentBytes = 5 << 20
)

// attachmentTypes are the media types read: pictures given to the model,
// and PDFs, whose text is read.
var attachmentTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/webp": true, "image/gif": true, factcheck.MIMEPDF: true,
}

// MessageReader is implemented by platforms that can read the message a
// request names in Meta[MetaMessage] and download its attachments.
type MessageReader interface {
	// ReadMessage reads the message named by r.Meta[MetaMessage]. An
	// error with a usererr message is shown to the asker.
	ReadMessage(ctx context.Context, r *store.Request) (*Posted, error)
	// Download fetches one of its attachments, failing past max bytes.
	Download(ctx context.Context, r *store.Request, f Attachment, max int64) ([]byte, error)
}

// Posted is a message as a platform read it.
type Posted struct {
	Text  string
	Files []Attachment
	// Thread, if set, is where answers about the message go when that is
	// not where the request said (a reaction to a reply in a thread: its
	// thread's first message).
	Thread string
}

// Attachment is a file attached to a message, as the platform describes
// it.
type Attachment struct {
	Name string
	MIME string // as the platform says; the bytes are checked too
	URL  string
	Size int64 // 0 when unknown
}

// ErrTooLarge is returned by Download when a file is over its bound.
var ErrTooLarge = errors.New("file too large")

// read reads the message the request is about, when it names one: its
// text when the request has none, and its attachments within the limits.
// Files not read are explained in notes. An error is shown to the asker.
func (j *job) read(text string) (string, []factcheck.File, []factcheck.Note, error) {
	mr, ok := j.p.(MessageReader)
	if j.r.Meta[MetaMessage] == "" || !ok {
		return text, nil, nil, nil
	}
	cctx, cancel := j.call()
	m, err := mr.ReadMessage(cctx, j.r)
	cancel()
	if err != nil {
		return "", nil, nil, err
	}
	if text == "" {
		text = strings.TrimSpace(m.Text)
	}
	if m.Thread != "" {
		j.r.Thread = m.Thread
	}
	if text != "" {
		if err := factcheck.ValidateInput(text, j.s.opts.MaxInput); err != nil {
			return "", nil, nil, err
		}
	}
	keep, notes := pickAttachments(m.Files)
	var files []factcheck.File
	for _, f := range keep {
		ff, note := j.download(mr, f)
		if note != nil {
			notes = append(notes, *note)
			continue
		}
		files = append(files, ff)
	}
	return text, files, notes, nil
}

// pickAttachments keeps the attachments to read and says why the others
// are not read.
func pickAttachments(fs []Attachment) ([]Attachment, []factcheck.Note) {
	var keep []Attachment
	var notes []factcheck.Note
	for _, f := range fs {
		switch {
		case !attachmentTypes[mediaType(f.MIME)]:
			notes = append(notes, words.AttachmentNote(words.NoteAttachmentType, f.Name, 0))
		case f.Size > MaxAttachmentBytes:
			notes = append(notes, words.AttachmentNote(words.NoteAttachmentSize, f.Name, MaxAttachmentBytes>>20))
		case len(keep) == MaxAttachments:
			notes = append(notes, words.AttachmentNote(words.NoteAttachmentCount, f.Name, MaxAttachments))
		default:
			keep = append(keep, f)
		}
	}
	return keep, notes
}

// download fetches one attachment and checks that its bytes are of an
// accepted type; a note says why a file was not read.
func (j *job) download(mr MessageReader, f Attachment) (factcheck.File, *factcheck.Note) {
	cctx, cancel := j.call()
	data, err := mr.Download(cctx, j.r, f, MaxAttachmentBytes)
	cancel()
	var n factcheck.Note
	switch {
	case errors.Is(err, ErrTooLarge):
		n = words.AttachmentNote(words.NoteAttachmentSize, f.Name, MaxAttachmentBytes>>20)
	case err != nil:
		j.log.Warn("download attachment", "file", f.Name, "err", err)
		n = words.AttachmentNote(words.NoteAttachmentFailed, f.Name, 0)
	default:
		sniffed := mediaType(http.DetectContentType(data))
		if attachmentTypes[sniffed] {
			return factcheck.File{Name: f.Name, MIME: sniffed, Data: data}, nil
		}
		n = words.AttachmentNote(words.NoteAttachmentType, f.Name, 0)
	}
	return factcheck.File{}, &n
}

// readMessage is the text shown when the message asked about could not be
// read.
func (l Lang) readMessage(err error) string {
	if msg, ok := l.Shown(err); ok {
		return msg
	}
	return l.Text(words.MessageUnreadable, nil)
}

// mediaType is a MIME type without its parameters, in lower case.
func mediaType(s string) string {
	t, _, err := mime.ParseMediaType(s)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(s))
	}
	return t
}
