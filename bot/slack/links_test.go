package slack_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	slackgo "github.com/slack-go/slack"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/store/storetest"
)

// blocksOf decodes the blocks a call sent, with the SDK's own types.
func blocksOf(t *testing.T, c slacktest.Call) slackgo.Blocks {
	t.Helper()
	raw := []byte(c.Form.Get("blocks"))
	if c.JSON != nil {
		var err error
		if raw, err = json.Marshal(c.JSON["blocks"]); err != nil {
			t.Fatal(err)
		}
	}
	var bs slackgo.Blocks
	if err := json.Unmarshal(raw, &bs); err != nil {
		t.Fatalf("blocks %s: %v", raw, err)
	}
	return bs
}

// linkButtons maps the action id of every button with a url to the url,
// and checks that each is a pure link (no value sent back).
func linkButtons(t *testing.T, bs slackgo.Blocks) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, b := range bs.BlockSet {
		ab, ok := b.(*slackgo.ActionBlock)
		if !ok {
			continue
		}
		for _, el := range ab.Elements.ElementSet {
			if btn, ok := el.(*slackgo.ButtonBlockElement); ok && btn.URL != "" {
				if btn.Value != "" {
					t.Errorf("link button %s carries value %q", btn.ActionID, btn.Value)
				}
				got[btn.ActionID+" "+btn.Text.Text] = btn.URL
			}
		}
	}
	return got
}

// With the web view on, every report carries a "Full report" button
// opening the check's signed page for its asker (in the channel, and
// privately through response_url), and history an "Open history" button
// for the viewer in the channel asked from. With it off, nothing changes:
// no link buttons, history answered with text alone.
func TestFullReportAndHistoryLinks(t *testing.T) {
	for _, on := range []bool{true, false} {
		t.Run(map[bool]string{true: "on", false: "off"}[on], func(t *testing.T) {
			ctx := context.Background()
			links := bottest.Links{}
			st := storetest.NewMemory()
			s := setup{store: st}
			if on {
				s.links = links
			}
			e := start(t, s)
			want := func(key, viewer string) map[string]string {
				r, err := st.Request(ctx, slacktest.TeamID, key)
				if err != nil || r.CheckID == "" {
					t.Fatalf("request %s: %+v, %v", key, r, err)
				}
				if !on {
					return map[string]string{}
				}
				return map[string]string{bot.ActionReport + " Full report": links.CheckURL(slacktest.TeamID, viewer, r.CheckID)}
			}

			id, _ := e.fake.Send("events_api", slacktest.Mention("EvL", "C1", "U1", "1700000007.000100", "<@UBOT> Snow is white"))
			waitAck(t, e.fake, id)
			final := waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "chat.update" && isFinal(c) })
			if diff := cmp.Diff(want("slack:event:EvL", "U1"), linkButtons(t, blocksOf(t, final))); diff != "" {
				t.Errorf("report in the channel: link buttons (-want +got):\n%s", diff)
			}

			id, _ = e.fake.Send("slash_commands", slacktest.Command("trigP", "C2", "U2", "private Paris is in France", e.fake.ResponseURL("p")))
			waitAck(t, e.fake, id)
			final = waitCall(t, e.fake, func(c slacktest.Call) bool { return c.Method == "response_url" && isFinal(c) })
			if diff := cmp.Diff(want("slack:command:trigP", "U2"), linkButtons(t, blocksOf(t, final))); diff != "" {
				t.Errorf("private report: link buttons (-want +got):\n%s", diff)
			}

			id, _ = e.fake.Send("slash_commands", slacktest.Command("trigH", "C1", "U1", "history", e.fake.ResponseURL("h")))
			ack := waitAck(t, e.fake, id)
			var p struct {
				ResponseType string          `json:"response_type"`
				Text         string          `json:"text"`
				Blocks       json.RawMessage `json:"blocks"`
			}
			if err := json.Unmarshal(ack.Payload, &p); err != nil {
				t.Fatal(err)
			}
			if p.ResponseType != "ephemeral" || !strings.Contains(p.Text, "Snow is white") {
				t.Errorf("history = %s, want ephemeral with the lines as text", ack.Payload)
			}
			if !on {
				if p.Blocks != nil {
					t.Errorf("history with the web view off has blocks: %s", ack.Payload)
				}
				return
			}
			var bs slackgo.Blocks
			if err := json.Unmarshal(p.Blocks, &bs); err != nil {
				t.Fatal(err)
			}
			wantH := map[string]string{"factbot_history Open history": links.HistoryURL(slacktest.TeamID, "U1", "C1")}
			if diff := cmp.Diff(wantH, linkButtons(t, bs)); diff != "" {
				t.Errorf("history: link buttons (-want +got):\n%s", diff)
			}
			if sec, ok := bs.BlockSet[0].(*slackgo.SectionBlock); !ok || sec.Text.Text != p.Text || !sec.Text.Verbatim {
				t.Errorf("history's first block = %#v, want its lines verbatim", bs.BlockSet[0])
			}

			// Slack tells of a click on a link button too: acknowledged,
			// nothing done.
			click := map[string]any{
				"type": "block_actions", "trigger_id": "trigL", "team": map[string]any{"id": slacktest.TeamID},
				"user": map[string]any{"id": "U3"}, "channel": map[string]any{"id": "C1"},
				"container":    map[string]any{"type": "message", "channel_id": "C1", "message_ts": final.TS},
				"actions":      []any{map[string]any{"action_id": bot.ActionReport, "block_id": "factbot_actions", "type": "button", "action_ts": "2"}},
				"response_url": e.fake.ResponseURL("l"),
			}
			id, _ = e.fake.Send("interactive", click)
			if ack := waitAck(t, e.fake, id); len(ack.Payload) != 0 && string(ack.Payload) != "null" {
				t.Errorf("link click acknowledged with %s, want an empty ack", ack.Payload)
			}
			if r, err := st.Request(ctx, slacktest.TeamID, "slack:action:trigL"); err == nil {
				t.Errorf("a link click was stored as request %+v", r)
			}
		})
	}
}

