package factcheck

import (
	"errors"
	"fmt"

	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/factbot-dev/factbot/factcheck/evidence"
)

// Provenance: a verdict may rest only on what the run retrieved. The run
// keeps every URL a tool returned and every text it saw for it (docs);
// the model's verdict is then checked against them: evidence whose URL no
// tool returned is dropped, quotes are looked up in the retrieved texts
// (evidence.Locate, as cited IDs are), and links the model wrote into its
// prose are removed unless retrieved or written by the user
// (evidence.ScrubLinks).

// provenance is the stage that checks a verdict against the library: it
// reviews the model's evidence before the verdict is accepted, and turns
// the accepted verdict into a Verdict whose every citation and link is
// one the run retrieved.
type provenance struct {
	lib   *library
	trace *tracer
	opts  Options
}

// evidenceArgs is one piece of evidence as the model cites it: sentence
// IDs, a stance and its own summary. The older form, a URL and a quote
// string, is still read (a model may ignore the schema).
type evidenceArgs struct {
	Passage string `json:"passage,omitempty" jsonschema:"p2.14 or a run p2.14-16"`
	Stance  string `json:"stance,omitempty"`
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
	Verdict    string         `json:"verdict,omitempty"`
	Scores     *labelScores   `json:"scores,omitempty" jsonschema:"1 (no) to 5 (fully)"`
	Confidence string         `json:"confidence,omitempty"`
	Reasoning  string         `json:"reasoning" jsonschema:"1-3 sentences."`
	Evidence   []evidenceArgs `json:"evidence,omitempty"`
}

