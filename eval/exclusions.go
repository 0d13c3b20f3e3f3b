package eval

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/search"
)

// ExclusionReport says how well a leak-free run's exclusion rules fit an
// AVeriTeC file: how many claims' own fact-checking article they keep out
// (the leak they exist to stop, goal ≥ 98%) and how many of the annotated
// evidence URLs they would keep out too (evidence lost, goal ≤ 5%). The
// rules are applied as a leak-free run applies them, each claim as of its
// claim_date: a page whose address dates it after that day is kept out
// too (search.Restriction.AddressAfter).
type ExclusionReport struct {
	Claims           int `json:"claims"`
	Dated            int `json:"dated"`    // claims checked as of their claim_date
	Articles         int `json:"articles"` // claims with a fact_checking_article
	ArticlesExcluded int `json:"articles_excluded"`
	Evidence         int `json:"evidence_urls"` // distinct gold evidence URLs
	// EvidenceExcluded counts the distinct URLs excluded as evidence of at
	// least one of the claims that cite them: a URL cited by two claims
	// may be dated after one's date and not the other's.
	EvidenceExcluded int `json:"evidence_excluded"`
	// WithoutDates counts the same with the rules applied without the
	// claims' dates (no address-date rule), to show what the dates add.
	WithoutDates ExclusionCounts `json:"without_dates"`
	// OwnURL counts the same once a run also excludes each claim's own
	// article by address (Runner.ExcludeArticle, as leak-free AVeriTeC
	// runs do). It is not the headline: that measures the generic rules,
	// which must also catch the other fact-checks of a claim.
	OwnURL ExclusionCounts `json:"own_url"`
	// Missed counts the hosts of articles the rules let through, and Lost
	// those of evidence URLs they exclude, most frequent first. The host
	// is the page's own: an archived or proxied copy
	// (web.archive.org/web/…/https://www.example.com/…) counts under the
	// host of the page it copies (example.com), with the mirror in Via.
	Missed []HostCount `json:"missed,omitempty"`
	Lost   []HostCount `json:"lost,omitempty"`
}

// ExclusionCounts are ExclusionReport's two counts under other rules.
type ExclusionCounts struct {
	ArticlesExcluded int `json:"articles_excluded"`
	EvidenceExcluded int `json:"evidence_excluded"`
}

// HostCount is a host and how many URLs had it; Via counts those of them
// that were copies on a mirror, by the mirror's host.
type HostCount struct {
	Host  string      `json:"host"`
	Count int         `json:"count"`
	Via   []HostCount `json:"via,omitempty"`
}

// Goals for ExclusionReport.
const (
	ExclusionArticleGoal  = 0.98
	ExclusionEvidenceGoal = 0.05
)

// Exclusions reads an AVeriTeC file and applies excluded to each claim's
// fact_checking_article and to every answer's source_url: with asOf, as of
// the claim's claim_date (the zero time for a claim without one, and for
// the WithoutDates counts); without, as a run with --no-as-of, always with
// the zero time.
func Exclusions(r io.Reader, excluded func(url string, asOf time.Time) bool, asOf bool) (*ExclusionReport, error) {
	var items []struct {
		Date      *string `json:"claim_date"`
		Article   *string `json:"fact_checking_article"`
		Questions []struct {
			Answers []struct {
				SourceURL *string `json:"source_url"`
			} `json:"answers"`
		} `json:"questions"`
	}
	if err := json.NewDecoder(r).Decode(&items); err != nil {
		return nil, fmt.Errorf("not an AVeriTeC file (a JSON array of {\"claim\", \"fact_checking_article\", \"questions\", …}): %w", err)
	}
	rep := &ExclusionReport{Claims: len(items)}
	missed, lost := hostTally{}, hostTally{}
	var evidence []string // distinct, in the file's order
	seen, lostAny, lostUndated, lostOwn := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, it := range items {
		var date time.Time
		if asOf {
			date = averitecDate(str(it.Date))
		}
		if !date.IsZero() {
			rep.Dated++
		}
		own := search.Restriction{}
		if a := str(it.Article); a != "" {
			own.ExcludeURLs = []string{a}
			rep.Articles++
			ex := excluded(a, date)
			if ex {
				rep.ArticlesExcluded++
			} else {
				missed.add(a)
			}
			if excluded(a, time.Time{}) {
				rep.WithoutDates.ArticlesExcluded++
			}
			if ex || own.Excluded(a) {
				rep.OwnURL.ArticlesExcluded++
			}
		}
		for _, q := range it.Questions {
			for _, an := range q.Answers {
				u := str(an.SourceURL)
				if u == "" {
					continue
				}
				if !seen[u] {
					seen[u] = true
					evidence = append(evidence, u)
				}
				ex := excluded(u, date)
				lostAny[u] = lostAny[u] || ex
				lostUndated[u] = lostUndated[u] || excluded(u, time.Time{})
				lostOwn[u] = lostOwn[u] || ex || own.Excluded(u)
			}
		}
	}
	rep.Evidence = len(evidence)
	for _, u := range evidence {
		if lostAny[u] {
			rep.EvidenceExcluded++
			lost.add(u)
		}
		if lostUndated[u] {
			rep.WithoutDates.EvidenceExcluded++
		}
		if lostOwn[u] {
			rep.OwnURL.EvidenceExcluded++
		}
	}
	rep.Missed, rep.Lost = missed.counts(), lost.counts()
	return rep, nil
}

