package evidence

import (
	"strings"
	"sync"
	"unicode"

	"github.com/RadhiFadlillah/whatlanggo"
)

// Meaning cues: the words that may turn what a sentence says — a
// negation or a denial (a refutation's own words), a hedge, or an
// attribution ("X said", "according to") — in each language of the
// project's catalogs. The language of a text is detected (whatlanggo);
// words are matched as the Ranker's Unicode tokens (words in spaced
// scripts, character bigrams in Han and kana), so a cue of several words
// or characters matches as a run of tokens. They decide whether a quote
// cut out of a sentence goes back to the model (review), and whether a
// verdict reads plainly enough to skip the critic (plainFor).

// cueKind says what a cue does to a sentence.
type cueKind int

const (
	cueNegation cueKind = iota + 1 // not, never, denies, false, a rumour
	cueHedge                       // may, reportedly, if; said, according to
)

// cueLists are each language's cues: negations and denials, then hedges
// and attributions, space-separated (a cue of several words joined by
// "_"). Words too ambiguous to flag anything (Portuguese "se", Arabic
// "ما") are left out; Han and kana cues are two characters or more.
var cueLists = sync.OnceValue(func() map[string][2]string {
	return map[string][2]string{
		"en": {`not no never neither nor none nobody nothing without deny denies denied denying false falsely untrue
			rumor rumors rumour rumours hoax myth debunked misleading fake isnt arent wasnt werent doesnt dont didnt
			cannot cant wont hasnt havent hadnt`,
			`claim claims claimed alleged allegedly reportedly purportedly supposedly may might could possibly perhaps
			unconfirmed unverified said says according if unless whether`},
		"es": {`no nunca jamás ni ninguno ninguna nadie nada sin niega niegan negó negaron desmiente desmienten desmintió
			desmentido falso falsa falsos bulo bulos rumor rumores mito`,
			`supuestamente presuntamente presunto presunta aparentemente posiblemente quizás quizá tal_vez podría podrían
			dijo dice dicen afirmó afirma aseguró según si no_confirmado`},
		"pt": {`não nunca jamais nem nenhum nenhuma ninguém nada sem nega negou negam negaram desmente desmentiu
			desmentido falso falsa boato boatos rumor rumores mito`,
			`supostamente alegadamente aparentemente possivelmente talvez poderia poderiam disse diz dizem afirmou afirma
			segundo de_acordo caso`},
		"fr": {`pas jamais aucun aucune rien sans ni nie nié nient dément démenti démentent démentie faux fausse rumeur
			rumeurs infox mythe`,
			`selon aurait auraient serait seraient pourrait pourraient peut_être probablement possiblement prétendu
			prétendue présumé présumée supposé apparemment affirme affirmé déclaré dit si`},
		"de": {`nicht kein keine keinen keinem keiner nie niemals weder ohne bestreitet bestritt bestritten dementiert
			dementierte leugnet leugnete falsch gerücht gerüchte mythos`,
			`angeblich vermutlich möglicherweise vielleicht soll sollen laut zufolge sagte sagt sagten erklärte behauptet
			behauptete wenn falls ob könnte könnten unbestätigt`},
		"zh": {`不是 并非 並非 没有 沒有 并未 並未 未曾 从未 從未 否认 否認 否定 辟谣 闢謠 谣言 謠言 虚假 虛假 不实 不實
			不会 不會 不能 无法 無法 假新闻 假新聞`,
			`据说 據說 据称 據稱 据报 據報 传闻 傳聞 可能 或许 或許 也许 也許 疑似 涉嫌 声称 聲稱 表示 指出 如果 假如 是否`},
		"ja": {`ない ません なかった 否定 否認 デマ 誤り 虚偽 事実無根 うそ`,
			`によると によれば とされる とみられる 可能性 かもしれ 疑い 述べた 語った 話した 言った 主張 報じ らしい もし`},
		"ar": {`لا لم لن ليس ليست غير نفى نفت ينفي تنفي نفي تكذيب كذب كاذب كاذبة شائعة شائعات اشاعة اشاعات زائف زائفة
			مفبرك مفبركة ابدا`,
			`قال قالت يقول تقول وفقا وفق حسب بحسب ربما قد يزعم زعم مزعوم مزاعم يقال اذا لو محتمل يحتمل افاد افادت ذكرت
			صرح`},
		"hi": {`नहीं न कभी_नहीं नकारा इनकार इंकार खंडन झूठ झूठा झूठी अफवाह अफ़वाह फर्जी फ़र्ज़ी भ्रामक गलत ग़लत`,
			`कहा कहते कहना अनुसार शायद संभवतः संभव कथित दावा दावे सकता सकती सकते अगर यदि बताया`},
	}
})

