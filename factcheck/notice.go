package factcheck

import (
	"errors"
	"fmt"
	"strings"

	"github.com/factbot-dev/factbot/internal/usererr"
)

// The engine's words for users carry stable codes, so that a chat can say
// them in the asker's language from its own catalogs; the English text is
// kept with them for the terminal and the JSON report.

// Note codes of Report.Notes.
const (
	// NoteLinkOnly: the input was only a link; the page's claims were
	// checked (Title is the page's title).
	NoteLinkOnly = "link_only"
	// NoteClaimsOverLimit: only the first Max of Count claims were checked.
	NoteClaimsOverLimit = "claims_over_limit"
	// NotePicturesUnread: Count pictures were not read, the model (Model)
	// reading none.
	NotePicturesUnread = "pictures_unread"
)

// Note is one notice of a report: Code says which, the other fields fill
// it in, and Text is its English wording (Report.Notice joins them). A
// chat may add notes of its own codes.
type Note struct {
	Code  string `json:"code"`
	Text  string `json:"text"`
	Title string `json:"title,omitempty"`
	Name  string `json:"name,omitempty"` // a file's name
	Model string `json:"model,omitempty"`
	Count int    `json:"count,omitempty"`
	Max   int    `json:"max,omitempty"`
}

// AddNote adds n to the report's notes and its English Notice.
func (r *Report) AddNote(n Note) {
	r.Notes = append(r.Notes, n)
	r.Notice = strings.TrimSpace(r.Notice + " " + n.Text)
}

// Reason codes of NotCheckable.Code, for the reasons the engine writes
// (the model's own reasons have none: they are in the input's language).
const (
	// ReasonOverLimit: a claim past the per-request limit (Max).
	ReasonOverLimit = "over_limit"
	// ReasonNotFact: the model gave no reason.
	ReasonNotFact = "not_fact"
)

// Why a claim could not be checked (Verdict.Failed).
const (
	FailedModel       = "model"        // the model could not be reached
	FailedRateLimited = "rate_limited" // the model's rate limit was reached
	FailedCancelled   = "cancelled"    // the check was cancelled
	FailedOther       = "other"        // an error whose message Reasoning shows
)

// Attachment note codes (Attachment.NoteCode).
const (
	AttachmentNoPictures   = "no_pictures"     // the model does not read pictures
	AttachmentPDFUnread    = "pdf_unreadable"  // the PDF could not be read
	AttachmentNotPictOrPDF = "not_picture_pdf" // neither a picture nor a PDF
)

// Input error codes (InputError.Code).
const (
	InputEmpty          = "empty"           // nothing to check
	InputTooLong        = "too_long"        // Chars over Max
	InputUnreadable     = "unreadable"      // no text, and no attachment could be read (Notes say why)
	InputLinkNoReader   = "link_no_reader"  // only a link, and no page reader
	InputLinkUnreadable = "link_unreadable" // only a link, and the page could not be read (Err)
	InputLinkEmpty      = "link_empty"      // only a link, to a page with no text
)

// InputError is input the engine refuses. Check and ValidateInput return
// it inside a *usererr.Error whose message is the English wording.
type InputError struct {
	Code       string
	Chars, Max int
	// Notes say why attachments were not read (InputUnreadable): the
	// report's notes and one per attachment, its Code an attachment note
	// code.
	Notes []Note
	Err   error // the reader's error (InputLinkUnreadable)
}

func (e *InputError) Error() string { return "input refused: " + e.Code }
func (e *InputError) Unwrap() error { return e.Err }

// inputError is the *usererr.Error of e, shown as msg.
func inputError(e *InputError, format string, args ...any) error {
	return &usererr.Error{Msg: fmt.Sprintf(format, args...), Err: e}
}

// AsInputError returns the InputError in err's chain, if any.
func AsInputError(err error) (*InputError, bool) {
	var ie *InputError
	ok := errors.As(err, &ie)
	return ie, ok
}

// unreadableNotes are the notes of an input whose attachments could not
// be read: the report's, and each attachment's.
func unreadableNotes(rep *Report) []Note {
	notes := append([]Note(nil), rep.Notes...)
	for _, a := range rep.Attachments {
		if a.Note != "" {
			notes = append(notes, Note{Code: a.NoteCode, Name: a.Name, Text: a.Name + ": " + a.Note})
		}
	}
	return notes
}

// LinkedPage is the page the report's claims were read from when its
// input was nothing but a link to it (NoteLinkOnly); "" otherwise.
func (r *Report) LinkedPage() string {
	for _, n := range r.Notes {
		if n.Code == NoteLinkOnly {
			return OnlyURL(r.Input)
		}
	}
	return ""
}
