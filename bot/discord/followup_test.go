package discord_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/discord"
	"github.com/factbot-dev/factbot/bot/discord/discordtest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/google/go-cmp/cmp"
)

// The tests in this file run the adapter on the real bbolt store.

const (
	otherGuild   = "310000000000000001"
	otherChannel = "310000000000000002"
	dmChannel    = "320000000000000001"
)

// stack is one running factbot process: a bbolt store, a scripted checker,
// the chat core and the adapter connected to the fake Discord.
type stack struct {
	*tracker
	fake    *discordtest.Server
	db      *store.DB
	checker *bottest.Checker
	svc     *bot.Service
	a       *discord.Adapter

	stopOnce sync.Once
}

func openDB(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// tickingClock returns a clock that advances a minute on every reading, so
// that checks saved one after another are in a known order.
func tickingClock() func() time.Time {
	var mu sync.Mutex
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Minute)
		return now
	}
}

// startStack starts a service and an adapter over db; the test's cleanup
// stops them (and closes db) unless stop was called before.
func startStack(t testing.TB, fake *discordtest.Server, db *store.DB, ck *bottest.Checker) *stack {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	s := &stack{tracker: newTracker(t), fake: fake, db: db, checker: ck}
	addChannels(fake)
	s.svc = bot.New(db, ck, bot.Options{NoUserLimit: true, Logger: logger, Now: tickingClock()})
	var err error
	s.a, err = discord.New(discord.Config{Token: fake.Token, AppID: fake.AppID, APIURL: fake.APIURL(), Logger: s.logger()}, s.svc)
	if err != nil {
		t.Fatal(err)
	}
	run(t, s.svc, s.a)
	t.Cleanup(s.stop)
	return s
}

// stop shuts the process down as serve does: the core first (running
// checks stay pending), then the gateway, then the store.
func (s *stack) stop() {
	s.stopOnce.Do(func() {
		s.svc.Close()
		s.a.Close()
		s.db.Close()
	})
}

// waitDone waits until the request is finished in the store.
func (s *stack) waitDone(tenant, key string) *store.Request {
	s.t.Helper()
	var r *store.Request
	var err error
	s.poll(func(ctx context.Context) bool {
		r, err = s.db.Request(ctx, tenant, key)
		return err == nil && r.State != store.RequestPending
	}, func() string { return fmt.Sprintf("request %s/%s not finished (last: %+v, %v)", tenant, key, r, err) })
	return r
}

// callback waits for the interaction's response and returns it.
func (s *stack) callback(i *discordgo.Interaction) discordtest.Request {
	s.t.Helper()
	path := "/interactions/" + i.ID + "/" + i.Token + "/callback"
	reqs, err := s.fake.WaitRequests(s.ctx(), 1, func(r discordtest.Request) bool { return r.Method == "POST" && r.Path == path })
	if err != nil {
		s.t.Fatal(err)
	}
	return reqs[0]
}

// mentionIn is a message mentioning the bot; an empty guild is a DM.
func mentionIn(fake *discordtest.Server, guildID, channelID, id, text string) *discordgo.Message {
	return &discordgo.Message{ID: id, ChannelID: channelID, GuildID: guildID, Author: user(asker),
		Content: "<@" + fake.BotUser.ID + "> " + text, Mentions: []*discordgo.User{&fake.BotUser}}
}

// interaction returns an interaction of the asker, in guildID or (empty) a DM.
func interaction(id, guildID, channelID string, typ discordgo.InteractionType, data discordgo.InteractionData) *discordgo.Interaction {
	i := &discordgo.Interaction{ID: id, AppID: "100000000000000001", Type: typ, GuildID: guildID, ChannelID: channelID,
		Token: "tok-" + id, Version: 1, Data: data}
	if guildID != "" {
		i.Member = &discordgo.Member{User: user(asker)}
	} else {
		i.User = user(asker)
	}
	return i
}

