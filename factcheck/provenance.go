package factcheck

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Provenance: a verdict may rest only on what the run retrieved. The run
// keeps every URL a tool returned and every text it saw for it (docs);
// the model's verdict is then checked against them: evidence whose URL no
// tool returned is dropped, quotes are looked up in the retrieved text, and
// URLs the model wrote into its prose are removed unless retrieved.

type evidenceArgs struct {
	SourceURL      string `json:"source_url" jsonschema:"description=URL of the source, exactly as a tool returned it."`
	SourceTitle    string `json:"source_title" jsonschema:"description=Title of the source."`
	Supports       bool   `json:"supports" jsonschema:"description=true if the source supports the claim, false if it refutes it."`
	QuoteOrSummary string `json:"quote_or_summary" jsonschema:"description=A short verbatim quote from the source's text that the judgement rests on."`
}

// verdictArgs are submit_verdict's arguments.
type verdictArgs struct {
	Verdict    string         `json:"verdict" jsonschema:"enum=supported,enum=contradicted,enum=contested,enum=unverifiable"`
	Confidence string         `json:"confidence" jsonschema:"enum=high,enum=medium,enum=low"`
	Reasoning  string         `json:"reasoning" jsonschema:"description=One to three sentences explaining the verdict."`
	Evidence   []evidenceArgs `json:"evidence,omitempty" jsonschema:"description=Every source the verdict rests on; empty only for unverifiable."`
}

// submitVerdict is the verification loop's finishing tool.
var submitVerdict = finish(ToolSubmitVerdict, "Submit the final verdict on the claim. This ends the check.", (*verdictArgs).check)

