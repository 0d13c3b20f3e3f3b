package discord_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
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

const (
	strangerGuild   = "330000000000000001" // a server that did not install the app
	strangerChannel = "330000000000000002"
	friendDM        = "330000000000000003" // a DM between the asker and a friend
)

// TestCommandsRegisteredForUserInstalls: the global commands can be
// installed to a server and to a user's account, and used in servers, the
// bot's DM and other DMs; a server's own commands (DISCORD_GUILD_ID) carry
// neither list, which Discord takes for global commands only.
func TestCommandsRegisteredForUserInstalls(t *testing.T) {
	type cmd struct {
		Name             string `json:"name"`
		IntegrationTypes []int  `json:"integration_types"`
		Contexts         []int  `json:"contexts"`
	}
	registered := func(h *harness, path string) []cmd {
		t.Helper()
		reqs := h.fake.Matching("PUT", path)
		if len(reqs) != 1 {
			t.Fatalf("PUT %s: %d requests, want 1", path, len(reqs))
		}
		var cmds []cmd
		if err := reqs[0].JSON(&cmds); err != nil {
			t.Fatal(err)
		}
		return cmds
	}
	h := newHarness(t)
	var want []cmd
	for _, name := range []string{discord.CommandFactcheck, discord.CommandHistory, discord.CommandMessage} {
		want = append(want, cmd{Name: name, IntegrationTypes: []int{0, 1}, Contexts: []int{0, 1, 2}})
	}
	if diff := cmp.Diff(want, registered(h, "/applications/"+h.fake.AppID+"/commands")); diff != "" {
		t.Errorf("global commands (-want +got):\n%s", diff)
	}

	g := newHarness(t, func(c *discord.Config, _ *bot.Options, _ *bottest.Checker) { c.GuildID = guild })
	for i := range want {
		want[i].IntegrationTypes, want[i].Contexts = nil, nil
	}
	if diff := cmp.Diff(want, registered(g, "/applications/"+g.fake.AppID+"/guilds/"+guild+"/commands")); diff != "" {
		t.Errorf("guild commands (-want +got):\n%s", diff)
	}
}

// userInstalled makes i come from the asker's user install, in a place
// where the app is not installed to the server: guildID "" is a DM (ctx
// 1, the bot's; 2, another), else a server the bot is not in.
func userInstalled(i *discordgo.Interaction, guildID, channelID string, ctx discordgo.InteractionContextType) *discordgo.Interaction {
	i.GuildID, i.ChannelID, i.Context = guildID, channelID, ctx
	i.AuthorizingIntegrationOwners = map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: asker}
	if guildID == "" {
		i.User, i.Member = user(asker), nil
	} else {
		i.User, i.Member = nil, &discordgo.Member{User: user(asker)}
	}
	return i
}

// bothInBotDM adds the guild install Discord names in the bot's DM ("0").
func bothInBotDM(i *discordgo.Interaction) *discordgo.Interaction {
	i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall] = "0"
	return i
}