// Only http(s) URLs Slack takes become link buttons; the other buttons stay.
func TestRenderDropsUnusableLinks(t *testing.T) {
	for _, u := range []string{"javascript:alert(1)", "https://", "https://factbot.example/" + strings.Repeat("a", 3000), "ftp://factbot.example/x"} {
		blocks, _ := slack.Render(&bot.Message{Final: true, Title: "Fact-check: 1 claim", CheckID: "ID1",
			Actions: []bot.Action{bot.English.ReportLink(u), {ID: bot.ActionRecheck, Label: "Check again", Value: "ID1"}}})
		b, _ := json.Marshal(blocks)
		if strings.Contains(string(b), `"url"`) || !strings.Contains(string(b), bot.ActionRecheck) {
			t.Errorf("link %.40q rendered as %s", u, b)
		}
	}
}

// A source's title, publisher or rating that spans lines (a page's title
// with a line break in it) is shown on one line, the title inside its
// link: a label cannot span lines, and the line must still end with where
// the quote was found.
func TestRenderSourceTitleOnOneLine(t *testing.T) {
	m := &bot.Message{Final: true, Title: "Fact-check", Claims: []bot.ClaimView{{Claim: "The tower is 330 m tall.", Label: "supported",
		Evidence: []bot.EvidenceView{{URL: "https://example.org/tower", Title: "Eiffel Tower\n\tfacts  and\r\nfigures", Publisher: "Tour\nEiffel", Rating: "True\n", Supports: true, Quote: "330 metres", QuoteFound: true}}}}}
	blocks, _ := slack.Render(m)
	var line string
	for _, o := range blockTexts(t, blocks) {
		s, _ := o["text"].(string)
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "• <https://example.org/tower|") {
				line = l
			}
		}
	}
	if want := "• <https://example.org/tower|Eiffel Tower facts and figures>"; !strings.HasPrefix(line, want) || !strings.HasSuffix(line, ")_") {
		t.Errorf("source line %q, want it to start with %q and end with where the quote was found", line, want)
	}
}