func historyCmd(id, guildID, channelID string, count int, verdict factcheck.Label) *discordgo.Interaction {
	var opts []*discordgo.ApplicationCommandInteractionDataOption
	if count > 0 {
		opts = append(opts, &discordgo.ApplicationCommandInteractionDataOption{Name: "count", Type: discordgo.ApplicationCommandOptionInteger, Value: count})
	}
	if verdict != "" {
		opts = append(opts, &discordgo.ApplicationCommandInteractionDataOption{Name: "verdict", Type: discordgo.ApplicationCommandOptionString, Value: string(verdict)})
	}
	return interaction(id, guildID, channelID, discordgo.InteractionApplicationCommand,
		discordgo.ApplicationCommandInteractionData{ID: "cmd2", Name: discord.CommandHistory, CommandType: discordgo.ChatApplicationCommand, Options: opts})
}

// button is a click on the button customID under message m.
func button(id, guildID, channelID, customID string, m *discordgo.Message) *discordgo.Interaction {
	i := interaction(id, guildID, channelID, discordgo.InteractionMessageComponent,
		discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.ButtonComponent})
	i.Message = m
	return i
}

// buttonIDs lists the custom ids of a message's buttons.
func buttonIDs(m *discordgo.Message) []string {
	var ids []string
	for _, c := range m.Components {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, b := range row.Components {
			if b, ok := b.(*discordgo.Button); ok {
				ids = append(ids, b.CustomID)
			}
		}
	}
	return ids
}

// labelByText answers "cheese" claims as contradicted, others as supported.
func labelByText(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
	label := factcheck.Supported
	if strings.Contains(in.Text, "cheese") {
		label = factcheck.Contradicted
	}
	return bottest.Report(in, label), nil
}

// responseOf decodes an interaction callback.
func responseOf(t *testing.T, r discordtest.Request) *discordgo.InteractionResponse {
	t.Helper()
	var resp discordgo.InteractionResponse
	if err := r.JSON(&resp); err != nil {
		t.Fatalf("callback %s: %v", r.Body, err)
	}
	return &resp
}

var historyID = regexp.MustCompile("(?m)^`([^`]+)`")