// channelCalls are the REST requests that used a channel endpoint (or
// opened a DM): none is allowed for a user install.
func channelCalls(fake *discordtest.Server) []string {
	var out []string
	for _, r := range fake.Requests() {
		if strings.HasPrefix(r.Path, "/channels/") || strings.HasPrefix(r.Path, "/users/") {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

// deferral decodes the interaction's callback.
func deferral(t *testing.T, fake *discordtest.Server, i *discordgo.Interaction) discordgo.InteractionResponse {
	t.Helper()
	cb := fake.Matching("POST", "/interactions/"+i.ID+"/"+i.Token+"/callback")
	if len(cb) != 1 {
		t.Fatalf("%d callbacks, want 1", len(cb))
	}
	var resp discordgo.InteractionResponse
	if err := cb[0].JSON(&resp); err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestUserInstallAnsweredThroughTheInteraction: /factcheck and the
// message command from a user install — in the bot's DM, in a DM with a
// friend, in a group DM, in a server the bot is not in, over the gateway
// and over HTTP — are deferred (to the asker only), then answered by
// editing the original response, with no channel call; the check is
// saved private to the asker.
func TestUserInstallAnsweredThroughTheInteraction(t *testing.T) {
	h := newHarness(t)
	h.fake.AddChannel(&discordgo.Channel{ID: groupDM, Name: "friends", Type: discordgo.ChannelTypeGroupDM})
	mux := http.NewServeMux()
	if !h.a.Routes(mux) {
		t.Fatal("HTTP interactions not enabled")
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()

	picture := h.fake.AddFile("chart.png", pngBytes)
	target := &discordgo.Message{ID: "620000000000000100", ChannelID: strangerChannel, Content: "This chart shows the Moon is made of cheese.",
		Author: user(poster), Attachments: []*discordgo.MessageAttachment{{ID: "1", Filename: "chart.png", ContentType: "image/png",
			Size: len(pngBytes), URL: picture}}}
	messageCmd := func(id string) *discordgo.Interaction {
		return &discordgo.Interaction{ID: id, AppID: h.fake.AppID, Type: discordgo.InteractionApplicationCommand, Token: "tok-" + id, Version: 1,
			Data: discordgo.ApplicationCommandInteractionData{ID: "cmd3", Name: discord.CommandMessage, CommandType: discordgo.MessageApplicationCommand,
				TargetID: target.ID, Resolved: &discordgo.ApplicationCommandInteractionDataResolved{Messages: map[string]*discordgo.Message{target.ID: target}}}}
	}
	tests := []struct {
		name   string
		i      *discordgo.Interaction
		http   bool
		tenant string
		vis    store.Visibility
		files  int
	}{
		{"/factcheck in the bot's DM", userInstalled(slash("620000000000000001", "Water boils at 100 °C.", false), "", dmChannel, discordgo.InteractionContextBotDM),
			false, "dm:" + asker, store.VisibilityDM, 0},
		{"/factcheck in the bot's DM, both installs named", bothInBotDM(userInstalled(slash("620000000000000008", "Berlin is in Germany.", false), "", dmChannel, discordgo.InteractionContextBotDM)),
			false, "dm:" + asker, store.VisibilityDM, 0},
		{"/factcheck in a DM with a friend", userInstalled(slash("620000000000000002", "Paris is in France.", false), "", friendDM, discordgo.InteractionContextPrivateChannel),
			false, "dm:" + asker, store.VisibilityUnknown, 0},
		{"/factcheck in a group DM", userInstalled(slash("620000000000000003", "Rome is in Italy.", false), "", groupDM, discordgo.InteractionContextPrivateChannel),
			false, "dm:" + asker, store.VisibilityUnknown, 0},
		{"/factcheck in a server without the bot", userInstalled(slash("620000000000000004", "Snow is white.", false), strangerGuild, strangerChannel, discordgo.InteractionContextGuild),
			false, strangerGuild, store.VisibilityUnknown, 0},
		{"/factcheck over HTTP in a server without the bot", userInstalled(slash("620000000000000005", "Ice is cold.", false), strangerGuild, strangerChannel, discordgo.InteractionContextGuild),
			true, strangerGuild, store.VisibilityUnknown, 0},
		{"message command in a server without the bot", userInstalled(messageCmd("620000000000000006"), strangerGuild, strangerChannel, discordgo.InteractionContextGuild),
			false, strangerGuild, store.VisibilityUnknown, 1},
		{"message command over HTTP in a group DM", userInstalled(messageCmd("620000000000000007"), "", groupDM, discordgo.InteractionContextPrivateChannel),
			true, "dm:" + asker, store.VisibilityUnknown, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := len(h.checker.Calls())
			var resp discordgo.InteractionResponse
			if tt.http {
				status, body, err := h.fake.DeliverInteraction(h.ctx(), srv.URL+discord.InteractionsPath, h.key, tt.i)
				if err != nil || status != 200 || json.Unmarshal(body, &resp) != nil {
					t.Fatalf("HTTP interaction → %d %s %v", status, body, err)
				}
			} else if err := h.fake.InteractionCreate(tt.i); err != nil {
				t.Fatal(err)
			}
			r := h.waitDone(tt.tenant, "discord:interaction:"+tt.i.ID)
			if r.State != store.RequestDone || r.Reply != "@original" || r.CheckID == "" {
				t.Fatalf("request = %+v, want done, answered in the original response", r)
			}
			if !tt.http {
				resp = deferral(t, h.fake, tt.i)
			}
			if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || resp.Data == nil || resp.Data.Flags != discordgo.MessageFlagsEphemeral {
				t.Errorf("acknowledgement = %+v, want a deferred ephemeral response", resp)
			}
			o := h.fake.Original(tt.i.Token)
			if o == nil || len(o.Embeds) != 1 || len(buttonIDs(o)) == 0 || o.Flags != discordgo.MessageFlagsEphemeral {
				t.Errorf("original response = %+v, want the report, ephemeral", o)
			}
			c, err := h.store.Check(h.ctx(), tt.tenant, r.CheckID)
			if err != nil {
				t.Fatal(err)
			}
			if !c.Private || c.User != asker || c.Visibility != tt.vis {
				t.Errorf("check private %v user %s visibility %q, want private to %s, visibility %q", c.Private, c.User, c.Visibility, asker, tt.vis)
			}
			if c.VisibleTo(bot.Audience(otherMember, tt.i.ChannelID)) || !c.VisibleTo(bot.Audience(asker, tt.i.ChannelID)) {
				t.Error("the check is visible to someone else in its channel, or not to its asker")
			}
			got := h.checker.Calls()[calls:]
			if len(got) != 1 || len(got[0].Files) != tt.files || (tt.files == 1 && !bytes.Equal(got[0].Files[0].Data, pngBytes)) {
				t.Errorf("checked %+v, want %d file(s) read from the interaction", got, tt.files)
			}
			if cc := channelCalls(h.fake); len(cc) != 0 {
				t.Errorf("channel calls for a user install: %v", cc)
			}
			checkNoMentions(t, h.fake.Requests())
		})
	}
}

// TestUserInstallButtons: "Check again" and "Wrong verdict?" under a user
// install's report (its interactions come from the user install too) are
// answered through their interactions, with no channel call; the recheck
// reads the message command's picture again from what its interaction
// carried. /factcheck-history lists the check to its asker only.
func TestUserInstallButtons(t *testing.T) {
	h := newHarness(t)
	picture := h.fake.AddFile("chart.png", pngBytes)
	target := &discordgo.Message{ID: "630000000000000100", ChannelID: strangerChannel, Content: "A chart of the Moon's cheese.",
		Author: user(poster), Attachments: []*discordgo.MessageAttachment{{ID: "1", Filename: "chart.png", ContentType: "image/png",
			Size: len(pngBytes), URL: picture}}}
	i := userInstalled(&discordgo.Interaction{ID: "630000000000000001", AppID: h.fake.AppID, Type: discordgo.InteractionApplicationCommand, Token: "tok-630000000000000001",
		Data: discordgo.ApplicationCommandInteractionData{ID: "cmd3", Name: discord.CommandMessage, CommandType: discordgo.MessageApplicationCommand,
			TargetID: target.ID, Resolved: &discordgo.ApplicationCommandInteractionDataResolved{Messages: map[string]*discordgo.Message{target.ID: target}}}},
		strangerGuild, strangerChannel, discordgo.InteractionContextGuild)
	if err := h.fake.InteractionCreate(i); err != nil {
		t.Fatal(err)
	}
	r := h.waitDone(strangerGuild, "discord:interaction:"+i.ID)
	report := h.fake.Original(i.Token)
	if r.CheckID == "" || report == nil {
		t.Fatalf("request = %+v, report %+v", r, report)
	}

	again := userInstalled(button("630000000000000002", "", "", bot.ActionRecheck+":"+r.CheckID, report), strangerGuild, strangerChannel, discordgo.InteractionContextGuild)
	if err := h.fake.InteractionCreate(again); err != nil {
		t.Fatal(err)
	}
	r2 := h.waitDone(strangerGuild, "discord:interaction:"+again.ID)
	if r2.State != store.RequestDone || r2.Reply != "@original" {
		t.Fatalf("recheck = %+v", r2)
	}
	if o := h.fake.Original(again.Token); o == nil || len(o.Embeds) != 1 || o.Flags != discordgo.MessageFlagsEphemeral {
		t.Errorf("recheck's original = %+v", o)
	}
	calls := h.checker.Calls()
	if len(calls) != 2 || !calls[1].Fresh || len(calls[1].Files) != 1 || !bytes.Equal(calls[1].Files[0].Data, pngBytes) {
		t.Errorf("checked %+v, want a fresh recheck of the text and the picture", calls)
	}

	wrong := userInstalled(button("630000000000000003", "", "", bot.ActionWrong+":"+r.CheckID, report), strangerGuild, strangerChannel, discordgo.InteractionContextGuild)
	if resp := h.respond(wrong); resp.Type != discordgo.InteractionResponseModal {
		t.Fatalf("Wrong verdict? → %+v, want the form", resp)
	}
	submit := modalSubmit("630000000000000004", strangerGuild, strangerChannel, bot.ActionWrong+":"+r.CheckID, "The chart is a joke.")
	submit["context"] = 0
	submit["authorizing_integration_owners"] = map[string]string{"1": asker}
	if err := h.fake.Dispatch("INTERACTION_CREATE", submit); err != nil {
		t.Fatal(err)
	}
	cb, err := h.fake.WaitRequests(h.ctx(), 1, func(q discordtest.Request) bool {
		return strings.HasPrefix(q.Path, "/interactions/630000000000000004/")
	})
	if err != nil {
		t.Fatal(err)
	}
	var thanks discordgo.InteractionResponse
	if err := cb[0].JSON(&thanks); err != nil || thanks.Data == nil || thanks.Data.Flags != discordgo.MessageFlagsEphemeral {
		t.Errorf("feedback answer = %s", cb[0].Body)
	}
	c, err := h.store.Check(h.ctx(), strangerGuild, r.CheckID)
	if err != nil || len(c.Feedback) != 1 || c.Feedback[0].Note != "The chart is a joke." {
		t.Errorf("feedback = %+v, %v", c, err)
	}

	// /factcheck-history from the user install, in the same channel: the
	// asker's lists the check; another member's does not.
	listed := func(id, who string) []string {
		hi := userInstalled(historyCmd(id, "", "", 0, ""), strangerGuild, strangerChannel, discordgo.InteractionContextGuild)
		hi.Member.User = user(who)
		hi.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall] = who
		resp := h.respond(hi)
		if resp.Data == nil || resp.Data.Flags != discordgo.MessageFlagsEphemeral {
			t.Fatalf("history answer = %+v, want ephemeral", resp)
		}
		if len(resp.Data.Embeds) != 1 {
			return nil
		}
		return historyIDs(t, &resp)
	}
	if ids := listed("630000000000000005", asker); !slices.Contains(ids, r.CheckID) {
		t.Errorf("asker's history = %v, want %s", ids, r.CheckID)
	}
	if ids := listed("630000000000000006", otherMember); slices.Contains(ids, r.CheckID) {
		t.Errorf("another member's history = %v lists the asker's private check", ids)
	}
	if cc := channelCalls(h.fake); len(cc) != 0 {
		t.Errorf("channel calls for a user install: %v", cc)
	}
}

// TestUserInstallTokenExpired: a user install's check that outlasts the
// interaction token is saved (found in /factcheck-history) but, with no
// channel it may post in, is not answered anywhere else.
func TestUserInstallTokenExpired(t *testing.T) {
	i := userInstalled(slash("640000000000000001", "A long check.", false), strangerGuild, strangerChannel, discordgo.InteractionContextGuild)
	h, r := outlastToken(t, i, strangerGuild)
	if r.State != store.RequestDone || r.CheckID == "" || r.Reply != "@original" {
		t.Fatalf("request = %+v, want done with its check saved", r)
	}
	if c, err := h.store.Check(h.ctx(), strangerGuild, r.CheckID); err != nil || !c.Private {
		t.Errorf("check = %+v, %v; want it saved, private", c, err)
	}
	for _, q := range h.fake.Requests() {
		if q.Method == "PATCH" && isFinal(q) {
			t.Errorf("final report sent after the token expired: %s %s", q.Method, q.Path)
		}
	}
	if cc := channelCalls(h.fake); len(cc) != 0 {
		t.Errorf("channel calls for a user install: %v", cc)
	}
}

// TestUserInstallBadInput: empty and too long text from a user install is
// refused in the acknowledgement exactly as from a guild install, with no
// channel call.
func TestUserInstallBadInput(t *testing.T) {
	h := newHarness(t, func(_ *discord.Config, o *bot.Options, _ *bottest.Checker) { o.MaxInput = 20 })
	for n, text := range []string{"", "  ", strings.Repeat("long text ", 10)} {
		guildResp := h.respond(slash("65000000000000000"+string(rune('1'+2*n)), text, false))
		userResp := h.respond(userInstalled(slash("65000000000000000"+string(rune('2'+2*n)), text, false), strangerGuild, strangerChannel, discordgo.InteractionContextGuild))
		if guildResp.Type != discordgo.InteractionResponseChannelMessageWithSource || guildResp.Data.Flags != discordgo.MessageFlagsEphemeral {
			t.Errorf("%q: guild install's refusal = %+v", text, guildResp)
		}
		if diff := cmp.Diff(guildResp, userResp); diff != "" {
			t.Errorf("%q: user install's refusal differs from a guild install's (-guild +user):\n%s", text, diff)
		}
	}
	if n := len(h.checker.Calls()); n != 0 {
		t.Errorf("checked %d times", n)
	}
	if cc := channelCalls(h.fake); len(cc) != 0 {
		t.Errorf("channel calls: %v", cc)
	}
}

// TestGuildInstallUnchangedWithUserInstall: in a server that installed the
// bot, an interaction Discord says both installs authorized is a guild
// install's: the message command replies to the message in its channel,
// as before.
func TestGuildInstallUnchangedWithUserInstall(t *testing.T) {
	h := newHarness(t)
	target := &discordgo.Message{ID: "660000000000000001", ChannelID: channel, Content: "The Moon is made of cheese.", Author: user("777")}
	i := &discordgo.Interaction{ID: "660000000000000002", AppID: h.fake.AppID, Type: discordgo.InteractionApplicationCommand,
		GuildID: guild, ChannelID: channel, Token: "tok-660000000000000002", Member: &discordgo.Member{User: user(asker)},
		AuthorizingIntegrationOwners: map[discordgo.ApplicationIntegrationType]string{
			discordgo.ApplicationIntegrationGuildInstall: guild, discordgo.ApplicationIntegrationUserInstall: asker},
		Data: discordgo.ApplicationCommandInteractionData{ID: "cmd3", Name: discord.CommandMessage, CommandType: discordgo.MessageApplicationCommand,
			TargetID: target.ID, Resolved: &discordgo.ApplicationCommandInteractionDataResolved{Messages: map[string]*discordgo.Message{target.ID: target}}},
	}
	if err := h.fake.InteractionCreate(i); err != nil {
		t.Fatal(err)
	}
	r := h.waitDone(guild, "discord:interaction:"+i.ID)
	if !strings.HasPrefix(r.Reply, "msg:"+channel+":") {
		t.Errorf("reply = %q, want a message in the channel", r.Reply)
	}
	if resp := deferral(t, h.fake, i); resp.Type != discordgo.InteractionResponseChannelMessageWithSource {
		t.Errorf("acknowledgement type %d, want the ephemeral note (4)", resp.Type)
	}
	c, err := h.store.Check(h.ctx(), guild, r.CheckID)
	if err != nil || c.Private || c.Visibility != store.VisibilityPublic {
		t.Errorf("check = %+v, %v; want public as before", c, err)
	}
	var ms discordgo.MessageSend
	posts := h.fake.Matching("POST", "/channels/"+channel+"/messages")
	if len(posts) != 1 || posts[0].JSON(&ms) != nil || ms.Reference == nil || ms.Reference.MessageID != target.ID {
		t.Errorf("reply = %+v", posts)
	}
}

// TestUserInstallAttachmentLinkExpired: a file whose link no longer
// answers (Discord's attachment links expire) is noted, and the message's
// text is checked alone, still with no channel call.
func TestUserInstallAttachmentLinkExpired(t *testing.T) {
	h := newHarness(t)
	gone := strings.TrimSuffix(h.fake.APIURL(), discordtest.APIPrefix+"/") + "/attachments/1/gone.png"
	target := &discordgo.Message{ID: "670000000000000100", ChannelID: strangerChannel, Content: "The Moon is made of cheese.",
		Author: user(poster), Attachments: []*discordgo.MessageAttachment{{ID: "1", Filename: "gone.png", ContentType: "image/png", Size: 100, URL: gone}}}
	i := userInstalled(&discordgo.Interaction{ID: "670000000000000001", AppID: h.fake.AppID, Type: discordgo.InteractionApplicationCommand, Token: "tok-670000000000000001",
		Data: discordgo.ApplicationCommandInteractionData{ID: "cmd3", Name: discord.CommandMessage, CommandType: discordgo.MessageApplicationCommand,
			TargetID: target.ID, Resolved: &discordgo.ApplicationCommandInteractionDataResolved{Messages: map[string]*discordgo.Message{target.ID: target}}}},
		strangerGuild, strangerChannel, discordgo.InteractionContextGuild)
	if err := h.fake.InteractionCreate(i); err != nil {
		t.Fatal(err)
	}
	r := h.waitDone(strangerGuild, "discord:interaction:"+i.ID)
	calls := h.checker.Calls()
	if r.State != store.RequestDone || len(calls) != 1 || calls[0].Text != target.Content || len(calls[0].Files) != 0 {
		t.Fatalf("request %+v, checked %+v; want the text checked alone", r, calls)
	}
	if len(h.fake.Matching("GET", "/attachments/1/gone.png")) != 1 {
		t.Error("the file's link was not tried")
	}
	o := h.fake.Original(i.Token)
	b, _ := json.Marshal(o)
	if !strings.Contains(string(b), "gone.png") {
		t.Errorf("report = %s, want a note naming gone.png", b)
	}
	if cc := channelCalls(h.fake); len(cc) != 0 {
		t.Errorf("channel calls for a user install: %v", cc)
	}
}
