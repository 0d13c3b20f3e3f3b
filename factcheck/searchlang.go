package factcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/RadhiFadlillah/whatlanggo"
	"golang.org/x/text/language"
)

// Searches in the claim's language and in English. The research of a
// claim written in another language than English makes at least one
// web_search in that language and at least one in English: sources about
// a local claim are often only in its language, and the widest coverage
// is in English. The prompts ask for both; the code makes sure of it:
//
//   - the plan is asked for a question in each language, and the queries
//     the code writes itself are those questions (the claim itself, for
//     the claim's language, when no question is in it);
//   - a web_search that would use the last search of the budget while a
//     language has had none is rewritten into that language;
//   - a verdict submitted while a language has had no search is sent back
//     once with the results of a search the code ran in it.
//
// A query's language is told by whatlanggo, choosing only between English
// and the claim's language (script first: a query in the claim's non-Latin
// script is in its language).

// searchLangs is what a run knows of the languages of its searches; nil
// for a claim in English or in an unknown language.
type searchLangs struct {
	tag    string // the claim's BCP 47 tag
	name   string // its English name, e.g. "Spanish"
	lang   whatlanggo.Lang
	script *unicode.RangeTable // the claim's script
	// searched[true] is set by a web_search in English, searched[false]
	// by one in the claim's language; guarded by run.mu.
	searched map[bool]bool
}

// newSearchLangs returns the languages a claim's searches must cover: nil
// when tag is English, unknown, or a language whatlanggo cannot tell.
func newSearchLangs(tag, claim string) *searchLangs {
	name, english, ok := languageName(tag)
	if !ok || english {
		return nil
	}
	base, _ := language.Make(tag).Base()
	l := whatlanggoLang(base.String())
	script := whatlanggo.DetectScript(claim)
	if l < 0 || script == nil {
		return nil
	}
	return &searchLangs{tag: tag, name: name, lang: l, script: script, searched: map[bool]bool{}}
}

// whatlanggoLang is whatlanggo's language of an ISO 639-1 code, -1 when
// it has none.
func whatlanggoLang(code string) whatlanggo.Lang {
	switch code { // whatlanggo's macrolanguage members
	case "zh":
		return whatlanggo.Cmn
	case "ar":
		return whatlanggo.Arb
	case "fa":
		return whatlanggo.Pes
	}
	for l := whatlanggo.Lang(0); l <= whatlanggo.Zul; l++ {
		if l.Iso6391() == code {
			return l
		}
	}
	return -1
}

// english reports whether q is in English rather than the claim's
// language.
func (s *searchLangs) english(q string) bool {
	if script := whatlanggo.DetectScript(q); s.script != unicode.Latin && script == s.script {
		return false
	}
	info := whatlanggo.DetectWithOptions(q, whatlanggo.Options{Whitelist: map[whatlanggo.Lang]bool{whatlanggo.Eng: true, s.lang: true}})
	return info.Lang == whatlanggo.Eng
}

// missing is the language (true: English) that has had no search yet;
// ok is false when both have. Call with run.mu held.
func (s *searchLangs) missing() (english, ok bool) {
	switch {
	case !s.searched[false]:
		return false, true
	case !s.searched[true]:
		return true, true
	}
	return false, false
}

func (s *searchLangs) nameOf(english bool) string {
	if english {
		return "English"
	}
	return s.name
}

// queryIn is a query in the language asked (true: English) that the code
// may search with: the first of the plan's questions in it, else, for the
// claim's language, the claim itself. "" when there is none.
func (r *researcher) queryIn(english bool) string {
	for _, q := range r.plan {
		if r.langs.english(q) == english {
			return q
		}
	}
	if !english {
		return truncate(r.claim, 300)
	}
	return ""
}

// languageQuery is the query a web_search runs: the model's, or, when it
// would be the last search of the budget while a language has had none
// and it is not in that language, a query in that language.
func (r *researcher) languageQuery(q string) string {
	if r.langs == nil || strings.TrimSpace(q) == "" {
		return q
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	english := r.langs.english(q)
	if r.langs.searched[english] {
		if want, ok := r.langs.missing(); ok && len(r.queries)+1 >= r.b.Searches {
			if alt := r.queryIn(want); alt != "" {
				r.trace.note(fmt.Sprintf("last search rewritten from %q to %q: no search in %s yet", q, alt, r.langs.nameOf(want)))
				q, english = alt, want
			}
		}
	}
	r.langs.searched[english] = true
	return q
}

// searchMissing runs, for each language that has had no web_search, one
// search in it while the search budget allows, and returns what the model
// is told of them ("" when nothing was run).
func (r *researcher) searchMissing(ctx context.Context, forced bool) string {
	if r.langs == nil {
		return ""
	}
	if forced {
		r.mu.Lock()
		want, ok := r.langs.missing()
		r.mu.Unlock()
		if ok {
			r.trace.note("no search in " + r.langs.nameOf(want) + ": a budget ended the research first")
		}
		return ""
	}
	var told []string
	for range 2 { // English and the claim's language at most
		r.mu.Lock()
		want, ok := r.langs.missing()
		left := r.b.Searches - len(r.queries)
		r.mu.Unlock()
		if !ok {
			break
		}
		s, ran := r.searchIn(ctx, want, left)
		if !ran {
			break
		}
		if s != "" {
			told = append(told, s)
		}
	}
	return strings.Join(told, "; ")
}

// searchIn runs one search in the language asked (true: English) with
// left searches left in the budget; ran is false when none could run.
func (r *researcher) searchIn(ctx context.Context, english bool, left int) (string, bool) {
	name := r.langs.nameOf(english)
	q := r.queryIn(english)
	switch {
	case left <= 0:
		r.trace.note("no search in " + name + ": the search budget is used up")
		return "", false
	case q == "":
		r.trace.note("no search in " + name + ": the plan has no question in it")
		return "", false
	}
	r.trace.note(fmt.Sprintf("no search in %s before the verdict: searching %q", name, q))
	r.mu.Lock()
	r.langs.searched[english] = true // even when q reads as the other language
	r.mu.Unlock()
	obs, err := r.webSearch(ctx, q)
	if err != nil {
		r.trace.note(fmt.Sprintf("search in %s failed: %v", name, err))
		return "", true
	}
	b, err := json.Marshal(obs)
	if err != nil {
		return "", true
	}
	why := "the claim's language"
	if english {
		why = "where coverage is widest"
	}
	return fmt.Sprintf("the research had not searched in %s (%s), so this search was run in it: web_search %q gave %s. Weigh these results too, citing them by ID if they bear on the claim", name, why, q, b), true
}

// reviewWithLanguages is the verdict's review (provenance.review) after
// the searches a language still lacked: a verdict submitted before them
// is sent back once with their results. forced says a budget has ended
// the research: a search the code added would come too late for the
// model to read.
func (r *researcher) reviewWithLanguages(ctx context.Context, va *verdictArgs, forced bool, prov *provenance) error {
	added := r.searchMissing(ctx, forced)
	err := prov.review(va)
	switch {
	case added == "":
		return err
	case err != nil:
		return fmt.Errorf("%w; %s", err, added)
	}
	return errors.New(added)
}
