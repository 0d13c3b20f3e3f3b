package bot

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
// (said), the engine's carry codes (factcheck.InputError, factcheck.Note,
// factcheck.NotCheckable.Code) rendered here from the catalogs.

// wordsError is an error shown to the user as message m of the catalogs.
type wordsError struct {
	m    *i18n.Message
	data map[string]any
	err  error
}

func (e *wordsError) Error() string {
	if e.err == nil {
		return English.text(e.m, e.data)
	}
	return English.text(e.m, e.data) + ": " + e.err.Error()
}

func (e *wordsError) Unwrap() error { return e.err }

// said is an error safe to show, as message m with data: a
// *usererr.Error whose message is the English wording, for callers that
// know no language, and which Lang.UserMessage says in any. cause is
// logged, never shown.
func said(m *i18n.Message, data map[string]any, cause error) error {
	return &usererr.Error{Msg: English.text(m, data), Err: &wordsError{m: m, data: data, err: cause}}
}

// ErrMessageNotFound is the error of a MessageReader for a message that
// does not exist or cannot be seen; cause is logged.
func ErrMessageNotFound(cause error) error { return said(wMessageNotFound, nil, cause) }

// ErrOwnMessage is the error of a MessageReader asked about one of the
// bot's own messages.
func ErrOwnMessage() error { return said(wOwnMessage, nil, nil) }

// UserMessage is the text to show a user for err, in English (see
// Lang.UserMessage).
func UserMessage(err error) string { return English.UserMessage(err) }

// UserMessage is the text to show a user for err, in l: the words of an
// error safe to show, else a fixed apology. Internal error text never
// reaches a chat.
func (l Lang) UserMessage(err error) string {
	if msg, ok := l.shown(err); ok {
		return msg
	}
	return l.text(wInternal, nil)
}

// shown is err's text in l when err is safe to show: the core's words,
// input the engine refused, or another usererr's message as it is.
func (l Lang) shown(err error) (string, bool) {
	var we *wordsError
	if errors.As(err, &we) {
		return l.text(we.m, we.data), true
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
		return l.text(wInputEmpty, nil)
	case factcheck.InputTooLong:
		return l.text(wInputTooLong, map[string]any{"Chars": ie.Chars, "Max": ie.Max})
	case factcheck.InputUnreadable:
		notes := make([]string, len(ie.Notes))
		for i, n := range ie.Notes {
			notes[i] = strings.TrimSuffix(l.note(n), ".")
		}
		return l.text(wInputUnreadable, map[string]any{"Notes": strings.Join(notes, "; ")})
	case factcheck.InputLinkNoReader:
		return l.text(wInputLinkNoReader, nil)
	case factcheck.InputLinkUnreadable:
		return l.text(wInputLinkUnreadable, map[string]any{"Why": fmt.Sprint(ie.Err)})
	case factcheck.InputLinkEmpty:
		return l.text(wInputLinkEmpty, nil)
	}
	return ""
}

// The codes of the notes the core adds to a report: attachments of the
// message asked about that were not read.
const (
	noteAttachmentType   = "attachment_type"
	noteAttachmentSize   = "attachment_size"
	noteAttachmentCount  = "attachment_count"
	noteAttachmentFailed = "attachment_failed"
)

// noteWords are the catalog messages of note codes whose data is the
// file's Name and Max.
var noteWords = map[string]*i18n.Message{
	noteAttachmentType: wAttachmentType, noteAttachmentSize: wAttachmentSize,
	noteAttachmentCount: wAttachmentCount, noteAttachmentFailed: wAttachmentFailed,
	factcheck.AttachmentNoPictures: wAttachmentNoPictures, factcheck.AttachmentPDFUnread: wAttachmentPDFUnread,
	factcheck.AttachmentNotPictOrPDF: wAttachmentNotPictOrPDF,
}

// attachmentNote is the note (code, a noteWords key) on file name not read.
func attachmentNote(code, name string, max int) factcheck.Note {
	data := map[string]any{"Name": name, "Max": max}
	return factcheck.Note{Code: code, Name: name, Max: max, Text: English.text(noteWords[code], data)}
}

// note is n in l; a note of a code without a catalog message keeps its
// English text.
func (l Lang) note(n factcheck.Note) string {
	switch n.Code {
	case factcheck.NoteLinkOnly:
		return l.text(wNoteLinkOnly, map[string]any{"Title": n.Title})
	case factcheck.NoteClaimsOverLimit:
		return l.text(wNoteClaimsOver, map[string]any{"Max": n.Max, "Total": n.Count})
	case factcheck.NotePicturesUnread:
		return l.count(wNotePicturesUnread, n.Count, map[string]any{"Model": n.Model})
	}
	if m := noteWords[n.Code]; m != nil {
		return l.text(m, map[string]any{"Name": n.Name, "Max": n.Max})
	}
	return n.Text
}

// notice is the report's notice in l: its notes one by one, or, for a
// report saved before notes had codes, its English Notice.
func (l Lang) notice(rep *factcheck.Report) string {
	if len(rep.Notes) == 0 {
		return rep.Notice
	}
	parts := make([]string, len(rep.Notes))
	for i, n := range rep.Notes {
		parts[i] = l.note(n)
	}
	return strings.Join(parts, " ")
}

// reason is why nc was not checked, in l: the engine's reasons from the
// catalogs, the model's (already in the claim's language) as they are.
func (l Lang) reason(nc factcheck.NotCheckable) string {
	switch nc.Code {
	case factcheck.ReasonOverLimit:
		return l.text(wReasonOverLimit, map[string]any{"Max": nc.Max})
	case factcheck.ReasonNotFact:
		return l.text(wReasonNotFact, nil)
	}
	return strings.TrimSpace(nc.Reason)
}

// claimFailed says why a claim could not be checked (Verdict.Failed).
func (l Lang) claimFailed(code string) string {
	switch code {
	case factcheck.FailedModel:
		return l.text(wClaimFailedModel, nil)
	case factcheck.FailedRateLimited:
		return l.text(wClaimFailedRateLimited, nil)
	case factcheck.FailedCancelled:
		return l.text(wClaimFailedCancelled, nil)
	}
	return l.text(wClaimFailed, nil)
}

// UnknownCommand answers a command factbot does not know.
func (l Lang) UnknownCommand() string { return l.text(wUnknownCommand, nil) }

// SlackHelp is the answer to Slack's "/factcheck help", command being the
// slash command's name.
func (l Lang) SlackHelp(command string) string {
	return l.text(wHelpSlack, map[string]any{"Command": command, "Usage": HistoryUsage})
}

// CommandWords are the descriptions of Discord's application commands and
// their options, and the message command's name.
type CommandWords struct {
	Factcheck, Text, Private, History, Count, Verdict, Mine string
	Message                                                 string
}

// CommandWords are the command descriptions in l.
func (l Lang) CommandWords() CommandWords {
	return CommandWords{
		Factcheck: l.text(wCommandFactcheck, nil), Text: l.text(wCommandText, nil), Private: l.text(wCommandPrivate, nil),
		History: l.text(wCommandHistory, nil), Verdict: l.text(wCommandVerdict, nil), Mine: l.text(wCommandMine, nil),
		Count:   l.text(wCommandCount, map[string]any{"Max": MaxHistory, "Default": DefaultHistory}),
		Message: l.text(wCommandMessage, nil),
	}
}
