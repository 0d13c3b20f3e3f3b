package factcheck_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/search"
)

// A page in a language written without spaces (Chinese, Japanese, Thai)
// or with its own script (Arabic, Hindi): the sentence that answers the
// plan's questions, in the page's language, is among the page's passages
// the model reads, and is the answer the compact transcript keeps; the
// model can cite it by ID and the report shows it whole.
func TestAnswerSurvivesInEveryScript(t *testing.T) {
	for _, tc := range []struct {
		lang, claim, q1, q2, answer string
		filler                      func(i int) string
	}{
		{"Chinese", "长城从太空用肉眼可以看到", "长城能从太空用肉眼看到吗？", "宇航员对从太空看长城说了什么？",
			"宇航员说，长城从太空用肉眼是看不到的。", func(i int) string { return fmt.Sprintf("第%d天，市场上的蔬菜价格有所上涨。", i) }},
		{"Japanese", "万里の長城は宇宙から肉眼で見える", "万里の長城は宇宙から肉眼で見えますか？", "宇宙飛行士は万里の長城について何と言いましたか？",
			"宇宙飛行士によると、万里の長城は宇宙から肉眼では見えない。", func(i int) string { return fmt.Sprintf("%d日目、公園の桜がきれいに咲いていた。", i) }},
		{"Thai", "กำแพงเมืองจีนมองเห็นได้จากอวกาศด้วยตาเปล่า", "กำแพงเมืองจีนมองเห็นได้จากอวกาศด้วยตาเปล่าหรือไม่", "นักบินอวกาศพูดถึงกำแพงเมืองจีนว่าอย่างไร",
			"นักบินอวกาศกล่าวว่ากำแพงเมืองจีนมองไม่เห็นจากอวกาศด้วยตาเปล่า", func(i int) string {
				return fmt.Sprintf("วันที่ %d ตลาดขายผักและผลไม้สดทุกเช้า", i)
			}},
		{"Arabic", "يمكن رؤية سور الصين العظيم من الفضاء بالعين المجردة", "هل يمكن رؤية سور الصين العظيم من الفضاء بالعين المجردة؟", "ماذا قال رواد الفضاء عن سور الصين العظيم؟",
			"قال رواد الفضاء إن سور الصين العظيم لا يمكن رؤيته من الفضاء بالعين المجردة.", func(i int) string {
				return fmt.Sprintf("في اليوم %d افتتحت المكتبة العامة أبوابها للزوار.", i)
			}},
		{"Hindi", "चीन की महान दीवार अंतरिक्ष से नंगी आंखों से दिखाई देती है", "क्या चीन की महान दीवार अंतरिक्ष से नंगी आंखों से दिखाई देती है?", "अंतरिक्ष यात्रियों ने चीन की महान दीवार के बारे में क्या कहा?",
			"अंतरिक्ष यात्रियों ने कहा कि चीन की महान दीवार अंतरिक्ष से नंगी आंखों से दिखाई नहीं देती।", func(i int) string {
				return fmt.Sprintf("दिन %d को बाजार में सब्जियों के दाम बढ़ गए।", i)
			}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			var lines []string
			for i := 1; i <= 60; i++ {
				if i == 37 {
					lines = append(lines, tc.answer)
				}
				lines = append(lines, tc.filler(i))
			}
			const url = "https://news.example.org/wall"
			m := &fct.Model{
				Plan: func(*factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
					return fct.Questions(tc.q1, tc.q2), nil
				},
				Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
					switch len(req.Messages) {
					case 1:
						return fct.Call("web_search", map[string]string{"query": "q"}), nil
					case 3:
						return fct.Call("read_page", map[string]string{"url": url}), nil
					case 5:
						return fct.Call("web_search", map[string]string{"query": "q2"}), nil
					}
					id := answerID(t, req, tc.answer)
					return fct.Call("submit_verdict", map[string]any{"verdict": "contradicted", "confidence": "high", "reasoning": "r",
						"evidence": []any{map[string]any{"passage": id, "stance": "refutes", "summary": "s"}}}), nil
				},
			}
			c := &factcheck.Checker{Model: m,
				Search: &fct.Searcher{Results: map[string][]search.Result{"q": {{Title: "Wall", URL: url, Snippet: tc.filler(0)}}}},
				Reader: &fct.Reader{Pages: map[string]*search.Page{url: {Title: "Wall", Text: strings.Join(lines, "\n")}}}}
			v, err := c.VerifyClaim(context.Background(), tc.claim, "")
			if err != nil {
				t.Fatal(err)
			}
			read := string(observationsOf(m.Research()[2])[1].Content)
			if !strings.Contains(read, tc.answer) || !strings.Contains(read, `"excerpted":true`) {
				t.Errorf("the page read lacks the answer %q or was not excerpted:\n%s", tc.answer, read)
			}
			if len(v.Evidence) != 1 || v.Evidence[0].QuoteOrSummary != tc.answer || !v.Evidence[0].QuoteFound {
				t.Errorf("evidence %+v, want the answer found", v.Evidence)
			}
		})
	}
}

// answerID returns the ID of the answer in the compact transcript's
// answers to the page read, failing the test when it is not there.
func answerID(t *testing.T, req *factcheck.ModelRequest, answer string) string {
	t.Helper()
	var o struct {
		Answers []struct {
			ID string `json:"id"`
			S  string `json:"s"`
		} `json:"answers"`
	}
	read := observationsOf(req)[1].Content
	if err := json.Unmarshal(read, &o); err != nil {
		t.Fatal(err)
	}
	for _, a := range o.Answers {
		if a.S == answer {
			return a.ID
		}
	}
	t.Fatalf("the compact transcript's answers to the page read lack %q: %s", answer, read)
	return ""
}
