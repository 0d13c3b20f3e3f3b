package discord_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/discord"
	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/search"
)

// mentionForms are every way of writing a mention in Discord or Slack text.
const mentionForms = "<@123456789012345678> <@!123456789012345678> <@&123456789012345678> <#123456789012345678> " +
	"@everyone @here @Everyone <@U0123ABC> <!channel> <!subteam^S0123ABC|@team> </factcheck:123456789012345678> <t:1700000000:R>"

// liveDiscord matches markup Discord would render from text: a mention,
// channel, command or timestamp written <…> (an unescaped "<" that no
// zero-width space follows, as in titles and field names), or a plain
// @everyone or @here.
var liveDiscord = regexp.MustCompile(`(?:^|[^\\])(?:\\\\)*<(?:[^\x{200b}]|$)|@(?:everyone|here)`)

// A model whose reasoning, quote and title write out every mention form:
// through the real engine, the Discord adapter and discordgo to the fake
// REST API, every message arrives with them inert (and allowed_mentions
// none), and the report says where the quote was found.
func TestModelMentionsArriveInert(t *testing.T) {
	const page = "https://www.nasa.gov/great-wall"
	const text = "Intro.\nThe Great Wall of China, frequently billed as the only man-made object visible from space, generally isn't."
	model := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		switch {
		case fct.ClaimOf(req) == "":
			return fct.Call("submit_claims", fct.Claims{Claims: []fct.Claim{{
				Claim: "The Great Wall of China is visible from space.", Span: "The Great Wall of China is visible from space"}}}), nil
		case len(req.Messages) == 1:
			return fct.Call("web_search", map[string]string{"query": "great wall visible from space"}), nil
		case len(req.Messages) == 3:
			return fct.Call("read_page", map[string]string{"url": page}), nil
		}
		return fct.Call("submit_verdict", fct.Verdict{Verdict: "contradicted", Confidence: "high",
			Reasoning: "NASA says no. " + mentionForms,
			Evidence: []fct.Evidence{{SourceURL: page, SourceTitle: "NASA",
				QuoteOrSummary: "frequently billed as the only man-made object visible from space, generally isn't " + mentionForms}}}), nil
	}}
	engine := &factcheck.Checker{Model: model,
		Search:  &fct.Searcher{Results: map[string][]search.Result{"great wall visible from space": {{Title: mentionForms, URL: page, Snippet: "Is it?"}}}},
		Reader:  &fct.Reader{Pages: map[string]*search.Page{page: {Text: text + " " + mentionForms}}}, // the page writes them out too
		Options: factcheck.Options{NoPrefetch: true},                                                  // the script's turns are the model's own search and read
	}
	h := newHarness(t, func(_ *discord.Config, _ *bot.Options, ck *bottest.Checker) {
		ck.Func = engine.Check
	})
	m := h.mention("400000000000000091", "The Great Wall of China is visible from space")
	if err := h.fake.MessageCreate(m); err != nil {
		t.Fatal(err)
	}
	r := h.waitDone(guild, "discord:message:"+m.ID)
	reqs := h.fake.Requests()
	checkNoMentions(t, reqs)
	for _, q := range reqs {
		if q.Method == "GET" {
			continue
		}
		var body any
		if err := json.Unmarshal(q.Body, &body); err != nil {
			continue
		}
		for _, s := range jsonStrings(body) {
			if strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "factbot_") {
				continue // URLs and button ids
			}
			for _, l := range liveDiscord.FindAllString(s, -1) {
				t.Errorf("%s %s carries live %q in %q", q.Method, q.Path, l, s)
			}
		}
	}
	final := h.fake.Message(strings.TrimPrefix(r.Reply, "msg:"+channel+":"))
	if final == nil || len(final.Embeds) != 1 || len(final.Embeds[0].Fields) == 0 {
		t.Fatalf("final message = %+v, want one embed with evidence", final)
	}
	e := final.Embeds[0]
	for _, want := range []string{`\<@123456789012345678\>`, `\<@&123456789012345678\>`, "@\u200beveryone @\u200bhere @\u200bEveryone"} {
		if !strings.Contains(e.Description, want) {
			t.Errorf("reasoning lacks %q: %q", want, e.Description)
		}
	}
	if v := e.Fields[0].Value; !strings.Contains(v, "(quote found on the page)") {
		t.Errorf("evidence field does not say where the quote was found: %q", v)
	}
}

// jsonStrings returns every string in a decoded JSON value.
func jsonStrings(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case map[string]any:
		var out []string
		for _, x := range v {
			out = append(out, jsonStrings(x)...)
		}
		return out
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, jsonStrings(x)...)
		}
		return out
	}
	return nil
}