// hostTally counts URLs by the host of the page they name, and by the
// mirror that copied it.
type hostTally map[string]map[string]int // host → via ("" when none) → count

func (t hostTally) add(raw string) {
	own := hostOf(raw)
	host := hostOf(search.Unwrap(raw))
	via := ""
	if host != own {
		via = own
	}
	if t[host] == nil {
		t[host] = map[string]int{}
	}
	t[host][via]++
}

func (t hostTally) counts() []HostCount {
	out := make([]HostCount, 0, len(t))
	for h, vias := range t {
		hc := HostCount{Host: h}
		var via []HostCount
		for v, n := range vias {
			hc.Count += n
			if v != "" {
				via = append(via, HostCount{Host: v, Count: n})
			}
		}
		hc.Via = sortCounts(via)
		out = append(out, hc)
	}
	return sortCounts(out)
}

// hostOf is the host of a URL in its canonical form (lowercase, no
// "www."), the URL itself when it has none.
func hostOf(raw string) string {
	u, err := url.Parse(search.Canonical(raw))
	if err != nil || u.Host == "" {
		return strings.TrimSpace(raw)
	}
	return u.Hostname()
}

func sortCounts(hs []HostCount) []HostCount {
	slices.SortFunc(hs, func(a, b HostCount) int {
		return cmp.Or(b.Count-a.Count, strings.Compare(a.Host, b.Host))
	})
	return hs
}

// Met reports whether both goals are met.
func (r *ExclusionReport) Met() bool {
	return ratio(r.ArticlesExcluded, r.Articles) >= ExclusionArticleGoal && ratio(r.EvidenceExcluded, r.Evidence) <= ExclusionEvidenceGoal
}

// WriteExclusions prints the report: the two shares against their goals,
// then the hosts behind the misses and the losses (at most ten each), an
// archived copy under the host of the page it copies, with the mirror
// named after it: "3  example.com (2 via web.archive.org)".
func WriteExclusions(w io.Writer, r *ExclusionReport) error {
	mark := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	a, e := ratio(r.ArticlesExcluded, r.Articles), ratio(r.EvidenceExcluded, r.Evidence)
	if r.Dated > 0 {
		fmt.Fprintf(w, "claims: %d (%d with a claim_date, checked as of it: an address dated later is excluded too)\n", r.Claims, r.Dated)
	} else {
		fmt.Fprintf(w, "claims: %d\n", r.Claims)
	}
	fmt.Fprintf(w, "own fact-checking article excluded: %d of %d (%.1f%%; goal ≥ %.0f%%: %s)\n", r.ArticlesExcluded, r.Articles, 100*a, 100*ExclusionArticleGoal, mark(a >= ExclusionArticleGoal))
	fmt.Fprintf(w, "gold evidence URLs excluded: %d of %d (%.1f%%; goal ≤ %.0f%%: %s)\n", r.EvidenceExcluded, r.Evidence, 100*e, 100*ExclusionEvidenceGoal, mark(e <= ExclusionEvidenceGoal))
	if r.Dated > 0 {
		fmt.Fprintf(w, "without the claims' dates (no address-date rule): articles %d of %d (%.1f%%), gold evidence %d of %d (%.1f%%)\n",
			r.WithoutDates.ArticlesExcluded, r.Articles, 100*ratio(r.WithoutDates.ArticlesExcluded, r.Articles), r.WithoutDates.EvidenceExcluded, r.Evidence, 100*ratio(r.WithoutDates.EvidenceExcluded, r.Evidence))
	}
	fmt.Fprintf(w, "with each claim's own article also excluded by address (leak-free AVeriTeC runs): articles %d of %d (%.1f%%), gold evidence %d of %d (%.1f%%)\n",
		r.OwnURL.ArticlesExcluded, r.Articles, 100*ratio(r.OwnURL.ArticlesExcluded, r.Articles), r.OwnURL.EvidenceExcluded, r.Evidence, 100*ratio(r.OwnURL.EvidenceExcluded, r.Evidence))
	list := func(title string, hs []HostCount) {
		if len(hs) == 0 {
			return
		}
		fmt.Fprintln(w, title)
		for _, h := range hs[:min(len(hs), 10)] {
			fmt.Fprintf(w, "  %4d  %s%s\n", h.Count, h.Host, viaNote(h.Via))
		}
	}
	list("articles let through, by the page's own host:", r.Missed)
	list("evidence excluded, by the page's own host:", r.Lost)
	return nil
}

// viaNote is " (2 via web.archive.org, 1 via archive.ph)", "" with no
// mirror.
func viaNote(via []HostCount) string {
	if len(via) == 0 {
		return ""
	}
	parts := make([]string, len(via))
	for i, v := range via {
		parts[i] = fmt.Sprintf("%d via %s", v.Count, v.Host)
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