// cueEntry is one cue as matched: its tokens, its kind and how it is
// written in the list.
type cueEntry struct {
	tokens []string
	kind   cueKind
	word   string
}

// cues are the cues by language, and every language's, built on first
// use (not when any command starts).
var cues = sync.OnceValues(buildCues)

func buildCues() (map[string][]cueEntry, []cueEntry) {
	sets := map[string][]cueEntry{}
	var all []cueEntry
	for lang, lists := range cueLists() {
		for k, list := range lists {
			for _, w := range strings.Fields(list) {
				w = strings.ReplaceAll(w, "_", " ")
				e := cueEntry{tokens: cueTokens(w), kind: cueKind(k + 1), word: w}
				sets[lang] = append(sets[lang], e)
				all = append(all, e)
			}
		}
	}
	return sets, all
}

// cueTokens are the tokens of s for cue matching: the Ranker's tokens,
// every word kept, with Arabic vowel marks left out, its alef forms as one
// and its conjunctions و and ف and article ال taken off a word's front.
func cueTokens(s string) []string {
	toks := textTokens(s, false)
	for i, t := range toks {
		toks[i] = foldArabic(t)
	}
	return toks
}

// foldArabic folds an Arabic word for matching; other words are returned
// as they are.
func foldArabic(t string) string {
	if !strings.ContainsFunc(t, func(r rune) bool { return unicode.Is(unicode.Arabic, r) }) {
		return t
	}
	t = strings.Map(func(r rune) rune {
		switch {
		case r >= 0x064B && r <= 0x065F || r == 0x0670: // harakat, shadda, sukun
			return -1
		case r == 'أ' || r == 'إ' || r == 'آ':
			return 'ا'
		}
		return r
	}, t)
	for _, p := range []string{"وال", "فال", "ال", "و", "ف"} {
		if rest, ok := strings.CutPrefix(t, p); ok && len([]rune(rest)) >= 2 {
			return rest
		}
	}
	return t
}

// cueLang is the language whose cues apply to text: its detected language
// when it has a cue list ("" otherwise), and whether the detection is
// reliable. Kana make a text Japanese, whatever its share of Han.
func cueLang(text string) (lang string, sure bool) {
	info := whatlanggo.Detect(text)
	lang = info.Lang.Iso6391()
	if lang == "zh" && strings.ContainsFunc(text, func(r rune) bool { return unicode.In(r, unicode.Hiragana, unicode.Katakana) }) {
		lang = "ja"
	}
	if _, ok := cueLists()[lang]; !ok {
		return "", false
	}
	return lang, info.IsReliable()
}

// cuesFor returns the cues to look for in a text of lang: that language's
// when the detection is sure, every language's otherwise.
func cuesFor(lang string, sure bool) []cueEntry {
	sets, all := cues()
	if sure {
		return sets[lang]
	}
	return all
}

// cuesIn returns the cues found in text, each as often as it occurs, in
// the order of the text.
func cuesIn(text string, cues []cueEntry) []cueEntry {
	toks := cueTokens(text)
	var out []cueEntry
	for i := range toks {
		for _, c := range cues {
			if hasTokensAt(toks, i, c.tokens) {
				out = append(out, c)
			}
		}
	}
	return out
}

func hasTokensAt(toks []string, i int, want []string) bool {
	if len(want) == 0 || i+len(want) > len(toks) {
		return false
	}
	for j, w := range want {
		if toks[i+j] != w {
			return false
		}
	}
	return true
}

// CueAdded returns the first cue of the sentences that the quote cut out
// of them does not hold itself, "" when none: the words around a quote
// that may change what it says.
func CueAdded(sentences, quote string) string {
	lang, sure := cueLang(sentences)
	cues := cuesFor(lang, sure)
	inQuote := map[string]int{}
	for _, c := range cuesIn(quote, cues) {
		inQuote[c.word]++
	}
	for _, c := range cuesIn(sentences, cues) {
		if inQuote[c.word] > 0 {
			inQuote[c.word]--
			continue
		}
		return c.word
	}
	return ""
}
