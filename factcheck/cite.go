package factcheck

import (
	"fmt"
	"strings"

	"github.com/factbot-dev/factbot/factcheck/evidence"
)

// Citing: a piece of evidence names its source's sentences by ID, or,
// from a model that ignores the schema, by URL and quote string; both
// resolve in the source's passages through the evidence package
// (evidence.Cite and evidence.Locate), to the whole sentence(s) they name.
// Words cited from a search snippet or summary that the page read holds
// are cited from the page (evidence.InDocument): where a quote was found
// is decided here, once, and every report shows it (Evidence.QuoteMatch).

// citation is a piece of evidence located in what the run retrieved: its
// source, and where in the source's passages.
type citation struct {
	d *doc // nil when the evidence names no source the run retrieved
	evidence.Citation
}

// ids names the cited sentences: "p2.14" or "p2.14-p2.15"; "" when none.
func (c citation) ids() string { return c.IDs(c.d.n) }

// cite locates a piece of evidence in what the library holds.
func (lib *library) cite(e evidenceArgs) citation {
	if strings.TrimSpace(e.Passage) != "" {
		return lib.citeIDs(e.Passage)
	}
	d, ok := lib.lookup(e.SourceURL)
	if !ok {
		return citation{Citation: evidence.NoCitation(fmt.Sprintf("no tool returned %s in this check; cite passage IDs from your tools' results", e.SourceURL))}
	}
	lib.mu.Lock()
	defer lib.mu.Unlock()
	return citation{d, evidence.InDocument(&d.ps, evidence.Locate(&d.ps, d.titles, d.url, strings.TrimSpace(e.QuoteOrSummary)))}
}

// citeIDs resolves cited sentence IDs.
func (lib *library) citeIDs(ids string) citation {
	ref, err := evidence.ParseRef(ids)
	if err != nil {
		return citation{Citation: evidence.NoCitation(err.Error())}
	}
	lib.mu.Lock()
	defer lib.mu.Unlock()
	if ref.Source > len(lib.order) {
		return citation{Citation: evidence.NoCitation(fmt.Sprintf("no source p%d in this check", ref.Source))}
	}
	d := lib.docs[lib.order[ref.Source-1]]
	return citation{d, evidence.InDocument(&d.ps, evidence.Cite(&d.ps, ref, ids))}
}

// context returns the sentence before the citation, the cited sentences
// and the one after, each tagged with its ID, for the critic and the
// recheck.
func (lib *library) context(c citation) string {
	if c.d == nil {
		return ""
	}
	lib.mu.Lock()
	defer lib.mu.Unlock()
	return c.Context(&c.d.ps, c.d.n)
}

// plainFor reports whether the citation reads plainly for the stance
// (evidence.Citation.PlainFor).
func (lib *library) plainFor(c citation, st Stance, about []evidence.Query) bool {
	lib.mu.Lock()
	defer lib.mu.Unlock()
	return c.PlainFor(&c.d.ps, st == StanceRefutes, about)
}
