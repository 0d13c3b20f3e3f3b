package slack_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	slackgo "github.com/slack-go/slack"

	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/search"
)

// mentionForms are every way of writing a mention in Slack or Discord text.
const mentionForms = "<@U0123ABC> <#C0123ABC|general> <!here> <!channel> <!everyone> <!subteam^S0123ABC|@team> " +
	"@here @channel @everyone @HERE @Channel <@123456789012345678> <@!123456789012345678> <@&123456789012345678> <#123456789012345678>"

// liveSlack matches what Slack could turn into a mention or a link: a
// control sequence (<@…>, <#…>, <!…>, <http…>) or a plain @here, @channel
// or @everyone.
var liveSlack = regexp.MustCompile(`<[@#!]|(?i)@(?:here|channel|everyone)`)

// A model whose reasoning, quote and title write out every mention form:
// through the real engine, the Slack adapter and slack-go to the fake Web
// API, the report arrives with every one of them inert, in blocks sent
// verbatim, and says where the quote was found.
func TestModelMentionsArriveInert(t *testing.T) {
	const page = "https://www.nasa.gov/great-wall"
	const snippet = "The Great Wall is not visible to the naked eye from low Earth orbit."
	model := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		switch {
		case fct.ClaimOf(req) == "":
			return fct.Call("submit_claims", fct.Claims{Claims: []fct.Claim{{
				Claim: "The Great Wall of China is visible from space.", Span: "The Great Wall of China is visible from space"}}}), nil
		case len(req.Messages) == 1:
			return fct.Call("web_search", map[string]string{"query": "great wall visible from space"}), nil
		}
		return fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high",
			Reasoning: "NASA says no. " + mentionForms,
			Evidence:  []fct.Evidence{{SourceURL: page, SourceTitle: "NASA " + mentionForms, QuoteOrSummary: snippet + " " + mentionForms}}}), nil
	}}
	ck := &factcheck.Checker{Model: model,
		Search: &fct.Searcher{Results: map[string][]search.Result{"great wall visible from space": {{URL: page, Snippet: snippet + " " + mentionForms}}}},
		Reader: &fct.Reader{Pages: map[string]*search.Page{}},
	}
	e := start(t, setup{checker: ck})
	id, err := e.fake.Send("events_api", slacktest.Mention("EvM1", "C1", "U1", "1700000300.000100", "<@UBOT> The Great Wall of China is visible from space"))
	if err != nil {
		t.Fatal(err)
	}
	waitAck(t, e.fake, id)
	final := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
	e.stop()

	var blocks []any
	if err := json.Unmarshal([]byte(final.Form.Get("blocks")), &blocks); err != nil {
		t.Fatalf("blocks: %v", err)
	}
	objs := textObjects(blocks)
	var all []string
	for _, o := range objs {
		s, _ := o["text"].(string)
		all = append(all, s)
		if o["type"] == "mrkdwn" && o["verbatim"] != true {
			t.Errorf("mrkdwn text sent without verbatim: %v", o)
		}
		// The only control sequences are the evidence link and none
		// carries a mention.
		for _, m := range liveSlack.FindAllStringIndex(s, -1) {
			t.Errorf("live %q in %q", s[m[0]:m[1]], s)
		}
	}
	all = append(all, final.Form.Get("text"))
	if m := liveSlack.FindString(final.Form.Get("text")); m != "" {
		t.Errorf("fallback text carries live %q: %q", m, final.Form.Get("text"))
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{
		"&lt;@U0123ABC&gt;", "&lt;!subteam^S0123ABC|@team&gt;", "@\u200bhere @\u200bchannel @\u200beveryone @\u200bHERE",
		"<" + page + "|", // the evidence link is still a link
		"quote seen only in the search result's preview", // where the quote was found
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

// blockTexts returns every text object of blocks, as Slack receives them
// (JSON).
func blockTexts(t *testing.T, blocks []slackgo.Block) []map[string]any {
	t.Helper()
	b, err := json.Marshal(blocks)
	if err != nil {
		t.Fatal(err)
	}
	var tree []any
	if err := json.Unmarshal(b, &tree); err != nil {
		t.Fatal(err)
	}
	return textObjects(tree)
}

// textObjects returns every Block Kit text object in v.
func textObjects(v any) []map[string]any {
	var out []map[string]any
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["text"].(string); ok {
			if t, _ := v["type"].(string); t == "mrkdwn" || t == "plain_text" {
				out = append(out, v)
			}
		}
		for _, x := range v {
			out = append(out, textObjects(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, textObjects(x)...)
		}
	}
	return out
}
