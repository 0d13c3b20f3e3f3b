package bot

import (
	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/store"
)

// MetaLocale is the Request.Meta key of the asker's locale as the platform
// tells it (Discord's interaction locale, Slack's user locale), a BCP 47
// tag such as "es-ES"; absent when the platform did not say.
const MetaLocale = "locale"

// MetaUserName is the Request.Meta key of the asker's name as the
// platform shows it, when the adapter knows it ("Asked by" under a report
// in a channel).
const MetaUserName = "user_name"

// Lang is the language of an answer: its words (words.Lang: labels,
// headings, buttons, fixed messages) and the chat messages rendered in it
// (RenderReport, …). The zero Lang is English. Its Stance and QuoteNote
// take a piece of evidence as chat shows it (EvidenceView); words.Lang's,
// which they call, take the stance and the quote's match themselves.
type Lang struct{ words.Lang }

// English is the default Lang, the zero Lang's.
var English = Lang{}

// Where a history lists the checks of (HistoryTitle, HistoryEmpty).
const (
	WhereWorkspace = words.InWorkspace // a Slack workspace
	WhereServer    = words.InServer    // a Discord server
	WhereDMs       = words.InDMs       // the direct messages with the bot
)

// Apologies every adapter may show as they are.
const (
	// MsgNotStored answers a request that could not be stored.
	MsgNotStored = words.MsgNotStored
	// MsgInternal is the fixed apology for any failure whose text is not
	// safe to show.
	MsgInternal = words.MsgInternal
)

// LangFor is the first language of prefs (BCP 47 tags, most wanted first)
// with a catalog, else English (words.LangFor).
func LangFor(prefs ...string) Lang { return Lang{words.LangFor(prefs...)} }

// RequestLang is the language of the answer to r: the asker's locale on
// the platform (MetaLocale), then the claims' language (a BCP 47 tag, or
// "" when unknown), then the language of the script of text (Chinese,
// Japanese, Arabic or Hindi, which need no model to tell), then English.
func RequestLang(r *store.Request, claims, text string) Lang {
	var locale string
	if r != nil {
		locale = r.Meta[MetaLocale]
	}
	return LangFor(locale, claims, words.ScriptLanguage(text))
}

// Equal reports whether l and o are the same language (go-cmp uses it).
func (l Lang) Equal(o Lang) bool { return l.Lang.Equal(o.Lang) }

// ErrMessageNotFound is the error of a MessageReader for a message that
// does not exist or cannot be seen; cause is logged.
func ErrMessageNotFound(cause error) error { return words.ErrMessageNotFound(cause) }

// ErrOwnMessage is the error of a MessageReader asked about one of the
// bot's own messages.
func ErrOwnMessage() error { return words.ErrOwnMessage() }

// UserMessage is the text to show a user for err, in English (see
// words.Lang.UserMessage).
func UserMessage(err error) string { return English.UserMessage(err) }