// historyIDs returns the check ids listed by a /factcheck-history answer,
// in order.
func historyIDs(t *testing.T, resp *discordgo.InteractionResponse) []string {
	t.Helper()
	if resp.Data == nil || len(resp.Data.Embeds) != 1 {
		t.Fatalf("history answer = %+v, want one embed", resp.Data)
	}
	var ids []string
	for _, m := range historyID.FindAllStringSubmatch(resp.Data.Embeds[0].Description, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

func TestHistoryListsOnlyThisServersChecks(t *testing.T) {
	fake := discordtest.New(t)
	s := startStack(t, fake, openDB(t, filepath.Join(t.TempDir(), "factbot.db")), &bottest.Checker{Func: labelByText})

	// Checks one after another, so that their order is known.
	check := func(guildID, channelID, id, text string) string {
		t.Helper()
		tenant := guildID
		if tenant == "" {
			tenant = "dm:" + asker
		}
		if err := fake.MessageCreate(mentionIn(fake, guildID, channelID, id, text)); err != nil {
			t.Fatal(err)
		}
		r := s.waitDone(tenant, "discord:message:"+id)
		if r.State != store.RequestDone || r.CheckID == "" {
			t.Fatalf("request %s = %+v", id, r)
		}
		return r.CheckID
	}
	a1 := check(guild, channel, "410000000000000001", "The sky is blue.")
	a2 := check(guild, channel, "410000000000000002", "The Moon is made of cheese.")
	b1 := check(otherGuild, otherChannel, "410000000000000003", "Guild B secret claim.")
	a3 := check(guild, channel, "410000000000000004", "Water is wet.")
	d1 := check("", dmChannel, "410000000000000005", "A claim asked in private.")

	tests := []struct {
		name    string
		i       *discordgo.Interaction
		wantIDs []string
		title   string
	}{
		{"all", historyCmd("510000000000000001", guild, channel, 0, ""), []string{a3, a2, a1}, "Latest checks in this server"},
		{"count", historyCmd("510000000000000002", guild, channel, 2, ""), []string{a3, a2}, "Latest checks in this server"},
		{"verdict", historyCmd("510000000000000003", guild, channel, 0, factcheck.Contradicted), []string{a2}, "(Contradicted)"},
		{"other guild", historyCmd("510000000000000004", otherGuild, otherChannel, 0, ""), []string{b1}, "Latest checks"},
		{"direct messages", historyCmd("510000000000000005", "", dmChannel, 0, ""), []string{d1}, "Latest checks in our direct messages"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := fake.InteractionCreate(tc.i); err != nil {
				t.Fatal(err)
			}
			cb := s.callback(tc.i)
			resp := responseOf(t, cb)
			if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Data.Flags != discordgo.MessageFlagsEphemeral {
				t.Errorf("history answer: type %d flags %d, want an ephemeral message (type 4, flags 64)", resp.Type, resp.Data.Flags)
			}
			if diff := cmp.Diff(tc.wantIDs, historyIDs(t, resp)); diff != "" {
				t.Errorf("listed checks (-want +got):\n%s", diff)
			}
			e := resp.Data.Embeds[0]
			if !strings.Contains(e.Title, tc.title) {
				t.Errorf("title = %q, want it to contain %q", e.Title, tc.title)
			}
			if tc.i.GuildID == guild {
				for _, other := range []string{"Guild B secret", "in private", b1, d1} {
					if strings.Contains(string(cb.Body), other) {
						t.Errorf("history of %s shows %q from another tenant", guild, other)
					}
				}
			}
			checkNoMentions(t, []discordtest.Request{cb})
		})
	}
	// "mine": the asker's own checks; another member has none.
	mine := historyCmd("510000000000000006", guild, channel, 0, "")
	mineOpt := &discordgo.ApplicationCommandInteractionDataOption{Name: "mine", Type: discordgo.ApplicationCommandOptionBoolean, Value: true}
	data := mine.Data.(discordgo.ApplicationCommandInteractionData)
	data.Options = append(data.Options, mineOpt)
	mine.Data = data
	other := historyCmd("510000000000000007", guild, channel, 0, "")
	other.Data = data
	other.Member = &discordgo.Member{User: user("399999999999999999")}
	for _, tc := range []struct {
		i    *discordgo.Interaction
		want []string
	}{{mine, []string{a3, a2, a1}}, {other, nil}} {
		if err := fake.InteractionCreate(tc.i); err != nil {
			t.Fatal(err)
		}
		resp := responseOf(t, s.callback(tc.i))
		if tc.want == nil {
			if resp.Data == nil || !strings.Contains(resp.Data.Content, "No checks yet") {
				t.Errorf("another member's \"mine\" = %+v, want no checks", resp.Data)
			}
			continue
		}
		if diff := cmp.Diff(tc.want, historyIDs(t, resp)); diff != "" {
			t.Errorf("\"mine\" listed (-want +got):\n%s", diff)
		}
		if title := resp.Data.Embeds[0].Title; !strings.HasPrefix(title, "Your latest checks") {
			t.Errorf("\"mine\" title = %q", title)
		}
	}
	if n := len(fake.Matching("POST", "/webhooks/")); n != 0 {
		t.Errorf("%d follow-ups, want the history in the response itself", n)
	}
	if n := len(s.checker.Calls()); n != 5 {
		t.Errorf("checks run = %d, want 5 (history runs none)", n)
	}
}

func TestCheckAgainRunsAFreshCheck(t *testing.T) {
	for _, private := range []bool{false, true} {
		t.Run(map[bool]string{false: "public", true: "private"}[private], func(t *testing.T) {
			fake := discordtest.New(t)
			s := startStack(t, fake, openDB(t, filepath.Join(t.TempDir(), "factbot.db")), &bottest.Checker{})
			const text = "The Great Wall of China is visible from space."
			first := slash("520000000000000001", text, private)
			if err := fake.InteractionCreate(first); err != nil {
				t.Fatal(err)
			}
			r1 := s.waitDone(guild, "discord:interaction:"+first.ID)
			o1 := fake.Original(first.Token)
			if r1.State != store.RequestDone || o1 == nil {
				t.Fatalf("first check: request %+v, response %+v", r1, o1)
			}
			wantButtons := []string{bot.ActionRecheck + ":" + r1.CheckID, bot.ActionWrong + ":" + r1.CheckID}
			if diff := cmp.Diff(wantButtons, buttonIDs(o1)); diff != "" {
				t.Fatalf("buttons (-want +got):\n%s", diff)
			}

			// Click "Check again" on the report, as Discord sends it: the
			// message the button is on comes with the interaction.
			again := button("520000000000000002", guild, channel, wantButtons[0], o1)
			if err := fake.InteractionCreate(again); err != nil {
				t.Fatal(err)
			}
			r2 := s.waitDone(guild, "discord:interaction:"+again.ID)
			if r2.State != store.RequestDone || r2.Kind != bot.KindRecheck || !r2.Fresh || r2.Private != private ||
				r2.Meta[bot.MetaCheckID] != r1.CheckID {
				t.Errorf("recheck request = %+v", r2)
			}
			if r2.CheckID == "" || r2.CheckID == r1.CheckID {
				t.Errorf("recheck saved as %q, want a new check (first was %q)", r2.CheckID, r1.CheckID)
			}

			want := []factcheck.Input{{Tenant: guild, Text: text}, {Tenant: guild, Text: text, Fresh: true}}
			if diff := cmp.Diff(want, s.checker.Calls()); diff != "" {
				t.Errorf("checks (-want +got):\n%s", diff)
			}

			resp := responseOf(t, s.callback(again))
			wantFlags := discordgo.MessageFlags(0)
			if private {
				wantFlags = discordgo.MessageFlagsEphemeral
			}
			if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || resp.Data.Flags != wantFlags {
				t.Errorf("acknowledgement: type %d flags %d, want a deferred response (type 5) with flags %d", resp.Type, resp.Data.Flags, wantFlags)
			}
			o2 := fake.Original(again.Token)
			if o2 == nil || len(o2.Embeds) != 1 || !strings.Contains(o2.Embeds[0].Title, "Supported") || o2.Flags != wantFlags {
				t.Fatalf("re-posted report = %+v", o2)
			}
			if diff := cmp.Diff([]string{bot.ActionRecheck + ":" + r2.CheckID, bot.ActionWrong + ":" + r2.CheckID}, buttonIDs(o2)); diff != "" {
				t.Errorf("buttons of the new report (-want +got):\n%s", diff)
			}
			if got := fake.Original(first.Token); got.Embeds[0].Footer == nil || !strings.Contains(got.Embeds[0].Footer.Text, r1.CheckID) {
				t.Errorf("the first report was changed: %+v", got.Embeds[0])
			}
			// Private stays private: nothing in the channel, no DM either.
			for _, prefix := range []string{"/channels/", "/users/"} {
				if n := len(fake.Matching("POST", prefix)); n != 0 {
					t.Errorf("%d POST %s…, want the answers in the interaction responses only", n, prefix)
				}
			}
			checkNoMentions(t, fake.Requests())
		})
	}
}

func TestCheckAgainOnAnotherServersCheck(t *testing.T) {
	fake := discordtest.New(t)
	s := startStack(t, fake, openDB(t, filepath.Join(t.TempDir(), "factbot.db")), &bottest.Checker{})
	first := slash("530000000000000001", "A claim checked in guild A.", false)
	fake.InteractionCreate(first)
	r1 := s.waitDone(guild, "discord:interaction:"+first.ID)

	// The same button id, clicked in another server (a forged or copied id).
	again := button("530000000000000002", otherGuild, otherChannel, bot.ActionRecheck+":"+r1.CheckID, nil)
	if err := fake.InteractionCreate(again); err != nil {
		t.Fatal(err)
	}
	r2 := s.waitDone(otherGuild, "discord:interaction:"+again.ID)
	if r2.State != store.RequestFailed {
		t.Errorf("state = %s, want failed", r2.State)
	}
	o := fake.Original(again.Token)
	if o == nil || !strings.Contains(o.Content, "could not find that earlier check") || strings.Contains(o.Content, "guild A") {
		t.Errorf("answer = %+v, want \"could not find\" and nothing of guild A's check", o)
	}
	if n := len(s.checker.Calls()); n != 1 {
		t.Errorf("checks run = %d, want 1", n)
	}
}

// modalSubmit is the MODAL_SUBMIT interaction Discord sends for the
// feedback form, written as raw JSON: discordgo cannot marshal a modal
// submission's components.
func modalSubmit(id, guildID, channelID, customID, note string) map[string]any {
	i := map[string]any{
		"id": id, "application_id": "100000000000000001", "type": int(discordgo.InteractionModalSubmit),
		"channel_id": channelID, "token": "tok-" + id, "version": 1,
		"data": map[string]any{"custom_id": customID, "components": []any{
			map[string]any{"type": 1, "components": []any{
				map[string]any{"type": 4, "custom_id": "note", "value": note},
			}},
		}},
	}
	if guildID != "" {
		i["guild_id"] = guildID
		i["member"] = map[string]any{"user": user(asker)}
	} else {
		i["user"] = user(asker)
	}
	return i
}

func TestWrongVerdictRecordsFeedback(t *testing.T) {
	fake := discordtest.New(t)
	s := startStack(t, fake, openDB(t, filepath.Join(t.TempDir(), "factbot.db")), &bottest.Checker{Func: labelByText})
	m := mentionIn(fake, guild, channel, "540000000000000001", "The Moon is made of cheese.")
	if err := fake.MessageCreate(m); err != nil {
		t.Fatal(err)
	}
	r := s.waitDone(guild, "discord:message:"+m.ID)
	report := fake.Message(strings.TrimPrefix(r.Reply, "msg:"+channel+":"))
	wrongID := bot.ActionWrong + ":" + r.CheckID
	if ids := buttonIDs(report); len(ids) != 2 || ids[1] != wrongID {
		t.Fatalf("buttons = %v, want %s second", ids, wrongID)
	}

	// The click opens the form, in the clicker's language.
	click := button("540000000000000002", guild, channel, wrongID, report)
	click.Locale = discordgo.German
	if err := fake.InteractionCreate(click); err != nil {
		t.Fatal(err)
	}
	cb := s.callback(click)
	var modal struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data struct {
			CustomID   string `json:"custom_id"`
			Title      string `json:"title"`
			Components []struct {
				Type       int `json:"type"`
				Components []struct {
					Type     int    `json:"type"`
					CustomID string `json:"custom_id"`
					Required bool   `json:"required"`
				} `json:"components"`
			} `json:"components"`
		} `json:"data"`
	}
	if err := json.Unmarshal(cb.Body, &modal); err != nil {
		t.Fatal(err)
	}
	if modal.Type != discordgo.InteractionResponseModal || modal.Data.CustomID != wrongID || modal.Data.Title != "Falsches Urteil?" ||
		len(modal.Data.Components) != 1 || len(modal.Data.Components[0].Components) != 1 ||
		modal.Data.Components[0].Components[0].Type != int(discordgo.TextInputComponent) ||
		modal.Data.Components[0].Components[0].CustomID != "note" || modal.Data.Components[0].Components[0].Required {
		t.Fatalf("response = %s, want a modal (type 9) %q with one optional text input \"note\"", cb.Body, wrongID)
	}
	ctx := s.ctx()
	if c, err := s.db.Check(ctx, guild, r.CheckID); err != nil || len(c.Feedback) != 0 {
		t.Fatalf("before the form is sent: feedback %+v, %v", c, err)
	}

	tests := []struct {
		name, id, guild, channel, checkID, note string
		wantReply                               string
		wantFeedback                            []store.Feedback
	}{
		{"with a note", "540000000000000003", guild, channel, r.CheckID, "  The second source says 300 m.  ",
			"Thank you — your feedback was recorded with check " + r.CheckID,
			[]store.Feedback{{User: asker, Claim: -1, Note: "The second source says 300 m."}}},
		{"empty note", "540000000000000004", guild, channel, r.CheckID, "",
			"Thank you",
			[]store.Feedback{{User: asker, Claim: -1, Note: "The second source says 300 m."}, {User: asker, Claim: -1, Note: "wrong verdict"}}},
		{"another server's check", "540000000000000005", otherGuild, otherChannel, r.CheckID, "forged",
			"could not find that check",
			nil}, // unchanged
		{"unknown check", "540000000000000006", guild, channel, "20261129T000000Z-0000", "nope",
			"could not find that check",
			nil},
	}
	var want []store.Feedback
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := fake.Dispatch("INTERACTION_CREATE", modalSubmit(tc.id, tc.guild, tc.channel, bot.ActionWrong+":"+tc.checkID, tc.note)); err != nil {
				t.Fatal(err)
			}
			cb := s.callback(&discordgo.Interaction{ID: tc.id, Token: "tok-" + tc.id})
			resp := responseOf(t, cb)
			if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Data.Flags != discordgo.MessageFlagsEphemeral ||
				!strings.Contains(resp.Data.Content, tc.wantReply) {
				t.Errorf("answer: type %d flags %d %q, want an ephemeral message containing %q", resp.Type, resp.Data.Flags, resp.Data.Content, tc.wantReply)
			}
			checkNoMentions(t, []discordtest.Request{cb})
			if tc.wantFeedback != nil {
				want = tc.wantFeedback
			}
			c, err := s.db.Check(ctx, guild, r.CheckID)
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range c.Feedback {
				if f.At.IsZero() {
					t.Errorf("feedback %d has no time", i)
				}
				c.Feedback[i].At = time.Time{}
			}
			if diff := cmp.Diff(want, c.Feedback); diff != "" {
				t.Errorf("stored feedback (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := s.db.Check(ctx, otherGuild, r.CheckID); err == nil {
		t.Error("the check is visible from the other server")
	}

	// The answer is in the asker's client language (the interaction's locale).
	fr := modalSubmit("540000000000000007", guild, channel, bot.ActionWrong+":"+r.CheckID, "")
	fr["locale"] = "fr"
	if err := fake.Dispatch("INTERACTION_CREATE", fr); err != nil {
		t.Fatal(err)
	}
	wantFr := "Merci, votre avis a été enregistré avec la vérification " + r.CheckID + "."
	if resp := responseOf(t, s.callback(&discordgo.Interaction{ID: "540000000000000007", Token: "tok-540000000000000007"})); resp.Data.Content != wantFr {
		t.Errorf("French answer %q, want %q", resp.Data.Content, wantFr)
	}
}

func TestResumeAfterRestartEditsTheSameReply(t *testing.T) {
	const text = "The Eiffel Tower is 500 m tall."
	m := &discordgo.Message{ID: "550000000000000001", ChannelID: channel, GuildID: guild, Author: user(asker),
		Content: "<@100000000000000001> " + text}
	i := slash("550000000000000002", text, false)
	tests := []struct {
		name    string
		key     string
		deliver func(*discordtest.Server) error
		// reply is the handle the placeholder must have; answer is where
		// the report ends up; edits are the requests that edit it.
		reply  string
		answer func(fake *discordtest.Server, reply string) *discordgo.Message
		edits  string
	}{
		{
			name: "mention", key: "discord:message:" + m.ID,
			deliver: func(f *discordtest.Server) error { return f.MessageCreate(m) },
			reply:   "msg:" + channel + ":",
			answer: func(f *discordtest.Server, reply string) *discordgo.Message {
				return f.Message(strings.TrimPrefix(reply, "msg:"+channel+":"))
			},
			edits: "/channels/" + channel + "/messages/",
		},
		{
			name: "slash command", key: "discord:interaction:" + i.ID,
			deliver: func(f *discordtest.Server) error { return f.InteractionCreate(i) },
			reply:   "@original",
			answer:  func(f *discordtest.Server, _ string) *discordgo.Message { return f.Original(i.Token) },
			edits:   "/webhooks/" + i.AppID + "/" + i.Token + "/messages/@original",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := discordtest.New(t)
			path := filepath.Join(t.TempDir(), "factbot.db")
			ck1 := &bottest.Checker{Block: make(chan struct{}), Started: make(chan factcheck.Input, 1)}
			s1 := startStack(t, fake, openDB(t, path), ck1)
			if err := tc.deliver(fake); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ck1.Started: // the placeholder is posted and its handle saved before the check starts
			case <-s1.ctx().Done():
				t.Fatal("check not started")
			}
			r1, err := s1.db.Request(s1.ctx(), guild, tc.key)
			if err != nil {
				t.Fatal(err)
			}
			if r1.State != store.RequestPending || !strings.HasPrefix(r1.Reply, tc.reply) {
				t.Fatalf("before the restart: request %+v, want pending with reply %s…", r1, tc.reply)
			}
			placeholder := tc.answer(fake, r1.Reply)
			if placeholder == nil || !strings.Contains(placeholder.Content, "Checking") {
				t.Fatalf("placeholder = %+v", placeholder)
			}
			created := len(fake.Matching("POST", "/channels/")) + len(fake.Matching("POST", "/interactions/"))
			if created != 1 {
				t.Fatalf("before the restart: %d messages or responses created, want 1", created)
			}

			// Shut down mid-check: the check is cancelled, the request stays pending.
			s1.stop()
			if err := fake.WaitConnections(s1.ctx(), 0); err != nil {
				t.Fatal(err)
			}

			ck2 := &bottest.Checker{Label: factcheck.Contradicted}
			s2 := startStack(t, fake, openDB(t, path), ck2)
			r2 := s2.waitDone(guild, tc.key)
			if r2.State != store.RequestDone || r2.Reply != r1.Reply || r2.CheckID == "" || r2.Attempts != 2 {
				t.Errorf("after the restart: request %+v, want done in attempt 2 with reply %s", r2, r1.Reply)
			}
			if diff := cmp.Diff([]factcheck.Input{{Tenant: guild, Text: text}}, ck2.Calls()); diff != "" {
				t.Errorf("checks after the restart (-want +got):\n%s", diff)
			}
			if n := len(fake.Matching("POST", "/channels/")) + len(fake.Matching("POST", "/interactions/")); n != created {
				t.Errorf("messages or responses created = %d, want %d (the placeholder, edited after the restart)", n, created)
			}
			if n := len(fake.Matching("POST", "/webhooks/")); n != 0 {
				t.Errorf("%d follow-up messages, want none", n)
			}
			finals := 0
			for _, q := range fake.Matching("PATCH", "/") {
				if !strings.HasPrefix(q.Path, tc.edits) {
					t.Errorf("edit of %s, want only %s", q.Path, tc.edits)
				}
				if isFinal(q) {
					finals++
				}
			}
			if finals != 1 {
				t.Errorf("final reports = %d, want exactly 1", finals)
			}
			final := tc.answer(fake, r2.Reply)
			if final == nil || len(final.Embeds) != 1 || !strings.Contains(final.Embeds[0].Title, "Contradicted") ||
				final.ID != placeholder.ID {
				t.Errorf("answer = %+v, want the contradicted report in message %s", final, placeholder.ID)
			}

			// The event is delivered again after the restart: not answered again.
			before := len(fake.Requests())
			if err := tc.deliver(fake); err != nil {
				t.Fatal(err)
			}
			s2.waitHandled(tc.key, 1)
			var after []string
			for _, q := range fake.Requests()[before:] {
				after = append(after, q.Method+" "+q.Path)
			}
			if len(after) != 0 {
				t.Errorf("requests after the redelivery: %v, want none", after)
			}
			if n := len(ck2.Calls()); n != 1 {
				t.Errorf("checks after the redelivery = %d, want 1", n)
			}
			if r, err := s2.db.Request(s2.ctx(), guild, tc.key); err != nil || r.State != store.RequestDone || r.Attempts != 2 {
				t.Errorf("request after the redelivery = %+v, %v; want done after 2 attempts", r, err)
			}
		})
	}
}