// check validates the verdict arguments, reporting every problem at once.
func (v *verdictArgs) check() error {
	var errs []string
	if !Label(strings.ToLower(strings.TrimSpace(v.Verdict))).Valid() {
		errs = append(errs, fmt.Sprintf("verdict %q is not one of supported, contradicted, contested, unverifiable", v.Verdict))
	}
	if !Confidence(strings.ToLower(strings.TrimSpace(v.Confidence))).Valid() {
		errs = append(errs, fmt.Sprintf("confidence %q is not one of high, medium, low", v.Confidence))
	}
	if strings.TrimSpace(v.Reasoning) == "" {
		errs = append(errs, "reasoning is empty")
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// review lists what is wrong with a verdict's evidence, for the model to
// fix once before any label changes: sources no tool returned in this
// run, quotes not found in the text retrieved for them, and stances that
// contradict the label (supported resting only on refuting sources,
// contradicted only on supporting ones). An unverifiable verdict needs no
// evidence and is not reviewed.
func (r *run) review(va *verdictArgs) error {
	label := r.label(va)
	if label == Unverifiable {
		return nil
	}
	var errs []string
	if len(va.Evidence) == 0 {
		errs = append(errs, fmt.Sprintf("a %s verdict needs evidence: cite the sources retrieved in this check, each with a verbatim quote, or answer unverifiable", label))
	}
	supports, refutes := 0, 0
	for i, e := range va.Evidence {
		d, ok := r.lookup(e.SourceURL)
		switch {
		case !ok:
			errs = append(errs, fmt.Sprintf("evidence %d: no tool returned %s in this check; cite only URLs your tools returned", i+1, e.SourceURL))
			continue
		case !quoteFound(e.QuoteOrSummary, d.texts):
			errs = append(errs, fmt.Sprintf("evidence %d: the quote is not in the text retrieved for %s; copy it verbatim", i+1, d.url))
		}
		if e.Supports {
			supports++
		} else {
			refutes++
		}
	}
	switch {
	case label == Supported && refutes > 0 && supports == 0:
		errs = append(errs, "the verdict is supported but every source refutes the claim (supports=false)")
	case label == Contradicted && supports > 0 && refutes == 0:
		errs = append(errs, "the verdict is contradicted but every source supports the claim (supports=true)")
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// label is the verdict's label as the model gave it.
func (r *run) label(va *verdictArgs) Label {
	return Label(strings.ToLower(strings.TrimSpace(va.Verdict)))
}

// doc is a URL retrieved in a run, with every text the run saw for it.
type doc struct {
	url       string
	title     string
	via       string
	texts     []string
	fetchedAt time.Time
	sha256    string
	publisher string
	rating    string
}

// remember records a retrieved URL and a text seen for it.
func (r *run) remember(u, title, via, text string, mod func(*doc)) {
	k := urlKey(u)
	if k == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.docs[k]
	if !ok {
		d = &doc{url: u, title: title, via: via, fetchedAt: r.c.now()}
		r.docs[k] = d
		r.order = append(r.order, k)
	}
	if d.title == "" {
		d.title = title
	}
	if text != "" {
		d.texts = append(d.texts, text)
	}
	if mod != nil {
		mod(d)
	}
}

func (r *run) lookup(u string) (*doc, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.docs[urlKey(u)]
	return d, ok
}

// verdict turns the model's verdict (nil when it gave none) into a Verdict
// whose evidence has been checked against what the run retrieved.
func (r *run) verdict(va *verdictArgs, stop string) *Verdict {
	v := &Verdict{Start: -1, End: -1}
	if va == nil {
		v.Verdict, v.Confidence = Unverifiable, Low
		v.Reasoning = "The check ended before the model gave a usable verdict"
		if stop != "" {
			v.Reasoning += " (" + stop + " budget reached)"
		}
		v.Reasoning += "."
	} else {
		v.Verdict = Label(strings.ToLower(strings.TrimSpace(va.Verdict)))
		v.Confidence = Confidence(strings.ToLower(strings.TrimSpace(va.Confidence)))
		v.Reasoning = strings.TrimSpace(va.Reasoning)
		v.Evidence = r.evidence(va.Evidence)
		if v.Verdict != Unverifiable && len(v.Evidence) == 0 {
			r.trace.note(fmt.Sprintf("verdict %s had no evidence retrieved in this run; changed to unverifiable", v.Verdict))
			v.Reasoning = fmt.Sprintf("No source retrieved in this check backs a verdict, so it is unverifiable (the model had answered %s: %s)", v.Verdict, v.Reasoning)
			v.Verdict, v.Confidence = Unverifiable, Low
		}
	}
	// Provenance covers the prose too: a URL the model wrote into its
	// reasoning or a quote is shown only if the run retrieved it.
	v.Reasoning = r.scrubURLs(v.Reasoning)
	for i := range v.Evidence {
		v.Evidence[i].QuoteOrSummary = r.scrubURLs(v.Evidence[i].QuoteOrSummary)
	}
	v.Sources = r.sources(v.Evidence)
	return v
}

// evidence keeps the cited sources the run retrieved, once each, and
// checks their quotes against the text retrieved for them.
func (r *run) evidence(cited []evidenceArgs) []Evidence {
	var out []Evidence
	seen := map[string]bool{}
	for _, e := range cited {
		d, ok := r.lookup(e.SourceURL)
		if !ok {
			r.trace.note("removed evidence: no tool returned " + e.SourceURL + " in this run")
			continue
		}
		if seen[urlKey(d.url)+"\x00"+e.QuoteOrSummary] {
			continue
		}
		seen[urlKey(d.url)+"\x00"+e.QuoteOrSummary] = true
		ev := Evidence{
			SourceURL:      d.url,
			SourceTitle:    strings.TrimSpace(e.SourceTitle),
			Supports:       e.Supports,
			QuoteOrSummary: strings.TrimSpace(e.QuoteOrSummary),
			QuoteFound:     quoteFound(e.QuoteOrSummary, d.texts),
			Publisher:      d.publisher,
			Rating:         d.rating,
		}
		if d.title != "" {
			ev.SourceTitle = d.title
		}
		if !ev.QuoteFound {
			r.trace.note("quote not found in the text retrieved for " + d.url)
		}
		out = append(out, ev)
	}
	return out
}

// sources lists every URL retrieved, in order, marking the cited ones.
func (r *run) sources(evidence []Evidence) []Source {
	cited := map[string]bool{}
	for _, e := range evidence {
		cited[urlKey(e.SourceURL)] = true
	}
	var out []Source
	for _, k := range r.order {
		d := r.docs[k]
		out = append(out, Source{URL: d.url, Title: d.title, Via: d.via, FetchedAt: d.fetchedAt, SHA256: d.sha256, Cited: cited[k]})
	}
	return out
}

// scrubURLs replaces every URL in text that no tool returned in this run,
// and the user did not write, by "[link removed]", and notes it in the trace.
func (r *run) scrubURLs(text string) string {
	for _, u := range urlsIn(text) {
		if _, ok := r.lookup(u); ok {
			continue
		}
		if _, ok := r.allow[urlKey(u)]; ok {
			continue
		}
		text = strings.ReplaceAll(text, u, "[link removed]")
		r.trace.note("removed a URL no tool returned from the model's text: " + u)
	}
	return text
}

// quoteFound reports whether quote appears in any of texts after
// normalisation. Quotes shortened with an ellipsis match when every part does.
func quoteFound(quote string, texts []string) bool {
	parts := strings.FieldsFunc(quote, func(r rune) bool { return r == '…' })
	var ps []string
	for _, p := range parts {
		for _, q := range strings.Split(p, "...") {
			if n := normalizeForMatch(q); n != "" {
				ps = append(ps, n)
			}
		}
	}
	if len(ps) == 0 {
		return false
	}
	for _, t := range texts {
		nt := normalizeForMatch(t)
		all := true
		for _, p := range ps {
			if !strings.Contains(nt, p) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// normalizeForMatch folds case, Unicode form, punctuation and white space so
// that a quote can be compared with retrieved text.
func normalizeForMatch(s string) string {
	s = norm.NFKC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			b.WriteRune(unicode.ToLower(r))
			space = false
		default: // punctuation, symbols and white space all separate words
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return strings.TrimSpace(b.String())
}
