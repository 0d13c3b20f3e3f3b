package factcheck

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Provenance: a verdict may rest only on what the run retrieved. The run
// keeps every URL a tool returned and every text it saw for it (docs);
// the model's verdict is then checked against them: evidence whose URL no
// tool returned is dropped, quotes are looked up in the retrieved texts
// (matchQuote), and links the model wrote into its prose are removed
// unless retrieved or written by the user (scrubLinks).

// evidenceArgs is one piece of evidence as the model cites it: sentence
// IDs, a stance and its own summary. The older form, a URL and a quote
// string, is still read (a model may ignore the schema).
type evidenceArgs struct {
	Passage string `json:"passage,omitempty" jsonschema:"description=p2.14 or a run p2.14-16"`
	Stance  string `json:"stance,omitempty" jsonschema:"enum=supports,enum=refutes,enum=context"`
	Summary string `json:"summary,omitempty"`

	SourceURL      string `json:"source_url,omitempty"`
	SourceTitle    string `json:"source_title,omitempty"`
	Supports       *bool  `json:"supports,omitempty"`
	QuoteOrSummary string `json:"quote_or_summary,omitempty"`
}

// stance is the cited stance, from stance or else supports; "" when the
// model gave neither.
func (e evidenceArgs) stance() Stance {
	if st := parseStance(e.Stance); st != "" {
		return st
	}
	switch {
	case e.Supports == nil:
		return ""
	case *e.Supports:
		return StanceSupports
	}
	return StanceRefutes
}

// labelScores say how well each label fits the evidence, 1 to 5.
type labelScores struct {
	Supported    float64 `json:"supported"`
	Contradicted float64 `json:"contradicted"`
	Contested    float64 `json:"contested"`
	Unverifiable float64 `json:"unverifiable"`
}

func (s *labelScores) byLabel() map[Label]float64 {
	return map[Label]float64{Supported: s.Supported, Contradicted: s.Contradicted, Contested: s.Contested, Unverifiable: s.Unverifiable}
}

// verdictArgs are submit_verdict's arguments. With label scores (the
// default) the model is asked for neither a label nor a confidence: the
// label is the highest score after calibration, the confidence comes from
// its margin. A label or confidence it gives anyway is read as usual.
type verdictArgs struct {
	Verdict    string         `json:"verdict,omitempty" jsonschema:"enum=supported,enum=contradicted,enum=contested,enum=unverifiable"`
	Scores     *labelScores   `json:"scores,omitempty" jsonschema:"description=1 (no) to 5 (fully)"`
	Confidence string         `json:"confidence,omitempty" jsonschema:"enum=high,enum=medium,enum=low"`
	Reasoning  string         `json:"reasoning" jsonschema:"description=1-3 sentences."`
	Evidence   []evidenceArgs `json:"evidence,omitempty"`
}

// submitVerdict is the verification loop's finishing tool; its schema asks
// for label scores, or for a label and a confidence.
func submitVerdict(scores bool) finisher[verdictArgs] {
	f := finish(ToolSubmitVerdict, "End the check.", (*verdictArgs).check)
	props := f.spec.Parameters["properties"].(map[string]any)
	// Evidence cites sentence IDs; the older fields are read but not
	// offered.
	item := props["evidence"].(map[string]any)["items"].(map[string]any)
	for _, k := range []string{"source_url", "source_title", "supports", "quote_or_summary"} {
		delete(item["properties"].(map[string]any), k)
	}
	item["required"] = []any{"passage", "stance"}
	if scores {
		delete(props["scores"].(map[string]any), "required") // check reports a missing score
		delete(props, "verdict")
		delete(props, "confidence")
		f.spec.Parameters["required"] = []any{"scores", "reasoning"}
	} else {
		delete(props, "scores")
		f.spec.Parameters["required"] = []any{"verdict", "confidence", "reasoning"}
	}
	return f
}