// submitVerdict is the verification loop's finishing tool; its schema asks
// for label scores, or for a label and a confidence.
func submitVerdict(scores bool) finisher[verdictArgs] {
	f := finish(ToolSubmitVerdict, "", (*verdictArgs).check)
	props := f.spec.Parameters["properties"].(map[string]any)
	// Evidence cites sentence IDs; the older fields are read but not
	// offered.
	item := props["evidence"].(map[string]any)["items"].(map[string]any)
	for _, k := range []string{"source_url", "source_title", "supports", "quote_or_summary"} {
		delete(item["properties"].(map[string]any), k)
	}
	enum(item["properties"].(map[string]any), "stance", string(StanceSupports), string(StanceRefutes), string(StanceContext))
	enum(props, "verdict", string(Supported), string(Contradicted), string(Contested), string(Unverifiable))
	enum(props, "confidence", string(High), string(Medium), string(Low))
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
func (p *provenance) review(va *verdictArgs) error {
	label, _ := p.label(va)
	if label == Unverifiable {
		return nil
	}
	var errs []string
	if len(va.Evidence) == 0 {
		errs = append(errs, fmt.Sprintf("a %s verdict needs evidence: cite the sentences retrieved in this check by ID, or answer unverifiable", label))
	}
	count := map[Stance]int{}
	for i, e := range va.Evidence {
		c, st := p.lib.cite(e), e.stance()
		if st == "" {
			errs = append(errs, fmt.Sprintf("evidence %d: give a stance: supports, refutes or context", i+1))
		}
		if c.Problem != "" {
			errs = append(errs, fmt.Sprintf("evidence %d: %s", i+1, c.Problem))
			continue
		}
		if c.Widened && st != StanceContext {
			cited := e.QuoteOrSummary
			if strings.TrimSpace(e.Passage) != "" {
				cited = c.Seen // the snippet's words, moved to the page's sentence(s)
			}
			if cue := evidence.CueAdded(c.Quote, cited); cue != "" {
				errs = append(errs, fmt.Sprintf("evidence %d: your words are part of %s, whose word %q may change their meaning; check that it %s the claim and cite it by ID", i+1, p.lib.context(c), cue, st))
			}
		}
		if c.StanceBearing() {
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
func (p *provenance) label(va *verdictArgs) (Label, Confidence) {
	given := Label(strings.ToLower(strings.TrimSpace(va.Verdict)))
	if va.Scores != nil && (!p.opts.NoScores || !given.Valid()) {
		l, margin := p.opts.Calibration.Apply(va.Scores.byLabel())
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

// verdict turns the model's verdict (nil when it gave none) into a Verdict
// whose evidence has been checked against what the run retrieved.
func (p *provenance) verdict(va *verdictArgs, stop string) *Verdict {
	v := &Verdict{Start: -1, End: -1}
	if va == nil {
		v.Verdict, v.Confidence = Unverifiable, Low
		v.Reasoning = "The check ended before the model gave a usable verdict"
		if stop != "" {
			v.Reasoning += " (" + stop + " budget reached)"
		}
		v.Reasoning += "."
	} else {
		v.Verdict, v.Confidence = p.label(va)
		if va.Scores != nil {
			v.Scores = va.Scores.byLabel()
			if given := Label(strings.ToLower(strings.TrimSpace(va.Verdict))); given.Valid() && given != v.Verdict {
				p.trace.note(fmt.Sprintf("the model named %s, its scores give %s", given, v.Verdict))
			}
		}
		v.Reasoning = strings.TrimSpace(va.Reasoning)
		v.Evidence = p.evidence(va.Evidence)
		if v.Verdict != Unverifiable && len(v.Evidence) == 0 {
			p.trace.note(fmt.Sprintf("verdict %s had no evidence retrieved in this run; changed to unverifiable", v.Verdict))
			v.Reasoning = fmt.Sprintf("No source retrieved in this check backs a verdict, so it is unverifiable (the model had answered %s: %s)", v.Verdict, v.Reasoning)
			v.Verdict, v.Confidence = Unverifiable, Low
		}
	}
	// Provenance covers the prose too: a link the model wrote into its
	// reasoning or a quote is shown only if the run retrieved it or the
	// user wrote it.
	v.Reasoning = p.scrub(v.Reasoning)
	for i := range v.Evidence {
		v.Evidence[i].QuoteOrSummary = p.scrub(v.Evidence[i].QuoteOrSummary)
		v.Evidence[i].Summary = p.scrub(v.Evidence[i].Summary)
	}
	v.Sources = p.lib.sources(v.Evidence)
	return v
}

// evidence keeps the cited sources the run retrieved, once per quote,
// each shown with the whole sentence(s) it cites.
func (p *provenance) evidence(cited []evidenceArgs) []Evidence {
	var out []Evidence
	seen := map[string]bool{}
	for _, e := range cited {
		c := p.lib.cite(e)
		if c.d == nil {
			p.trace.note("removed evidence: " + c.Problem)
			continue
		}
		ev := p.evidenceOf(e, c)
		if k := urlKey(c.d.url) + "\x00" + ev.QuoteOrSummary; seen[k] {
			continue
		} else {
			seen[k] = true
		}
		switch {
		case c.Match.Place == QuoteInTitle || c.Match.Place == QuoteInSummary:
			p.trace.note(fmt.Sprintf("quote seen only in the %s retrieved for %s: not the source's own sentence, no stance", c.Match, c.d.url))
		case !ev.QuoteFound:
			p.trace.note("quote not found in the text retrieved for " + c.d.url)
		case c.Seen != "":
			p.trace.note(fmt.Sprintf("quote cited from the search result's preview is on the page: cited as %s of %s (%s)", ev.Passage, c.d.url, c.Match))
		case c.Widened:
			p.trace.note(fmt.Sprintf("quote widened to the whole sentence(s) %s of %s", ev.Passage, c.d.url))
		}
		out = append(out, ev)
	}
	return out
}

// evidenceOf is the Evidence a located citation shows.
func (p *provenance) evidenceOf(e evidenceArgs, c citation) Evidence {
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
		QuoteFound:  c.StanceBearing(),
		QuoteMatch:  c.Match,
		Publisher:   c.d.publisher,
		Rating:      c.d.rating,
		Published:   c.d.published,
	}
	switch {
	case c.Quote != "":
		ev.QuoteOrSummary = c.Quote
	case strings.TrimSpace(e.QuoteOrSummary) != "":
		ev.QuoteOrSummary = strings.TrimSpace(e.QuoteOrSummary)
	default:
		ev.QuoteOrSummary = ev.Summary
	}
	ev.Passage = c.ids()
	if c.Match.Place == QuoteInPDF && c.Match.Page > 0 && !strings.Contains(ev.SourceURL, "#") {
		ev.SourceURL += fmt.Sprintf("#page=%d", c.Match.Page) // opens the PDF where the quote is
	}
	if ev.SourceTitle == "" {
		// The page had no title: the model's is shown, so it is
		// scrubbed like the rest of its prose.
		ev.SourceTitle = p.scrub(strings.TrimSpace(e.SourceTitle))
	}
	return ev
}

// scrub replaces every link in text that no tool returned in this run,
// and the user did not write, by "[link removed]", and notes each removal
// in the trace. Links are compared in canonical form, so neither case,
// "www." nor a missing scheme lets one through.
func (p *provenance) scrub(text string) string {
	out, removed := evidence.ScrubLinks(text, p.lib.linkAllowed)
	for _, l := range removed {
		p.trace.note("removed a link no tool returned from the model's text: " + l)
	}
	return out
}

// normalizeForMatch folds case, Unicode form, punctuation and white space,
// for comparing claims and picking page passages by keyword; quotes are
// matched by evidence.Locate (its own normalisation, quoteNormalize).
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

// settled reports whether a verdict leaves a critic nothing to weigh: it
// is supported or contradicted, and every piece of evidence is a whole
// sentence (or run) of its source's own text, cited with the stance the
// label needs, and reads plainly for it (evidence.Citation.PlainFor) about
// one of the queries (the questions and the claim).
func (p *provenance) settled(va *verdictArgs, about []evidence.Query) bool {
	want := map[Label]Stance{Supported: StanceSupports, Contradicted: StanceRefutes}
	label, _ := p.label(va)
	st, ok := want[label]
	if !ok || len(va.Evidence) == 0 {
		return false
	}
	for _, e := range va.Evidence {
		c := p.lib.cite(e)
		if c.Problem != "" || !c.StanceBearing() || c.Widened || e.stance() != st {
			return false
		}
		if !p.lib.plainFor(c, st, about) {
			return false
		}
	}
	return true
}