func TestDirectMessageMention(t *testing.T) {
	tests := []struct {
		name, content string
	}{
		{"mention", "<@100000000000000001> Honey never spoils."},
		{"no mention", "Honey never spoils."}, // in a DM every message is for the bot
	}
	for n, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := discordtest.New(t)
			s := startStack(t, fake, openDB(t, filepath.Join(t.TempDir(), "factbot.db")), &bottest.Checker{})
			m := &discordgo.Message{ID: "56000000000000000" + string(rune('1'+n)), ChannelID: dmChannel, Author: user(asker), Content: tc.content}
			if err := fake.MessageCreate(m); err != nil {
				t.Fatal(err)
			}
			dm := "dm:" + asker
			r := s.waitDone(dm, "discord:message:"+m.ID)
			if r.State != store.RequestDone || r.Tenant != dm || r.Channel != dmChannel ||
				r.Link != "https://discord.com/channels/@me/"+dmChannel+"/"+m.ID {
				t.Errorf("request = %+v", r)
			}
			if diff := cmp.Diff([]factcheck.Input{{Tenant: dm, Text: "Honey never spoils."}}, s.checker.Calls()); diff != "" {
				t.Errorf("checks (-want +got):\n%s", diff)
			}
			if c, err := s.db.Check(s.ctx(), dm, r.CheckID); err != nil || c.Tenant != dm {
				t.Errorf("check saved as %+v, %v; want tenant %s", c, err, dm)
			}
			posts := fake.Matching("POST", "/channels/")
			if len(posts) != 1 || posts[0].Path != "/channels/"+dmChannel+"/messages" {
				t.Fatalf("posts = %+v, want one reply in the DM channel", posts)
			}
			var ms discordgo.MessageSend
			posts[0].JSON(&ms)
			if ms.Reference == nil || ms.Reference.MessageID != m.ID || ms.Reference.GuildID != "" {
				t.Errorf("reference = %+v, want the asked message, no guild", ms.Reference)
			}
			final := fake.Message(strings.TrimPrefix(r.Reply, "msg:"+dmChannel+":"))
			if final == nil || len(final.Embeds) != 1 || !strings.Contains(final.Embeds[0].Title, "Supported") {
				t.Errorf("reply = %+v", final)
			}

			// The report's buttons work in the DM too, in the DM's tenant.
			again := button("57000000000000000"+string(rune('1'+n)), "", dmChannel, bot.ActionRecheck+":"+r.CheckID, final)
			if err := fake.InteractionCreate(again); err != nil {
				t.Fatal(err)
			}
			r2 := s.waitDone(dm, "discord:interaction:"+again.ID)
			if o := fake.Original(again.Token); r2.State != store.RequestDone || o == nil || len(o.Embeds) != 1 {
				t.Errorf("Check again in a DM: request %+v, answer %+v", r2, o)
			}
			wantCalls := []factcheck.Input{{Tenant: dm, Text: "Honey never spoils."}, {Tenant: dm, Text: "Honey never spoils.", Fresh: true}}
			if diff := cmp.Diff(wantCalls, s.checker.Calls()); diff != "" {
				t.Errorf("checks after Check again (-want +got):\n%s", diff)
			}
			sub := "58000000000000000" + string(rune('1'+n))
			if err := fake.Dispatch("INTERACTION_CREATE", modalSubmit(sub, "", dmChannel, bot.ActionWrong+":"+r.CheckID, "no")); err != nil {
				t.Fatal(err)
			}
			if resp := responseOf(t, s.callback(&discordgo.Interaction{ID: sub, Token: "tok-" + sub})); !strings.Contains(resp.Data.Content, "Thank you") {
				t.Errorf("feedback in a DM answered %q", resp.Data.Content)
			}
			if c, err := s.db.Check(s.ctx(), dm, r.CheckID); err != nil || len(c.Feedback) != 1 || c.Feedback[0].Note != "no" {
				t.Errorf("feedback in a DM stored as %+v, %v", c, err)
			}
			checkNoMentions(t, fake.Requests())
		})
	}
}