// check validates the verdict arguments, reporting every problem at once:
// scores, or a label and a confidence, and the reasoning.
func (v *verdictArgs) check() error {
	var errs []string
	if v.Scores != nil {
		for _, l := range Labels {
			if s := v.Scores.byLabel()[l]; s < 1 || s > 5 {
				errs = append(errs, fmt.Sprintf("score of %s is %g, not from 1 to 5", l, s))
			}
		}
		if l := strings.TrimSpace(v.Verdict); l != "" && !Label(strings.ToLower(l)).Valid() {
			errs = append(errs, fmt.Sprintf("verdict %q is not one of supported, contradicted, contested, unverifiable", v.Verdict))
		}
	} else {
		if !Label(strings.ToLower(strings.TrimSpace(v.Verdict))).Valid() {
			errs = append(errs, fmt.Sprintf("verdict %q is not one of supported, contradicted, contested, unverifiable", v.Verdict))
		}
		if !Confidence(strings.ToLower(strings.TrimSpace(v.Confidence))).Valid() {
			errs = append(errs, fmt.Sprintf("confidence %q is not one of high, medium, low", v.Confidence))
		}
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
// fix once before any label changes: citations that resolve to nothing
// the run retrieved, words found only in a title or a search summary,
// words cut out of a sentence whose other words (a "not", a denial, a
// hedge, an attribution) may change them, and stances that contradict the
// label (supported resting only on refuting sources, contradicted only on
// supporting ones). An unverifiable verdict needs no evidence and is not
// reviewed.
func (r *run) review(va *verdictArgs) error {
	label, _ := r.label(va)
	if label == Unverifiable {
		return nil
	}
	var errs []string
	if len(va.Evidence) == 0 {
		errs = append(errs, fmt.Sprintf("a %s verdict needs evidence: cite the sentences retrieved in this check by ID, or answer unverifiable", label))
	}
	count := map[Stance]int{}
	for i, e := range va.Evidence {
		c, st := r.cite(e), e.stance()
		if st == "" {
			errs = append(errs, fmt.Sprintf("evidence %d: give a stance: supports, refutes or context", i+1))
		}
		if c.problem != "" {
			errs = append(errs, fmt.Sprintf("evidence %d: %s", i+1, c.problem))
			continue
		}
		if c.widened && st != StanceContext {
			if cue := cueAdded(c.quote, e.QuoteOrSummary); cue != "" {
				errs = append(errs, fmt.Sprintf("evidence %d: your words are part of %s, whose word %q may change their meaning; check that it %s the claim and cite it by ID", i+1, r.context(c), cue, st))
			}
		}
		if c.stanceBearing() {
			count[st]++
		}
	}
	switch {
	case label == Supported && count[StanceRefutes] > 0 && count[StanceSupports] == 0:
		errs = append(errs, "the verdict is supported but every source refutes the claim")
	case label == Contradicted && count[StanceSupports] > 0 && count[StanceRefutes] == 0:
		errs = append(errs, "the verdict is contradicted but every source supports the claim")
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// label returns the verdict's label and confidence. With scores (unless
// Options.NoScores, and the model gave a label) the label is the highest
// score after calibration and the confidence comes from its margin: 2 or
// more high, 1 medium, less low. Otherwise they are as the model gave them.
func (r *run) label(va *verdictArgs) (Label, Confidence) {
	given := Label(strings.ToLower(strings.TrimSpace(va.Verdict)))
	if va.Scores != nil && (!r.c.Options.NoScores || !given.Valid()) {
		l, margin := r.c.Options.Calibration.Apply(va.Scores.byLabel())
		if l == "" { // no usable score
			return Unverifiable, Low
		}
		return l, marginConfidence(margin)
	}
	c := Confidence(strings.ToLower(strings.TrimSpace(va.Confidence)))
	if !c.Valid() {
		c = Low
	}
	return given, c
}

// marginConfidence is the confidence a score margin shows.
func marginConfidence(margin float64) Confidence {
	switch {
	case margin >= 2:
		return High
	case margin >= 1:
		return Medium
	}
	return Low
}

// doc is a URL retrieved in a run, with every text the run saw for it.
type doc struct {
	url       string
	n         int // the source's number in passage IDs, from 1
	title     string
	titles    []string // every title seen for url
	via       string
	ps        passages // the sentences seen for url, with their places
	fetchedAt time.Time
	sha256    string
	publisher string
	rating    string
	published string // when the source says it was published, if known
}

// seenText is one text a tool returned for a URL: a page, a PDF page, a
// search snippet, or a search summary a model wrote.
type seenText struct {
	place QuotePlace
	page  int
	text  string
}

// remember records a retrieved URL and the texts seen for it, split into
// sentences; it returns the doc and, per text, the range of its sentences
// (nil for a URL no key can be made of).
func (r *run) remember(u, title, via string, texts []seenText, mod func(*doc)) (*doc, [][2]int) {
	k := urlKey(u)
	if k == "" {
		return nil, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.docs[k]
	if !ok {
		d = &doc{url: u, title: title, via: via, fetchedAt: r.c.now()}
		r.docs[k] = d
		r.order = append(r.order, k)
		d.n = len(r.order)
	}
	if d.title == "" {
		d.title = title
	}
	if t := strings.TrimSpace(title); t != "" && !slices.Contains(d.titles, t) {
		d.titles = append(d.titles, t)
	}
	var ranges [][2]int
	for _, t := range texts {
		first, end := d.ps.add(t.place, t.page, t.text)
		ranges = append(ranges, [2]int{first, end})
	}
	if mod != nil {
		mod(d)
	}
	return d, ranges
}

func (r *run) lookup(u string) (*doc, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if d, ok := r.docs[urlKey(u)]; ok {
		return d, true
	}
	// A source may be named by its number in passage IDs: "p2".
	if n, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(u)), "p")); err == nil && n >= 1 && n <= len(r.order) {
		return r.docs[r.order[n-1]], true
	}
	return nil, false
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
		v.Verdict, v.Confidence = r.label(va)
		if va.Scores != nil {
			v.Scores = va.Scores.byLabel()
			if given := Label(strings.ToLower(strings.TrimSpace(va.Verdict))); given.Valid() && given != v.Verdict {
				r.trace.note(fmt.Sprintf("the model named %s, its scores give %s", given, v.Verdict))
			}
		}
		v.Reasoning = strings.TrimSpace(va.Reasoning)
		v.Evidence = r.evidence(va.Evidence)
		if v.Verdict != Unverifiable && len(v.Evidence) == 0 {
			r.trace.note(fmt.Sprintf("verdict %s had no evidence retrieved in this run; changed to unverifiable", v.Verdict))
			v.Reasoning = fmt.Sprintf("No source retrieved in this check backs a verdict, so it is unverifiable (the model had answered %s: %s)", v.Verdict, v.Reasoning)
			v.Verdict, v.Confidence = Unverifiable, Low
		}
	}
	// Provenance covers the prose too: a link the model wrote into its
	// reasoning or a quote is shown only if the run retrieved it or the
	// user wrote it.
	v.Reasoning = r.scrub(v.Reasoning)
	for i := range v.Evidence {
		v.Evidence[i].QuoteOrSummary = r.scrub(v.Evidence[i].QuoteOrSummary)
		v.Evidence[i].Summary = r.scrub(v.Evidence[i].Summary)
	}
	v.Sources = r.sources(v.Evidence)
	return v
}

// evidence keeps the cited sources the run retrieved, once per quote,
// each shown with the whole sentence(s) it cites.
func (r *run) evidence(cited []evidenceArgs) []Evidence {
	var out []Evidence
	seen := map[string]bool{}
	for _, e := range cited {
		c := r.cite(e)
		if c.d == nil {
			r.trace.note("removed evidence: " + c.problem)
			continue
		}
		ev := r.evidenceOf(e, c)
		if k := urlKey(c.d.url) + "\x00" + ev.QuoteOrSummary; seen[k] {
			continue
		} else {
			seen[k] = true
		}
		switch {
		case c.match.Place == QuoteInTitle || c.match.Place == QuoteInSummary:
			r.trace.note(fmt.Sprintf("quote seen only in the %s retrieved for %s: not the source's own sentence, no stance", c.match, c.d.url))
		case !ev.QuoteFound:
			r.trace.note("quote not found in the text retrieved for " + c.d.url)
		case c.widened:
			r.trace.note(fmt.Sprintf("quote widened to the whole sentence(s) %s of %s", ev.Passage, c.d.url))
		}
		out = append(out, ev)
	}
	return out
}

// evidenceOf is the Evidence a located citation shows.
func (r *run) evidenceOf(e evidenceArgs, c citation) Evidence {
	st := e.stance()
	if st == "" {
		st = StanceRefutes // as a record without supports=true always read
	}
	ev := Evidence{
		SourceURL:   c.d.url,
		SourceTitle: c.d.title,
		Supports:    st == StanceSupports,
		Stance:      st,
		Summary:     strings.TrimSpace(e.Summary),
		QuoteFound:  c.stanceBearing(),
		QuoteMatch:  c.match,
		Publisher:   c.d.publisher,
		Rating:      c.d.rating,
		Published:   c.d.published,
	}
	switch {
	case c.quote != "":
		ev.QuoteOrSummary = c.quote
	case strings.TrimSpace(e.QuoteOrSummary) != "":
		ev.QuoteOrSummary = strings.TrimSpace(e.QuoteOrSummary)
	default:
		ev.QuoteOrSummary = ev.Summary
	}
	ev.Passage = c.ids()
	if c.match.Place == QuoteInPDF && c.match.Page > 0 && !strings.Contains(ev.SourceURL, "#") {
		ev.SourceURL += fmt.Sprintf("#page=%d", c.match.Page) // opens the PDF where the quote is
	}
	if ev.SourceTitle == "" {
		// The page had no title: the model's is shown, so it is
		// scrubbed like the rest of its prose.
		ev.SourceTitle = r.scrub(strings.TrimSpace(e.SourceTitle))
	}
	return ev
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

// scrub replaces every link in text that no tool returned in this run,
// and the user did not write, by "[link removed]", and notes each removal
// in the trace. Links are compared in canonical form, so neither case,
// "www." nor a missing scheme lets one through.
func (r *run) scrub(text string) string {
	out, removed := scrubLinks(text, r.linkAllowed)
	for _, l := range removed {
		r.trace.note("removed a link no tool returned from the model's text: " + l)
	}
	return out
}

// linkAllowed reports whether the canonical URL k was retrieved in this run
// or written by the user.
func (r *run) linkAllowed(k string) bool {
	if _, ok := r.allow[k]; ok || r.userLinks[k] {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.docs[k]
	return ok
}

// normalizeForMatch folds case, Unicode form, punctuation and white space,
// for comparing claims and picking page passages by keyword; quotes are
// matched by matchQuote.
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
