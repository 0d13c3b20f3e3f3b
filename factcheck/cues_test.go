package factcheck_test

import (
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/search"
)

// cueCase is a page sentence in one language whose words around a quote
// turn it (a denial, a hedge, an attribution), cited as support.
type cueCase struct {
	name, claim, page, quote, cue string
}

func cueCases() []cueCase {
	return []cueCase{
		{"Spanish denial", "La escuela cerró en 2019", "El ministerio niega que la escuela cerrara en 2019. Las clases siguieron ese año.", "la escuela cerrara en 2019", "niega"},
		{"Spanish hedge", "La escuela cerró en 2019", "Posiblemente, la escuela cerró en 2019. Nadie lo ha confirmado.", "la escuela cerró en 2019", "posiblemente"},
		{"Spanish attribution", "La escuela cerró en 2019", "Según el alcalde, la escuela cerró en 2019. El ministerio no ha comentado.", "la escuela cerró en 2019", "según"},
		{"Chinese denial", "该校于2019年关闭", "教育部否认该校于2019年关闭。当年课程照常进行。", "该校于2019年关闭", "否认"},
		{"Chinese hedge", "该校于2019年关闭", "该校于2019年关闭的说法可能属实。此事尚未得到证实。", "该校于2019年关闭", "可能"},
		{"Chinese attribution", "该校于2019年关闭", "据报道，该校于2019年关闭。教育部未予置评。", "该校于2019年关闭", "据报"},
		{"Arabic denial", "أغلقت المدرسة في عام 2019", "نفت وزارة التعليم أن المدرسة أغلقت في عام 2019. واستمرت الدروس كالمعتاد.", "المدرسة أغلقت في عام 2019", "نفت"},
		{"Arabic hedge", "أغلقت المدرسة في عام 2019", "ربما أغلقت المدرسة في عام 2019. ولم يؤكد أحد ذلك.", "أغلقت المدرسة في عام 2019", "ربما"},
		{"Arabic attribution", "أغلقت المدرسة في عام 2019", "قال مسؤول إن المدرسة أغلقت في عام 2019. ولم تعلق الوزارة.", "المدرسة أغلقت في عام 2019", "قال"},
		{"Hindi denial", "स्कूल 2019 में बंद हो गया था", "मंत्रालय ने उन खबरों का खंडन किया कि स्कूल 2019 में बंद हो गया था। उस साल कक्षाएं चलती रहीं।", "स्कूल 2019 में बंद हो गया था", "खंडन"},
		{"Hindi hedge", "स्कूल 2019 में बंद हो गया था", "स्कूल शायद 2019 में बंद हो गया था। किसी ने इसकी पुष्टि नहीं की।", "2019 में बंद हो गया था", "शायद"},
		{"Hindi attribution", "स्कूल 2019 में बंद हो गया था", "अधिकारियों के अनुसार स्कूल 2019 में बंद हो गया था। मंत्रालय ने कोई टिप्पणी नहीं की।", "स्कूल 2019 में बंद हो गया था", "अनुसार"},
		{"Japanese denial", "学校は2019年に閉鎖された", "文部科学省は学校が2019年に閉鎖されたという報道を否定した。授業は例年通り続いた。", "学校が2019年に閉鎖された", "否定"},
		{"Japanese hedge", "学校は2019年に閉鎖された", "学校は2019年に閉鎖された可能性がある。確認は取れていない。", "学校は2019年に閉鎖された", "可能性"},
		{"Japanese attribution", "学校は2019年に閉鎖された", "市長によると、学校は2019年に閉鎖された。文部科学省はコメントしていない。", "学校は2019年に閉鎖された", "によると"},
	}
}

// A quote cut out of a sentence that denies, hedges or attributes it, in
// Spanish, Chinese, Arabic, Hindi or Japanese, cited as support through the
// real loop and Gemini's wire format, goes back to the model once naming
// the word that may turn it, and the trace records the send-back; cited
// by ID, the same sentence is not taken as plain, so the critic sees it
// with its neighbours.
func TestMeaningCuesInEveryLanguage(t *testing.T) {
	for _, cc := range cueCases() {
		snippet := search.Result{Title: "News", URL: foolURL, Snippet: "News of the day."}
		byString := foolCase{name: cc.name, claim: cc.claim, result: snippet, page: cc.page, label: "supported",
			cite: map[string]any{"source_url": foolURL, "quote_or_summary": cc.quote, "stance": "supports"}}
		byID := byString
		byID.cite = map[string]any{"passage": "p1.2", "stance": "supports", "summary": "The source says so."}
		t.Run(cc.name+", by string", func(t *testing.T) {
			v, srv, _ := runFool(t, byString)
			want := `whose word "` + cc.cue + `" may change their meaning`
			if sent := sentBack(srv); !strings.Contains(sent, want) {
				t.Errorf("sent back %q, want it to say %q", sent, want)
			}
			if n := notes(v); !strings.Contains(n, "submit_verdict sent back once: evidence 1: your words are part of [p1.2]") || !strings.Contains(n, want) {
				t.Errorf("trace notes %q do not record the send-back", n)
			}
		})
		t.Run(cc.name+", by ID", func(t *testing.T) {
			v, srv, critic := runFool(t, byID)
			if sent := sentBack(srv); sent != "" {
				t.Errorf("sent back %q, want the critic to judge a cited sentence", sent)
			}
			first := string([]rune(cc.page)[:8])
			if !strings.Contains(critic, "1. supports: p1.2 in "+foolURL+": [p1.2] "+first) || !strings.Contains(critic, "[p1.3] ") || strings.Contains(notes(v), "critic skipped") {
				t.Errorf("critic prompt %q (notes %q): the critic must see the cited sentence with its neighbours", critic, notes(v))
			}
		})
	}
}

// A plain sentence cited by ID, in a language with cue words, lets the
// critic be skipped; a sentence about something else, or in a language
// without cue words, does not.
func TestCriticSkippedOnPlainSentences(t *testing.T) {
	for _, tc := range []struct {
		name, claim, page string
		skipped           bool
	}{
		{"Spanish, plain", "La escuela cerró en 2019", "El pueblo perdió habitantes. La escuela cerró en 2019 por falta de alumnos.", true},
		{"Chinese, plain", "该校于2019年关闭", "该镇人口减少。该校于2019年因学生人数下降而关闭。", true},
		{"English, about something else", "The school closed in 2019", "The town lost people. The bakery opened in 2021 on Main Street.", false},
		{"Italian, no cue words", "La scuola ha chiuso nel 2019", "Il paese ha perso abitanti. La scuola ha chiuso nel 2019 per mancanza di alunni.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fc := foolCase{name: tc.name, claim: tc.claim, page: tc.page, label: "supported",
				result: search.Result{Title: "News", URL: foolURL, Snippet: "News of the day."},
				cite:   map[string]any{"passage": "p1.3", "stance": "supports", "summary": "The source says so."}}
			v, _, _ := runFool(t, fc)
			if got := strings.Contains(notes(v), "critic skipped"); got != tc.skipped {
				t.Errorf("critic skipped: %v, want %v (notes %q)", got, tc.skipped, notes(v))
			}
		})
	}
}
