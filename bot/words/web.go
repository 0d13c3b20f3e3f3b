package words

import (
	"fmt"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// The words of the web view's pages, in English; the catalogs
// (locales/*.json) translate them like the chat's words, and
// TestCatalogsComplete holds them to it. The pages take them by id
// (Lang.Word); verdicts, stances, confidences and quote places are the
// chat's (Lang.Label, Lang.Stance, …).
var webWords = []*i18n.Message{
	{ID: "WebHistory", Other: "History"},
	{ID: "WebHistoryAll", Other: "History of every tenant"},
	{ID: "WebOperator", Other: "operator"},
	{ID: "WebFooter", Other: "Read-only view of factbot's audit trail. Verdicts come from a language model that searched the web; read the sources."},
	{ID: "WebPrivate", Other: "private"},
	{ID: "WebCached", Other: "cached"},
	{ID: "WebOpenInChat", Other: "open in chat"},
	{ID: "WebPicture", Other: "Picture {{.N}}"},
	{ID: "WebBytes", One: "{{.Count}} byte", Other: "{{.Count}} bytes"},
	{ID: "WebNotRead", Other: "not read"},
	{ID: "WebClaims", Other: "Claims"},
	{ID: "WebNoClaims", Other: "No checkable claim was found."},
	{ID: "WebCouldNotCheck", Other: "Could not be checked: {{.Why}}"},
	{ID: "WebFactCheck", Other: "fact-check"},
	{ID: "WebChecked", Other: "Checked"},
	{ID: "WebByModel", Other: "by {{.Model}}"},
	{ID: "WebTokens", One: "{{.Count}} token", Other: "{{.Count}} tokens"},
	{ID: "WebEvidenceMap", Other: "Evidence map"},
	{ID: "WebMapWide", Other: "Evidence map: claims on the left, the sources they cite on the right"},
	{ID: "WebMapStacked", Other: "Evidence map: each claim followed by the sources it cites"},
	{ID: "WebKeyUnverified", Other: "dashed: quote not found verbatim"},
	{ID: "WebKeyFactCheck", Other: "published fact-check"},
	{ID: "WebEdge", Other: "{{.Title}} {{.Why}} claim {{.N}}"},
	{ID: "WebSources", Other: "Sources"},
	{ID: "WebSource", Other: "Source"},
	{ID: "WebPublisher", Other: "Publisher"},
	{ID: "WebPublished", Other: "Published"},
	{ID: "WebFetched", Other: "Fetched"},
	{ID: "WebCited", Other: "Cited"},
	{ID: "WebQuote", Other: "Quote"},
	{ID: "WebYes", Other: "yes"},
	{ID: "WebNo", Other: "no"},
	{ID: "WebAsRead", Other: "As read then"},
	{ID: "WebAsReadNote", Other: "The text of each page as factbot read it, kept by its SHA-256. Shown as plain text."},
	{ID: "WebSnapshotGone", Other: "The snapshot is no longer kept."},
	{ID: "WebPDFPages", One: "PDF, {{.Count}} page.", Other: "PDF, {{.Count}} pages."},
	{ID: "WebPage", Other: "Page {{.N}}"},
	{ID: "WebCut", Other: "Only the first {{.Max}} characters are shown."},
	{ID: "WebTruncated", Other: "The page was longer than factbot reads; this is its start."},
	{ID: "WebTrace", Other: "Trace"},
	{ID: "WebSteps", One: "({{.Count}} step)", Other: "({{.Count}} steps)"},
	{ID: "WebFindingClaims", Other: "Finding the claims"},
	{ID: "WebClaimN", Other: "Claim {{.N}}: {{.Title}}"},
	{ID: "WebModelCall", Other: "model call"},
	{ID: "WebFeedback", Other: "Feedback"},
	{ID: "WebOnClaim", Other: "on claim {{.N}}:"},
	{ID: "WebOnCheck", Other: "on the whole check:"},
	{ID: "WebTenant", Other: "Tenant"},
	{ID: "WebAny", Other: "any"},
	{ID: "WebAnyone", Other: "anyone"},
	{ID: "WebWords", Other: "Words"},
	{ID: "WebWordsExample", Other: "e.g. vaccine"},
	{ID: "WebVerdict", Other: "Verdict"},
	{ID: "WebChannel", Other: "Channel"},
	{ID: "WebPerson", Other: "Person"},
	{ID: "WebFrom", Other: "From"},
	{ID: "WebTo", Other: "To"},
	{ID: "WebFilter", Other: "Filter"},
	{ID: "WebNoMatch", Other: "No checks match."},
	{ID: "WebNewest", Other: "← Newest"},
	{ID: "WebOlder", Other: "Older →"},
	{ID: "WebExport", Other: "Export what you see:"},
	// The error pages: a title and a message per status.
	{ID: "WebBadRequest", Other: "Bad request"},
	{ID: "WebBadRequestText", Other: "The address or a filter is not understood."},
	{ID: "WebForbidden", Other: "Forbidden"},
	{ID: "WebForbiddenText", Other: "This link is not valid, or it has expired. Ask factbot in chat for a new one."},
	{ID: "WebNotFound", Other: "Not found"},
	{ID: "WebNotFoundText", Other: "There is nothing here. The check may have been forgotten or pruned."},
	{ID: "WebTooMany", Other: "Too many requests"},
	{ID: "WebTooManyText", Other: "Too many requests with this link. Wait a moment and reload."},
	{ID: "WebFailed", Other: "Something went wrong"},
	{ID: "WebFailedText", Other: "Something went wrong on our side. Try again in a moment."},
}

// pageWordByID are the words pages take by id: the web view's and the
// Slack install's.
var pageWordByID = sync.OnceValue(func() map[string]*i18n.Message {
	m := make(map[string]*i18n.Message, len(webWords)+len(installWords))
	for _, w := range append(webWords[:len(webWords):len(webWords)], installWords...) {
		m[w.ID] = w
	}
	return m
})

// Word is a page's word id (the web view's WebClaims…, the Slack
// install's Install…) in l, with kv (pairs of a
// name and its value) filled in; a "Count" makes it take its plural form.
// An id that is not a word is an error, so that a page naming one fails
// in its tests.
func (l Lang) Word(id string, kv ...any) (string, error) {
	m := pageWordByID()[id]
	if m == nil || len(kv)%2 != 0 {
		return "", fmt.Errorf("words: no page word %q with %d values", id, len(kv))
	}
	data := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			return "", fmt.Errorf("words: page word %q: name %v", id, kv[i])
		}
		data[k] = kv[i+1]
	}
	if n, ok := data["Count"].(int); ok {
		return l.Count(m, n, data), nil
	}
	return l.Text(m, data), nil
}

// MustWord is Word for the ids the code names.
func (l Lang) MustWord(id string, kv ...any) string {
	s, err := l.Word(id, kv...)
	if err != nil {
		panic(err)
	}
	return s
}

// Dir is the direction of the language's script: "rtl" for Arabic, else
// "ltr".
func (l Lang) Dir() string {
	if base, _ := l.Tag().Base(); base.String() == "ar" {
		return "rtl"
	}
	return "ltr"
}

// FromPicture marks a claim read from picture n: "(read from picture 2)".
func (l Lang) FromPicture(n int) string { return l.Text(FromPicture, map[string]any{"N": n}) }
