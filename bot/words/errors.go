package words

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
)

// What users are told of errors, refused input and the engine's notices,
// in their language: the core's own errors carry their catalog message
// (Said), the engine's carry codes (factcheck.InputError, factcheck.Note,
// factcheck.NotCheckable.Code) rendered here from the catalogs.

// wordsError is an error shown to the user as message m of the catalogs.
type wordsError struct {
	m    *i18n.Message
	data map[string]any
	err  error
}

func (e *wordsError) Error() string {
	if e.err == nil {
		return English.Text(e.m, e.data)
	}
	return English.Text(e.m, e.data) + ": " + e.err.Error()
}

func (e *wordsError) Unwrap() error { return e.err }

// Said is an error safe to show, as message m with data: a
// *usererr.Error whose message is the English wording, for callers that
// know no language, and which Lang.UserMessage says in any. cause is
// logged, never shown.
func Said(m *i18n.Message, data map[string]any, cause error) error {
	return &usererr.Error{Msg: English.Text(m, data), Err: &wordsError{m: m, data: data, err: cause}}
}

// ErrMessageNotFound is the error of a MessageReader for a message that
// does not exist or cannot be seen; cause is logged.
func ErrMessageNotFound(cause error) error { return Said(MessageNotFound, nil, cause) }

// ErrOwnMessage is the error of a MessageReader asked about one of the
// bot's own messages.
func ErrOwnMessage() error { return Said(OwnMessage, nil, nil) }

// UserMessage is the text to show a user for err, in l: the words of an
// error safe to show, else a fixed apology. Internal error text never
// reaches a chat.
func (l Lang) UserMessage(err error) string {
	if msg, ok := l.Shown(err); ok {
		return msg
	}
	return l.Text(Internal, nil)
}

// Shown is err's text in l when err is safe to show: the core's words,
// input the engine refused, or another usererr's message as it is.
func (l Lang) Shown(err error) (string, bool) {
	var we *wordsError
	if errors.As(err, &we) {
		return l.Text(we.m, we.data), true
	}
	if ie, ok := factcheck.AsInputError(err); ok {
		if msg := l.input(ie); msg != "" {
			return msg, true
		}
	}
	return usererr.Message(err)
}

// input is the refusal of input ie in l, "" for a code it does not know.
func (l Lang) input(ie *factcheck.InputError) string {
	switch ie.Code {
	case factcheck.InputEmpty:
		return l.Text(InputEmpty, nil)
	case factcheck.InputTooLong:
		return l.Text(InputTooLong, map[string]any{"Chars": ie.Chars, "Max": ie.Max})
	case factcheck.InputUnreadable:
		notes := make([]string, len(ie.Notes))
		for i, n := range ie.Notes {
			notes[i] = strings.TrimSuffix(l.Note(n), ".")
		}
		return l.Text(InputUnreadable, map[string]any{"Notes": strings.Join(notes, "; ")})
	case factcheck.InputLinkNoReader:
		return l.Text(InputLinkNoReader, nil)
	case factcheck.InputLinkUnreadable:
		return l.Text(InputLinkUnreadable, map[string]any{"Why": fmt.Sprint(ie.Err)})
	case factcheck.InputLinkEmpty:
		return l.Text(InputLinkEmpty, nil)
	}
	return ""
}

// The codes of the notes the core adds to a report: attachments of the
// message asked about that were not read.
const (
	NoteAttachmentType   = "attachment_type"
	NoteAttachmentSize   = "attachment_size"
	NoteAttachmentCount  = "attachment_count"
	NoteAttachmentFailed = "attachment_failed"
)

// noteWords are the catalog messages of note codes whose data is the
// file's Name and Max.
var noteWords = map[string]*i18n.Message{
	NoteAttachmentType: AttachmentType, NoteAttachmentSize: AttachmentSize,
	NoteAttachmentCount: AttachmentCount, NoteAttachmentFailed: AttachmentFailed,
	factcheck.AttachmentNoPictures: AttachmentNoPictures, factcheck.AttachmentPDFUnread: AttachmentPDFUnread,
	factcheck.AttachmentNotPictOrPDF: AttachmentNotPictOrPDF,
}

// AttachmentNote is the note (code, a noteWords key) on file name not read.
func AttachmentNote(code, name string, max int) factcheck.Note {
	data := map[string]any{"Name": name, "Max": max}
	return factcheck.Note{Code: code, Name: name, Max: max, Text: English.Text(noteWords[code], data)}
}

// Note is n in l; a note of a code without a catalog message keeps its
// English text.
func (l Lang) Note(n factcheck.Note) string {
	switch n.Code {
	case factcheck.NoteLinkOnly:
		return l.Text(NoteLinkOnly, map[string]any{"Title": n.Title})
	case factcheck.NoteClaimsOverLimit:
		return l.Text(NoteClaimsOver, map[string]any{"Max": n.Max, "Total": n.Count})
	case factcheck.NotePicturesUnread:
		return l.Count(NotePicturesUnread, n.Count, map[string]any{"Model": n.Model})
	}
	if m := noteWords[n.Code]; m != nil {
		return l.Text(m, map[string]any{"Name": n.Name, "Max": n.Max})
	}
	return n.Text
}

// Notice is the report's notice in l: its notes one by one, or, for a
// report saved before notes had codes, its English Notice.
func (l Lang) Notice(rep *factcheck.Report) string {
	if len(rep.Notes) == 0 {
		return rep.Notice
	}
	parts := make([]string, len(rep.Notes))
	for i, n := range rep.Notes {
		parts[i] = l.Note(n)
	}
	return strings.Join(parts, " ")
}

// Reason is why nc was not checked, in l: the engine's reasons from the
// catalogs, the model's (already in the claim's language) as they are.
func (l Lang) Reason(nc factcheck.NotCheckable) string {
	switch nc.Code {
	case factcheck.ReasonOverLimit:
		return l.Text(ReasonOverLimit, map[string]any{"Max": nc.Max})
	case factcheck.ReasonNotFact:
		return l.Text(ReasonNotFact, nil)
	}
	return strings.TrimSpace(nc.Reason)
}

// ClaimFailed says why a claim could not be checked (Verdict.Failed).
func (l Lang) ClaimFailed(code string) string {
	switch code {
	case factcheck.FailedModel:
		return l.Text(ClaimFailedModel, nil)
	case factcheck.FailedRateLimited:
		return l.Text(ClaimFailedRateLimited, nil)
	case factcheck.FailedCancelled:
		return l.Text(ClaimFailedCancelled, nil)
	}
	return l.Text(ClaimFailed, nil)
}

// UnknownCommand answers a command factbot does not know.
func (l Lang) UnknownCommand() string { return l.Text(UnknownCommand, nil) }
