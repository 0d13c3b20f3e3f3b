package discord_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/discord"
	"github.com/factbot-dev/factbot/bot/discord/discordtest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/wait"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

const (
	guild   = "300000000000000001"
	channel = "300000000000000002"
	asker   = "300000000000000003"
)

// orderedService records, for each Submit, whether the fake had already
// received an acknowledgement for the interaction (it must not have).
type orderedService struct {
	*bot.Service
	fake *discordtest.Server

	// noOrderCheck skips the check (benchmarks: it scans every recorded
	// request while holding the acknowledgement back).
	noOrderCheck bool

	mu          sync.Mutex
	ackedBefore []string
	submits     int
	ackLat      []time.Duration // every acknowledgement latency observed
}

// ObserveAck records what the adapter observes (and feeds the service's
// factbot_ack_seconds).
func (o *orderedService) ObserveAck(platform string, d time.Duration) {
	o.Service.ObserveAck(platform, d)
	o.mu.Lock()
	o.ackLat = append(o.ackLat, d)
	o.mu.Unlock()
}

func (o *orderedService) Submit(ctx context.Context, r *store.Request) (bot.Result, error) {
	res, err := o.Service.Submit(ctx, r)
	if o.noOrderCheck {
		return res, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.submits++
	if id, ok := strings.CutPrefix(r.Key, "discord:interaction:"); ok && len(o.fake.Matching("POST", "/interactions/"+id+"/")) > 0 {
		o.ackedBefore = append(o.ackedBefore, r.Key)
	}
	return res, err
}

type harness struct {
	*tracker
	fake    *discordtest.Server
	store   *storetest.Memory
	checker *bottest.Checker
	svc     *orderedService
	a       *discord.Adapter
	key     ed25519.PrivateKey

	mu     sync.Mutex
	sleeps []time.Duration
}

type option func(*discord.Config, *bot.Options, *bottest.Checker)

func newHarness(t testing.TB, opts ...option) *harness {
	t.Helper()
	h := &harness{tracker: newTracker(t), fake: discordtest.New(t), store: storetest.NewMemory(), checker: &bottest.Checker{}}
	var st bot.Store = h.store
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	h.key = priv
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	bo := bot.Options{NoUserLimit: true, Logger: logger}
	cfg := discord.Config{
		Token: h.fake.Token, AppID: h.fake.AppID, APIURL: h.fake.APIURL(), PublicKey: hex.EncodeToString(pub),
		Logger: h.logger(),
		Sleep: func(ctx context.Context, d time.Duration) error {
			h.mu.Lock()
			h.sleeps = append(h.sleeps, d)
			h.mu.Unlock()
			return wait.Sleep(ctx, d)
		},
	}
	for _, o := range opts {
		o(&cfg, &bo, h.checker)
	}
	if bo.Metrics != nil { // benchmark marker: use the real bbolt store
		db, err := store.Open(filepath.Join(t.TempDir(), "factbot.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		st = db
		bo.Metrics = nil
	}
	addChannels(h.fake)
	h.svc = &orderedService{Service: bot.New(st, h.checker, bo), fake: h.fake}
	h.a, err = discord.New(cfg, h.svc)
	if err != nil {
		t.Fatal(err)
	}
	run(t, h.svc.Service, h.a)
	t.Cleanup(func() {
		h.svc.Close()
		h.a.Close()
	})
	return h
}

// addChannels makes the tests' guild channels known to the fake (text
// channels everyone can view), so that the adapter finds them in its state
// cache.
func addChannels(fake *discordtest.Server) {
	fake.AddChannel(&discordgo.Channel{ID: channel, GuildID: guild, Name: "general", Type: discordgo.ChannelTypeGuildText})
	fake.AddChannel(&discordgo.Channel{ID: otherChannel, GuildID: otherGuild, Name: "general", Type: discordgo.ChannelTypeGuildText})
}

// waitDone waits until the request is finished in the store.
func (h *harness) waitDone(tenant, key string) *store.Request {
	h.t.Helper()
	var r *store.Request
	h.poll(func(context.Context) bool {
		var err error
		r, err = h.store.Request(context.Background(), tenant, key)
		return err == nil && r.State != store.RequestPending
	}, func() string { return fmt.Sprintf("request %s not finished", key) })
	return r
}

// respond sends interaction i and returns the response the adapter gave
// to Discord's callback.
func (h *harness) respond(i *discordgo.Interaction) discordgo.InteractionResponse {
	h.t.Helper()
	if err := h.fake.InteractionCreate(i); err != nil {
		h.t.Fatal(err)
	}
	cb, err := h.fake.WaitRequests(h.ctx(), 1, func(r discordtest.Request) bool { return strings.HasPrefix(r.Path, "/interactions/"+i.ID) })
	if err != nil {
		h.t.Fatal(err)
	}
	var resp discordgo.InteractionResponse
	cb[0].JSON(&resp)
	return resp
}

func isFinal(r discordtest.Request) bool { return bytes.Contains(r.Body, []byte(bot.ActionRecheck)) }

func user(id string) *discordgo.User { return &discordgo.User{ID: id, Username: "u" + id} }

func (h *harness) mention(id, text string) *discordgo.Message {
	return &discordgo.Message{ID: id, ChannelID: channel, GuildID: guild, Author: user(asker),
		Content: "<@" + h.fake.BotUser.ID + "> " + text, Mentions: []*discordgo.User{&h.fake.BotUser}}
}

func slash(id, text string, private bool) *discordgo.Interaction {
	opts := []*discordgo.ApplicationCommandInteractionDataOption{{Name: "text", Type: discordgo.ApplicationCommandOptionString, Value: text}}
	if private {
		opts = append(opts, &discordgo.ApplicationCommandInteractionDataOption{Name: "private", Type: discordgo.ApplicationCommandOptionBoolean, Value: true})
	}
	return &discordgo.Interaction{ID: id, AppID: "100000000000000001", Type: discordgo.InteractionApplicationCommand,
		GuildID: guild, ChannelID: channel, Token: "tok-" + id, Version: 1,
		Member: &discordgo.Member{User: user(asker)},
		Data:   discordgo.ApplicationCommandInteractionData{ID: "cmd1", Name: discord.CommandFactcheck, CommandType: discordgo.ChatApplicationCommand, Options: opts},
	}
}

// sent is the part of every message-creating or -editing body the tests check.
type sent struct {
	AllowedMentions *struct {
		Parse []string `json:"parse"`
	} `json:"allowed_mentions"`
	Data *struct {
		AllowedMentions *struct {
			Parse []string `json:"parse"`
		} `json:"allowed_mentions"`
	} `json:"data"`
}

// checkNoMentions asserts that every create/edit sent to the fake sets
// allowed_mentions to {"parse": []}.
func checkNoMentions(t *testing.T, reqs []discordtest.Request) {
	t.Helper()
	n := 0
	for _, r := range reqs {
		if r.Method == "GET" || strings.HasPrefix(r.Path, "/applications/") || r.Status == 429 {
			continue
		}
		var s sent
		if err := json.Unmarshal(r.Body, &s); err != nil {
			t.Errorf("%s %s: %v", r.Method, r.Path, err)
			continue
		}
		am := s.AllowedMentions
		if s.Data != nil {
			am = s.Data.AllowedMentions
		}
		if strings.HasPrefix(r.Path, "/interactions/") && s.Data == nil {
			continue // no message (modal, pong)
		}
		if am == nil || am.Parse == nil || len(am.Parse) != 0 {
			t.Errorf("%s %s: allowed_mentions = %s, want {\"parse\": []}", r.Method, r.Path, r.Body)
		}
		n++
	}
	if n == 0 {
		t.Error("no message was sent")
	}
}

// TestShardIdentify: a replica given a shard identifies with it; without
// one it sends no shard (the whole bot).
func TestShardIdentify(t *testing.T) {
	h := newHarness(t, func(c *discord.Config, _ *bot.Options, _ *bottest.Checker) { c.ShardID, c.ShardCount = 1, 3 })
	var id struct {
		Shard *[2]int `json:"shard"`
	}
	if err := json.Unmarshal(h.fake.Identify(), &id); err != nil {
		t.Fatal(err)
	}
	if id.Shard == nil || *id.Shard != [2]int{1, 3} {
		t.Errorf("identify shard = %v, want [1 3]", id.Shard)
	}
	one := newHarness(t)
	id.Shard = nil
	if err := json.Unmarshal(one.fake.Identify(), &id); err != nil {
		t.Fatal(err)
	}
	if id.Shard != nil {
		t.Errorf("identify without sharding sent shard %v, want none", *id.Shard)
	}
	if _, err := discord.New(discord.Config{Token: "t", ShardID: 3, ShardCount: 3}, nil); err == nil || !strings.Contains(err.Error(), "shard") {
		t.Errorf("New with shard 3 of 3: %v, want an error naming the shard", err)
	}
}

func TestStartIdentifiesAndRegistersCommands(t *testing.T) {
	h := newHarness(t, func(c *discord.Config, _ *bot.Options, _ *bottest.Checker) { c.GuildID = guild })
	var id struct {
		Intents int `json:"intents"`
	}
	if err := json.Unmarshal(h.fake.Identify(), &id); err != nil {
		t.Fatal(err)
	}
	if id.Intents != int(discord.Intents) || discord.Intents != 1|1<<9|1<<12 {
		t.Errorf("intents = %d, want guilds|guild messages|direct messages = %d", id.Intents, 1|1<<9|1<<12)
	}
	reqs := h.fake.Matching("PUT", "/applications/"+h.fake.AppID+"/guilds/"+guild+"/commands")
	if len(reqs) != 1 {
		t.Fatalf("guild command overwrites = %d, want 1", len(reqs))
	}
	var cmds []discordgo.ApplicationCommand
	reqs[0].JSON(&cmds)
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	if diff := cmp.Diff([]string{discord.CommandFactcheck, discord.CommandHistory, discord.CommandMessage}, names); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
}

func TestGlobalCommandsWithoutGuild(t *testing.T) {
	h := newHarness(t)
	if n := len(h.fake.Matching("PUT", "/applications/"+h.fake.AppID+"/commands")); n != 1 {
		t.Errorf("global command overwrites = %d, want 1", n)
	}
}

func TestMentionRepliesToTheMessage(t *testing.T) {
	h := newHarness(t, func(_ *discord.Config, _ *bot.Options, ck *bottest.Checker) { ck.Label = factcheck.Contradicted })
	if err := h.fake.MessageCreate(h.mention("400000000000000001", "The Eiffel Tower is 500 m tall.")); err != nil {
		t.Fatal(err)
	}
	r := h.waitDone(guild, "discord:message:400000000000000001")
	if r.State != store.RequestDone {
		t.Fatalf("state = %s", r.State)
	}
	posts := h.fake.Matching("POST", "/channels/"+channel+"/messages")
	if len(posts) != 1 {
		t.Fatalf("messages posted = %d, want 1 (then edited)", len(posts))
	}
	var ms discordgo.MessageSend
	posts[0].JSON(&ms)
	if ms.Reference == nil || ms.Reference.MessageID != "400000000000000001" {
		t.Errorf("reply references %+v, want the asked message", ms.Reference)
	}
	edits := h.fake.Matching("PATCH", "/channels/"+channel+"/messages/")
	if len(edits) == 0 || !isFinal(edits[len(edits)-1]) {
		t.Fatalf("no final edit: %d edits", len(edits))
	}
	id := strings.TrimPrefix(r.Reply, "msg:"+channel+":")
	m := h.fake.Message(id)
	if len(m.Embeds) != 1 || !strings.Contains(m.Embeds[0].Title, "Contradicted") || m.Embeds[0].Color != discord.Color(factcheck.Contradicted) {
		t.Errorf("final embeds = %+v", m.Embeds)
	}
	if got := h.checker.Calls(); len(got) != 1 || got[0].Text != "The Eiffel Tower is 500 m tall." || got[0].Tenant != guild {
		t.Errorf("checked %+v", got)
	}
	checkNoMentions(t, h.fake.Requests())
}

// TestOnlyALinkReachesTheCoreAsItsURL: a link written <https://…> (no
// preview) reaches the core and the engine as the plain URL.
func TestOnlyALinkReachesTheCoreAsItsURL(t *testing.T) {
	h := newHarness(t)
	m := h.mention("400000000000000051", "<https://example.com/a?b=1>")
	if err := h.fake.MessageCreate(m); err != nil {
		t.Fatal(err)
	}
	h.waitDone(guild, "discord:message:"+m.ID)
	if got := h.checker.Calls(); len(got) != 1 || got[0].Text != "https://example.com/a?b=1" {
		t.Errorf("checked %+v, want the URL alone", got)
	}
}

func TestIgnoresBotsAndUnmentionedMessages(t *testing.T) {
	h := newHarness(t)
	fromBot := h.mention("400000000000000011", "claim")
	fromBot.Author.Bot = true
	self := h.mention("400000000000000012", "claim")
	self.Author = &h.fake.BotUser
	plain := h.mention("400000000000000013", "claim")
	plain.Content = "no mention here"
	for _, m := range []*discordgo.Message{fromBot, self, plain} {
		if err := h.fake.MessageCreate(m); err != nil {
			t.Fatal(err)
		}
		h.waitHandled("discord:message:"+m.ID, 1)
	}
	if n := h.store.RequestCount(); n != 0 {
		t.Errorf("stored %d requests, want 0", n)
	}
}

func TestSlashCommandDeferredThenEdited(t *testing.T) {
	for _, private := range []bool{false, true} {
		t.Run(map[bool]string{false: "public", true: "private"}[private], func(t *testing.T) {
			h := newHarness(t)
			i := slash("500000000000000001", "Water boils at 100 °C at sea level.", private)
			if err := h.fake.InteractionCreate(i); err != nil {
				t.Fatal(err)
			}
			r := h.waitDone(guild, "discord:interaction:"+i.ID)
			if r.State != store.RequestDone || r.Reply != "@original" {
				t.Fatalf("request = %+v", r)
			}
			reqs := h.fake.Requests()
			cb := -1
			var firstEdit, lastEdit int = -1, -1
			for n, q := range reqs {
				switch {
				case q.Method == "POST" && q.Path == "/interactions/"+i.ID+"/"+i.Token+"/callback":
					cb = n
				case q.Method == "PATCH" && q.Path == "/webhooks/"+i.AppID+"/"+i.Token+"/messages/@original":
					if firstEdit < 0 {
						firstEdit = n
					}
					lastEdit = n
				}
			}
			if cb < 0 || firstEdit < cb {
				t.Fatalf("callback at %d, first edit at %d: want the deferral first", cb, firstEdit)
			}
			var resp discordgo.InteractionResponse
			reqs[cb].JSON(&resp)
			wantFlags := discordgo.MessageFlags(0)
			if private {
				wantFlags = discordgo.MessageFlagsEphemeral
			}
			if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || resp.Data.Flags != wantFlags {
				t.Errorf("deferral = type %d flags %d, want type 5 flags %d", resp.Type, resp.Data.Flags, wantFlags)
			}
			if !isFinal(reqs[lastEdit]) {
				t.Error("last edit is not the final report")
			}
			o := h.fake.Original(i.Token)
			if o == nil || len(o.Embeds) != 1 || !strings.Contains(o.Embeds[0].Title, "Supported") || o.Flags != wantFlags {
				t.Errorf("original = %+v", o)
			}
			if len(h.svc.ackedBefore) != 0 {
				t.Errorf("acknowledged before stored: %v", h.svc.ackedBefore)
			}
			if n := len(h.fake.Matching("POST", "/channels/")); n != 0 {
				t.Errorf("%d channel messages, want 0 (answer in the response)", n)
			}
			checkNoMentions(t, reqs)
		})
	}
}

func TestMessageCommandRepliesToTarget(t *testing.T) {
	h := newHarness(t)
	target := &discordgo.Message{ID: "600000000000000001", ChannelID: channel, Content: "The Moon is made of cheese.", Author: user("777")}
	i := &discordgo.Interaction{ID: "600000000000000002", AppID: h.fake.AppID, Type: discordgo.InteractionApplicationCommand,
		GuildID: guild, ChannelID: channel, Token: "tok-msgcmd", Member: &discordgo.Member{User: user(asker)},
		Data: discordgo.ApplicationCommandInteractionData{ID: "cmd3", Name: discord.CommandMessage, CommandType: discordgo.MessageApplicationCommand,
			TargetID: target.ID, Resolved: &discordgo.ApplicationCommandInteractionDataResolved{Messages: map[string]*discordgo.Message{target.ID: target}}},
	}
	if err := h.fake.InteractionCreate(i); err != nil {
		t.Fatal(err)
	}
	r := h.waitDone(guild, "discord:interaction:"+i.ID)
	if r.Kind != bot.KindShortcut || r.Text != target.Content {
		t.Errorf("request kind %s text %q", r.Kind, r.Text)
	}
	cb := h.fake.Matching("POST", "/interactions/"+i.ID+"/")
	var resp discordgo.InteractionResponse
	if len(cb) != 1 || cb[0].JSON(&resp) != nil || resp.Data.Flags != discordgo.MessageFlagsEphemeral {
		t.Errorf("acknowledgement = %+v", cb)
	}
	posts := h.fake.Matching("POST", "/channels/"+channel+"/messages")
	var ms discordgo.MessageSend
	if len(posts) != 1 || posts[0].JSON(&ms) != nil || ms.Reference == nil || ms.Reference.MessageID != target.ID {
		t.Fatalf("reply = %+v", posts)
	}
	if edits := h.fake.Matching("PATCH", "/channels/"+channel+"/messages/"); len(edits) == 0 || !isFinal(edits[len(edits)-1]) {
		t.Error("report not edited into the reply")
	}
	checkNoMentions(t, h.fake.Requests())
}

func TestRedeliveryAnsweredOnce(t *testing.T) {
	h := newHarness(t)
	m := h.mention("400000000000000021", "Paris is the capital of France.")
	i := slash("500000000000000021", "Rome is the capital of Italy.", false)
	for range 2 {
		if err := h.fake.MessageCreate(m); err != nil {
			t.Fatal(err)
		}
		if err := h.fake.InteractionCreate(i); err != nil {
			t.Fatal(err)
		}
	}
	h.waitHandled("discord:message:"+m.ID, 2)
	h.waitHandled("discord:interaction:"+i.ID, 2)
	h.waitDone(guild, "discord:message:"+m.ID)
	h.waitDone(guild, "discord:interaction:"+i.ID)
	if n := len(h.fake.Matching("POST", "/channels/"+channel+"/messages")); n != 1 {
		t.Errorf("mention replies = %d, want 1", n)
	}
	if n := len(h.fake.Matching("POST", "/interactions/")); n != 1 {
		t.Errorf("interaction callbacks = %d, want 1", n)
	}
	if n := len(h.checker.Calls()); n != 2 {
		t.Errorf("checks run = %d, want 2", n)
	}
}

func TestMentionsNeverPing(t *testing.T) {
	claim := "@everyone listen: <@&123> and <@456> say @here the [prize](https://evil.example) is real"
	h := newHarness(t, func(_ *discord.Config, _ *bot.Options, ck *bottest.Checker) {
		ck.Func = func(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
			progress := in.Progress
			in.Progress = nil
			rep := bottest.Report(in, factcheck.Contested)
			rep.Claims[0].Reasoning = "Page text: @everyone <@&123> " + claim
			rep.Claims[0].Evidence[0].QuoteOrSummary = "<@&123> @here quote"
			rep.Claims[0].Evidence[0].SourceTitle = "@everyone title"
			progress(factcheck.Event{Kind: factcheck.EventVerdict, Claim: 0, Verdict: rep.Claims[0]})
			return rep, nil
		}
	})
	m := h.mention("400000000000000031", claim)
	i := slash("500000000000000031", claim, false)
	h.fake.MessageCreate(m)
	h.fake.InteractionCreate(i)
	r := h.waitDone(guild, "discord:message:"+m.ID)
	h.waitDone(guild, "discord:interaction:"+i.ID)
	reqs := h.fake.Requests()
	checkNoMentions(t, reqs)
	for _, q := range reqs {
		for _, bad := range []string{"@everyone", "@here", "<@&123>", "<@456>", "](https://evil"} {
			if bytes.Contains(q.Body, []byte(bad)) {
				t.Errorf("%s %s carries %q: %s", q.Method, q.Path, bad, q.Body)
			}
		}
	}
	final := h.fake.Message(strings.TrimPrefix(r.Reply, "msg:"+channel+":"))
	if !strings.Contains(final.Embeds[0].Title, "everyone") {
		t.Errorf("claim text lost: %q", final.Embeds[0].Title)
	}
}

func TestRateLimitRetriedWithinBound(t *testing.T) {
	h := newHarness(t, func(c *discord.Config, _ *bot.Options, _ *bottest.Checker) { c.MaxRetries = 2 })
	isPost := func(method, path string) bool { return method == "POST" && strings.HasPrefix(path, "/channels/") }

	// Two 429s, then success: posted after waiting retry_after each time.
	h.fake.RateLimit(2, 30*time.Millisecond, false, isPost)
	m := h.mention("400000000000000041", "Sharks are fish.")
	h.fake.MessageCreate(m)
	r := h.waitDone(guild, "discord:message:"+m.ID)
	if r.State != store.RequestDone || !strings.HasPrefix(r.Reply, "msg:") {
		t.Fatalf("request = %+v", r)
	}
	var statuses []int
	for _, q := range h.fake.Matching("POST", "/channels/"+channel+"/messages") {
		statuses = append(statuses, q.Status)
	}
	if diff := cmp.Diff([]int{429, 429, 200}, statuses); diff != "" {
		t.Errorf("POST statuses (-want +got):\n%s", diff)
	}
	h.mu.Lock()
	sleeps := append([]time.Duration(nil), h.sleeps...)
	h.mu.Unlock()
	if diff := cmp.Diff([]time.Duration{30 * time.Millisecond, 30 * time.Millisecond}, sleeps); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}

	// Always 429: the call gives up after 1 + MaxRetries attempts.
	h.fake.RateLimit(100, 10*time.Millisecond, true, isPost)
	before := len(h.fake.Matching("POST", "/channels/"+channel+"/messages"))
	_, err := h.a.Post(context.Background(), &store.Request{Key: "k", Channel: channel, Thread: "1"}, bot.English.RenderPlaceholder())
	if !errors.Is(err, discord.ErrRateLimited) {
		t.Fatalf("Post err = %v, want ErrRateLimited", err)
	}
	if n := len(h.fake.Matching("POST", "/channels/"+channel+"/messages")) - before; n != 3 {
		t.Errorf("attempts = %d, want 3", n)
	}
}

// TestRetryAfterOverTheBoundGivesUp: a 429 asking for longer than
// MaxRetryWait is not waited out.
func TestRetryAfterOverTheBoundGivesUp(t *testing.T) {
	h := newHarness(t)
	h.fake.RateLimit(1, 2*time.Minute, false, func(method, path string) bool {
		return method == "POST" && strings.HasPrefix(path, "/channels/")
	})
	_, err := h.a.Post(context.Background(), &store.Request{Key: "k", Channel: channel, Thread: "1"}, bot.English.RenderPlaceholder())
	if !errors.Is(err, discord.ErrRateLimited) {
		t.Fatalf("Post err = %v, want ErrRateLimited", err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sleeps) != 0 {
		t.Errorf("slept %v, want no wait", h.sleeps)
	}
}

func TestHTTPInteractions(t *testing.T) {
	h := newHarness(t)
	mux := http.NewServeMux()
	if !h.a.Routes(mux) {
		t.Fatal("Routes: HTTP interactions not enabled with a public key")
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	url := srv.URL + discord.InteractionsPath
	ctx := h.ctx()

	ping := &discordgo.Interaction{ID: "700000000000000001", AppID: h.fake.AppID, Type: discordgo.InteractionPing, Token: "p", Version: 1}
	status, body, err := h.fake.DeliverInteraction(ctx, url, h.key, ping)
	if err != nil || status != 200 || strings.TrimSpace(string(body)) != `{"type":1}` {
		t.Fatalf("PING → %d %s %v, want 200 {\"type\":1}", status, body, err)
	}

	raw, _ := json.Marshal(ping)
	_, wrong, _ := ed25519.GenerateKey(nil)
	now := strconv.FormatInt(time.Now().Unix(), 10) // fresh: refused for the signature alone
	for name, sign := range map[string]func(*http.Request){
		"tampered body": func(r *http.Request) {
			discordtest.SignInteraction(r.Header, h.key, now, raw)
			r.Body = io.NopCloser(bytes.NewReader(bytes.Replace(raw, []byte(`"type":1`), []byte(`"type":2`), 1)))
		},
		"wrong key":    func(r *http.Request) { discordtest.SignInteraction(r.Header, wrong, now, raw) },
		"no signature": func(r *http.Request) {},
		"bad hex": func(r *http.Request) {
			r.Header.Set("X-Signature-Ed25519", "zz")
			r.Header.Set("X-Signature-Timestamp", now)
		},
	} {
		req, _ := http.NewRequest("POST", url, bytes.NewReader(raw))
		sign(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s → %d, want 401", name, resp.StatusCode)
		}
	}
	if n := h.store.RequestCount(); n != 0 {
		t.Errorf("stored %d requests from refused deliveries", n)
	}

	// A signed /factcheck: deferred in the HTTP response, then edited over REST.
	i := slash("700000000000000002", "Mount Everest is 8,849 m tall.", true)
	status, body, err = h.fake.DeliverInteraction(ctx, url, h.key, i)
	var resp discordgo.InteractionResponse
	if err != nil || status != 200 || json.Unmarshal(body, &resp) != nil {
		t.Fatalf("/factcheck → %d %s %v", status, body, err)
	}
	if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || resp.Data.Flags != discordgo.MessageFlagsEphemeral {
		t.Errorf("response = %s, want a deferred ephemeral response", body)
	}
	r := h.waitDone(guild, "discord:interaction:"+i.ID)
	if r.State != store.RequestDone {
		t.Fatalf("state = %s", r.State)
	}
	if o := h.fake.Original(i.Token); o == nil || len(o.Embeds) != 1 || !strings.Contains(o.Embeds[0].Title, "Supported") {
		t.Errorf("original = %+v", o)
	}
	if len(h.svc.ackedBefore) != 0 {
		t.Errorf("acknowledged before stored: %v", h.svc.ackedBefore)
	}
}

func TestRefusalShownInAcknowledgement(t *testing.T) {
	h := newHarness(t, func(_ *discord.Config, o *bot.Options, _ *bottest.Checker) { o.MaxInput = 20 })
	i := slash("800000000000000001", strings.Repeat("long text ", 10), false)
	resp := h.respond(i)
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Data.Flags != discordgo.MessageFlagsEphemeral ||
		!strings.Contains(resp.Data.Content, "too long") {
		t.Errorf("refusal = %+v", resp)
	}
	h.waitDone(guild, "discord:interaction:"+i.ID)
	if n := len(h.checker.Calls()); n != 0 {
		t.Errorf("checked %d times", n)
	}
}

// outlastToken sends the interaction i of guildID to a new harness whose
// check takes 20 minutes, past the interaction token's 15, and returns
// the harness and the request once it is done.
func outlastToken(t *testing.T, i *discordgo.Interaction, guildID string) (*harness, *store.Request) {
	t.Helper()
	clock := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	h := newHarness(t, func(c *discord.Config, _ *bot.Options, ck *bottest.Checker) {
		c.Now = clock.Now
		ck.Block = make(chan struct{})
		ck.Started = make(chan factcheck.Input, 1)
	})
	if err := h.fake.InteractionCreate(i); err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.checker.Started:
	case <-h.ctx().Done():
		t.Fatal("check not started")
	}
	clock.Add(20 * time.Minute)
	close(h.checker.Block)
	return h, h.waitDone(guildID, "discord:interaction:"+i.ID)
}

func TestTokenExpiredFinishesWithChannelMessage(t *testing.T) {
	h, r := outlastToken(t, slash("900000000000000001", "A long check.", false), guild)
	if !strings.HasPrefix(r.Reply, "msg:"+channel+":") {
		for _, q := range h.fake.Requests() {
			t.Logf("%s %s %d %.120s", q.Method, q.Path, q.Status, q.Body)
		}
		t.Fatalf("reply = %q, want a channel message", r.Reply)
	}
	posts := h.fake.Matching("POST", "/channels/"+channel+"/messages")
	if len(posts) != 1 || !isFinal(posts[0]) {
		t.Errorf("channel messages = %d (final: %v)", len(posts), len(posts) == 1 && isFinal(posts[0]))
	}
}

// TestAckLatencyObserved: the adapter reports each acknowledgement's
// latency to the service (factbot_ack_seconds).
func TestAckLatencyObserved(t *testing.T) {
	h := newHarness(t)
	i := slash("500000000000000077", "Snow is white.", false)
	if err := h.fake.InteractionCreate(i); err != nil {
		t.Fatal(err)
	}
	h.waitHandled("discord:interaction:"+i.ID, 1)
	h.svc.mu.Lock()
	defer h.svc.mu.Unlock()
	if len(h.svc.ackLat) != 1 || h.svc.ackLat[0] <= 0 {
		t.Errorf("observed ack latencies %v, want one > 0", h.svc.ackLat)
	}
}

// BenchmarkDeferralBurst sends 1,000 /factcheck interactions per iteration
// with an instant checker (answers are posted meanwhile) and reports two
// latencies, both with the request stored (fsync'd, for bbolt) before the
// deferral:
//
//   - e2e-p50/p99-ms: from the fake gateway starting to write
//     INTERACTION_CREATE to the fake REST API receiving the deferred
//     response. The fake gateway and REST server, discordgo's single
//     gateway reader and the bot share the same cores.
//   - bot-p50/p99-ms: the bot's own latency, as factbot_ack_seconds
//     measures it: from the handler receiving the decoded interaction to
//     the callback's response (the REST round trip included).
//
// Patterns: "burst" sends back to back; "spread1s" sends one every
// millisecond.
func BenchmarkDeferralBurst(b *testing.B) {
	for _, name := range []string{"memstore/burst", "bbolt/burst", "memstore/spread1s", "bbolt/spread1s"} {
		b.Run(name, func(b *testing.B) {
			backend, pattern, _ := strings.Cut(name, "/")
			h := newHarness(b, func(c *discord.Config, o *bot.Options, _ *bottest.Checker) {
				c.SubmitTimeout = time.Minute
				if backend == "bbolt" {
					o.Metrics = bot.NewMetrics(nil)
				}
			})
			h.svc.noOrderCheck = true
			spacing := time.Duration(0)
			if pattern == "spread1s" {
				spacing = time.Millisecond
			}
			const burst = 1000
			var lat []time.Duration
			isCallback := func(r discordtest.Request) bool { return strings.HasPrefix(r.Path, "/interactions/") }
			n := 0
			for b.Loop() {
				sent := make(map[string]time.Time, burst)
				t0 := time.Now()
				for k := range burst {
					id := fmt.Sprintf("9%08d%09d", n, k)
					i := slash(id, "Claim number "+id, false)
					if spacing > 0 {
						if d := time.Until(t0.Add(time.Duration(k) * spacing)); d > 0 {
							time.Sleep(d)
						}
					}
					sent[id] = time.Now()
					if err := h.fake.InteractionCreate(i); err != nil {
						b.Fatal(err)
					}
				}
				n++
				cbs, err := h.fake.WaitRequests(context.Background(), burst*n, isCallback)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range cbs {
					id := strings.Split(r.Path, "/")[2]
					if at, ok := sent[id]; ok {
						lat = append(lat, r.At.Sub(at))
					}
				}
			}
			h.svc.mu.Lock()
			own := append([]time.Duration(nil), h.svc.ackLat...)
			h.svc.mu.Unlock()
			pct := func(d []time.Duration, p float64) float64 {
				sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
				return float64(d[int(p*float64(len(d)-1))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(lat, 0.50), "e2e-p50-ms")
			b.ReportMetric(pct(lat, 0.99), "e2e-p99-ms")
			b.ReportMetric(pct(own, 0.50), "bot-p50-ms")
			b.ReportMetric(pct(own, 0.99), "bot-p99-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}
