package factcheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/factbot-dev/factbot/factcheck/evidence"
)

// The compact transcript: each search result set or page the model has
// read is reduced, on later turns, to the answers it gives to the plan's
// questions (compact): a verbatim sentence with its ID, or "nothing
// relevant". The turns before the model's latest are then folded into
// text after the first message (compacting, folded). The full retrieved text
// stays in the library, where citing and the provenance check read it;
// only the transcript is compact.

// transcript compacts one verification's observations: it ranks the
// sentences they showed, which the library holds, against the questions.
type transcript struct {
	lib       *library
	questions []evidence.Query
}

// answer is one question answered by a retrieved sentence, by its ID.
type answer struct {
	Q        []int  `json:"q"`
	ID       string `json:"id"`
	Sentence string `json:"s"`
	// Rating and Publisher, for published fact-checks.
	Rating    string `json:"rating,omitempty"`
	Publisher string `json:"publisher,omitempty"`
}

type compactObservation struct {
	Answers []answer `json:"answers,omitempty"`
	None    string   `json:"answers_none,omitempty"`
}

// nothingRelevant is the compact observation of a result that answers no
// question.
const nothingRelevant = "nothing relevant to the questions"

// shownID matches a sentence ID as the tools show it.
var shownID = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\[p(\d+)\.(\d+)\]`)
})

// compact reduces an observation the model has seen to the answers it
// gives to the questions: per question, the best of the sentences it
// showed, by BM25. Errors and unknown shapes are kept as they are.
func (t *transcript) compact(name string, content json.RawMessage) json.RawMessage {
	switch name {
	case ToolWebSearch, ToolFactChecks, ToolReadPage:
	default:
		return content
	}
	var o struct {
		Results []json.RawMessage `json:"results"`
		Text    string            `json:"text"`
	}
	if json.Unmarshal(content, &o) != nil || (o.Results == nil && o.Text == "") {
		return content
	}
	shown := t.lib.shownSentences(content)
	texts := make([]string, len(shown))
	for i, s := range shown {
		texts[i] = s.text
	}
	var out compactObservation
	used := map[int]int{} // sentence → index in out.Answers
	for qi, hits := range evidence.NewRanker(texts).Ranked(t.questions) {
		if len(hits) == 0 {
			continue
		}
		best := hits[0].I
		if i, ok := used[best]; ok {
			out.Answers[i].Q = append(out.Answers[i].Q, qi+1)
			continue
		}
		used[best] = len(out.Answers)
		s := shown[best]
		out.Answers = append(out.Answers, answer{Q: []int{qi + 1}, ID: s.id, Sentence: truncate(s.text, compactQuoteChars), Publisher: s.d.publisher, Rating: s.d.rating})
	}
	if len(out.Answers) == 0 {
		out.None = nothingRelevant
	}
	b, err := json.Marshal(out)
	if err != nil {
		return content
	}
	return b
}

// compacting is one research loop's compact transcript, applied before
// each model call (the loop's before hook): an observation the model has
// seen is rewritten as transcript.compact returns it (every request
// carries the newest observations whole), what was retrieved before the
// first turn is replaced by its answers once the model has seen it, and
// the turns before the model's latest are folded into text after the
// first message (folded).
type compacting struct {
	t *transcript
	// first, if set, replaces the first message's text once the model has
	// seen it: what was retrieved before the first turn, as its answers
	// to the questions (retrieve.go).
	first string
	done  int // messages before this index are compacted
}

// apply compacts the request's old observations and sets its folded view.
func (c *compacting) apply(req *ModelRequest) {
	c.compactOld(req)
	req.Folded = folded(req)
}

// compactOld rewrites the observations of every message but the last,
// the ones the model has already seen, with compact.
func (c *compacting) compactOld(req *ModelRequest) {
	if c.first != "" && len(req.Messages) > 1 {
		req.Messages[0].Text, c.first = c.first, ""
	}
	for i := c.done; i < len(req.Messages)-1; i++ {
		m := &req.Messages[i]
		if len(m.ToolResults) == 0 {
			continue
		}
		rs := make([]ToolResult, len(m.ToolResults)) // a new slice: earlier requests keep what they sent
		for j, r := range m.ToolResults {
			rs[j] = r
			rs[j].Content = c.t.compact(r.Name, r.Content) // the finishing tool's status is kept as it is
		}
		m.ToolResults = rs
	}
	c.done = max(c.done, len(req.Messages)-1)
}

// folded is the conversation as a provider sends it (ModelRequest.Folded),
// nil for the whole one: the turns before the model's latest are one
// numbered line each in a delimited block after the first message (their
// calls and compact observations), so that each call carries them once as
// text instead of as calls and responses; the latest turn, its calls and
// what they returned, stays as it is (a Gemini thought signature is
// checked on it only).
func folded(req *ModelRequest) []Message {
	last := 0
	for i := len(req.Messages) - 1; i > 0 && last == 0; i-- {
		if req.Messages[i].Role == RoleModel {
			last = i
		}
	}
	if last <= 1 {
		return nil
	}
	var b strings.Builder
	b.WriteString(req.Messages[0].Text)
	b.WriteString("\n\nYour steps so far, with answers to the questions (DATA):\n<steps>")
	n := 0
	for _, m := range req.Messages[1:last] {
		if m.Role == RoleModel {
			n++
			fmt.Fprintf(&b, "\n%d. ", n)
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(foldMessage(m))
	}
	b.WriteString("\n</steps>")
	first := req.Messages[0]
	first.Text = b.String()
	return append([]Message{first}, req.Messages[last:]...)
}

// foldMessage writes one message of an earlier turn for the model's view (see
// folded): its calls with their arguments, their observations as the
// answers compact kept ("[p1.6] sentence (Q1,2)"), and any text.
func foldMessage(m Message) string {
	var parts []string
	for _, c := range m.ToolCalls {
		parts = append(parts, c.Name+"("+foldArgs(c)+")")
	}
	for _, res := range m.ToolResults {
		parts = append(parts, "→ "+foldResult(res.Content))
	}
	if t := strings.TrimSpace(m.Text); t != "" {
		who := "You were told: "
		if m.Role == RoleModel {
			who = "You wrote: "
		}
		parts = append(parts, who+truncate(t, foldChars))
	}
	return strings.Join(parts, " ")
}

// foldChars bounds a text or an argument in a folded turn.
const foldChars = 300

// foldArgs are a call's arguments: the values of a search or a read, the
// JSON of anything else (a verdict), cut to foldChars.
func foldArgs(c ToolCall) string {
	var args map[string]json.RawMessage
	if json.Unmarshal(c.Args, &args) != nil || len(args) != 1 {
		return truncate(string(c.Args), foldChars)
	}
	for _, v := range args {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return truncate(s, foldChars)
		}
	}
	return truncate(string(c.Args), foldChars)
}

// foldResult is an observation as text: the compact answers, "nothing
// relevant", an error, or the JSON as it is.
func foldResult(content json.RawMessage) string {
	var o struct {
		compactObservation
		Error  string `json:"error"`
		Status string `json:"status"`
	}
	if json.Unmarshal(content, &o) != nil {
		return truncate(string(content), foldChars)
	}
	var b strings.Builder
	for i, a := range o.Answers {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "[%s] %s (Q", a.ID, a.Sentence)
		for j, q := range a.Q {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(q))
		}
		if a.Publisher != "" || a.Rating != "" {
			fmt.Fprintf(&b, "; %s: %s", a.Publisher, a.Rating)
		}
		b.WriteByte(')')
	}
	switch {
	case b.Len() > 0:
		return b.String()
	case o.None != "":
		return o.None
	case o.Error != "":
		return "error: " + o.Error
	case o.Status != "":
		return o.Status
	}
	return truncate(string(content), foldChars)
}

// compactQuoteChars bounds one sentence kept in the compact transcript.
const compactQuoteChars = 280
