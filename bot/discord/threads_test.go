package discord_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/discord"
	"github.com/factbot-dev/factbot/store"
)

const (
	thread = "300000000000000009"
	poster = "300000000000000008"
)

// pngBytes is the start of a PNG file: enough for its type to be sniffed.
var pngBytes = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0}, 64)...)

func withReactions(c *discord.Config, _ *bot.Options, _ *bottest.Checker) {
	c.MessageContent, c.Reactions = true, discord.DefaultReactions
}

func (h *harness) checked() []string {
	var out []string
	for _, in := range h.checker.Calls() {
		out = append(out, in.Text)
	}
	return out
}

func TestBareMentionInThreadChecksStarterMessage(t *testing.T) {
	h := newHarness(t)
	h.fake.AddChannel(&discordgo.Channel{ID: thread, GuildID: guild, ParentID: channel, Name: "bananas", Type: discordgo.ChannelTypeGuildPublicThread})
	h.fake.AddMessage(&discordgo.Message{ID: thread, ChannelID: channel, GuildID: guild, Author: user(poster), Content: "Bananas are berries"})
	m := h.mention("400000000000000101", "")
	m.ChannelID = thread
	if err := h.fake.MessageCreate(m); err != nil {
		t.Fatal(err)
	}
	r := h.waitDone(guild, "discord:message:"+m.ID)
	if r.State != store.RequestDone {
		t.Fatalf("state = %s", r.State)
	}
	if got := h.checked(); len(got) != 1 || got[0] != "Bananas are berries" {
		t.Errorf("checked %q, want the thread's starter message", got)
	}
	if posts := h.fake.Matching("POST", "/channels/"+thread+"/messages"); len(posts) != 1 {
		t.Errorf("%d replies in the thread, want 1", len(posts))
	}
}

func TestReplyMentionReadsPictureFromCDN(t *testing.T) {
	h := newHarness(t)
	target := &discordgo.Message{ID: "400000000000000110", ChannelID: channel, GuildID: guild, Author: user(poster),
		Attachments: []*discordgo.MessageAttachment{{ID: "1", Filename: "chart.png", ContentType: "image/png",
			Size: len(pngBytes), URL: h.fake.AddFile("chart.png", pngBytes)}}}
	h.fake.AddMessage(target)
	m := h.mention("400000000000000111", "")
	m.ReferencedMessage = target
	m.MessageReference = &discordgo.MessageReference{MessageID: target.ID, ChannelID: channel, GuildID: guild}
	if err := h.fake.MessageCreate(m); err != nil {
		t.Fatal(err)
	}
	h.waitDone(guild, "discord:message:"+m.ID)
	calls := h.checker.Calls()
	if len(calls) != 1 || len(calls[0].Files) != 1 || !bytes.Equal(calls[0].Files[0].Data, pngBytes) || calls[0].Files[0].MIME != "image/png" {
		t.Fatalf("checked %+v, want the replied-to message's picture", calls)
	}
	for _, r := range h.fake.Matching("GET", "/attachments/") {
		if a := r.Header.Get("Authorization"); a != "" {
			t.Errorf("attachment download sent Authorization %q", a)
		}
	}
}

func reaction(userID, messageID, emoji string) *discordgo.MessageReactionAdd {
	return &discordgo.MessageReactionAdd{MessageReaction: &discordgo.MessageReaction{
		UserID: userID, MessageID: messageID, ChannelID: channel, GuildID: guild, Emoji: discordgo.Emoji{Name: emoji}}}
}

func TestReactionChecksMessageOnce(t *testing.T) {
	h := newHarness(t, withReactions)
	var id struct {
		Intents int `json:"intents"`
	}
	if err := json.Unmarshal(h.fake.Identify(), &id); err != nil {
		t.Fatal(err)
	}
	// message content (1<<15), guild and direct message reactions (1<<10, 1<<13)
	if want := int(discord.Intents) | 1<<15 | 1<<10 | 1<<13; id.Intents != want {
		t.Errorf("intents = %d, want %d", id.Intents, want)
	}
	h.fake.AddMessage(&discordgo.Message{ID: "400000000000000120", ChannelID: channel, GuildID: guild, Author: user(poster), Content: "Bananas are berries"})
	if err := h.fake.MessageReactionAdd(reaction(asker, "400000000000000120", "🔍")); err != nil {
		t.Fatal(err)
	}
	h.waitDone(guild, "discord:reaction:400000000000000120")
	if err := h.fake.MessageReactionAdd(reaction(poster, "400000000000000120", "🔎")); err != nil {
		t.Fatal(err)
	}
	// A mention afterwards, to know the second reaction was handled.
	if err := h.fake.MessageCreate(h.mention("400000000000000121", "Water boils at 100 °C")); err != nil {
		t.Fatal(err)
	}
	h.waitDone(guild, "discord:message:400000000000000121")
	if got := h.checked(); len(got) != 2 || got[0] != "Bananas are berries" {
		t.Errorf("checked %q, want the message once, then the mention", got)
	}
	if posts := h.fake.Matching("POST", "/channels/"+channel+"/messages"); len(posts) != 2 {
		t.Errorf("%d messages posted, want 2", len(posts))
	}
}

func TestReactionsOffWithoutMessageContent(t *testing.T) {
	h := newHarness(t)
	h.fake.AddMessage(&discordgo.Message{ID: "400000000000000130", ChannelID: channel, GuildID: guild, Author: user(poster), Content: "Bananas are berries"})
	if err := h.fake.MessageReactionAdd(reaction(asker, "400000000000000130", "🔍")); err != nil {
		t.Fatal(err)
	}
	if err := h.fake.MessageCreate(h.mention("400000000000000131", "Water boils at 100 °C")); err != nil {
		t.Fatal(err)
	}
	h.waitDone(guild, "discord:message:400000000000000131")
	if _, err := h.store.Request(t.Context(), guild, "discord:reaction:400000000000000130"); err == nil {
		t.Error("a reaction was taken without the message content intent")
	}
	if got := h.checked(); len(got) != 1 {
		t.Errorf("checked %q, want the mention only", got)
	}
}
