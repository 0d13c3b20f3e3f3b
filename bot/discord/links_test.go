package discord_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/discord"
	"github.com/factbot-dev/factbot/bot/discord/discordtest"
	"github.com/factbot-dev/factbot/store"
)

// buttonsOf lists a message's buttons as "custom_id" or, for link buttons
// (style 5), "label → url".
func buttonsOf(comps []discordgo.MessageComponent) []string {
	var out []string
	for _, c := range comps {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, b := range row.Components {
			if b, ok := b.(*discordgo.Button); ok {
				if b.Style == discordgo.LinkButton {
					out = append(out, b.Label+" → "+b.URL)
				} else {
					out = append(out, b.CustomID)
				}
			}
		}
	}
	return out
}

// With the web view on, every report carries a "Full report" link button
// to the check's signed page for its asker (a reply in the channel, and
// the response to /factcheck), and /factcheck-history an "Open history"
// link button for the viewer in the channel asked from. With it off,
// nothing changes. The fake refuses buttons Discord would refuse.
func TestFullReportAndHistoryLinks(t *testing.T) {
	for _, on := range []bool{true, false} {
		t.Run(map[bool]string{true: "on", false: "off"}[on], func(t *testing.T) {
			links := bottest.Links{}
			h := newHarness(t, func(_ *discord.Config, bo *bot.Options, _ *bottest.Checker) {
				if on {
					bo.Links = links
				}
			})
			want := func(r *store.Request) []string {
				var w []string
				if on {
					w = append(w, "Full report → "+links.CheckURL(guild, asker, r.CheckID))
				}
				return append(w, bot.ActionRecheck+":"+r.CheckID, bot.ActionWrong+":"+r.CheckID)
			}

			m := h.mention("400000000000000061", "Snow is white.")
			if err := h.fake.MessageCreate(m); err != nil {
				t.Fatal(err)
			}
			r := h.waitDone(guild, "discord:message:"+m.ID)
			if r.State != store.RequestDone || r.CheckID == "" {
				t.Fatalf("request = %+v", r)
			}
			reply := h.fake.Message(strings.TrimPrefix(r.Reply, "msg:"+channel+":"))
			if diff := cmp.Diff(want(r), buttonsOf(reply.Components)); diff != "" {
				t.Errorf("reply's buttons (-want +got):\n%s", diff)
			}

			i := slash("500000000000000061", "Paris is in France.", false)
			if err := h.fake.InteractionCreate(i); err != nil {
				t.Fatal(err)
			}
			r = h.waitDone(guild, "discord:interaction:"+i.ID)
			o := h.fake.Original(i.Token)
			if r.State != store.RequestDone || o == nil {
				t.Fatalf("request %+v, response %+v", r, o)
			}
			if diff := cmp.Diff(want(r), buttonsOf(o.Components)); diff != "" {
				t.Errorf("response's buttons (-want +got):\n%s", diff)
			}

			hi := historyCmd("510000000000000061", guild, channel, 0, "")
			if err := h.fake.InteractionCreate(hi); err != nil {
				t.Fatal(err)
			}
			path := "/interactions/" + hi.ID + "/" + hi.Token + "/callback"
			cbs, err := h.fake.WaitRequests(h.ctx(), 1, func(q discordtest.Request) bool { return q.Method == "POST" && q.Path == path })
			if err != nil {
				t.Fatal(err)
			}
			if cbs[0].Status != 204 {
				t.Fatalf("history callback answered %d: %s", cbs[0].Status, cbs[0].Body)
			}
			// discordgo's InteractionResponseData cannot decode
			// components; its Message can.
			var resp struct {
				Type discordgo.InteractionResponseType `json:"type"`
				Data discordgo.Message                 `json:"data"`
			}
			if err := cbs[0].JSON(&resp); err != nil {
				t.Fatalf("callback %s: %v", cbs[0].Body, err)
			}
			if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || len(resp.Data.Embeds) != 1 ||
				!strings.Contains(resp.Data.Embeds[0].Description, "Snow is white") {
				t.Errorf("history = %s, want the checks listed", cbs[0].Body)
			}
			var wantH []string
			if on {
				wantH = []string{"Open history → " + links.HistoryURL(guild, asker, channel)}
			}
			if diff := cmp.Diff(wantH, buttonsOf(resp.Data.Components)); diff != "" {
				t.Errorf("history's buttons (-want +got):\n%s", diff)
			}
			checkNoMentions(t, h.fake.Requests())
		})
	}
}
