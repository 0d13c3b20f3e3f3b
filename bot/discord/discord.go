// Package discord is factbot's Discord adapter: it connects to the gateway
// with discordgo, turns mentions, the /factcheck and /factcheck-history
// commands, the "Fact-check" message command and report buttons into
// platform-neutral bot.Requests, and renders the core's answers as embeds
// within Discord's limits. Every message it sends suppresses mentions.
//
// Interactions can also arrive over HTTP (POST /discord/interactions) when
// a public key is configured; requests are verified with Ed25519 first.
package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/internal/wait"
)

// Name is the adapter's platform name (bot.Request.Platform).
const Name = "discord"

// Intents are the gateway intents the bot asks for: none is privileged,
// since Discord delivers the content of messages that mention the app and
// of direct messages.
const Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages

// tokenTTL is how long an interaction token can be used; tokenMargin keeps
// clear of its end.
const (
	tokenTTL    = 15 * time.Minute
	tokenMargin = 30 * time.Second
)

// Meta keys stored with interaction requests.
const (
	metaToken       = "token"
	metaAppID       = "app_id"
	metaInteraction = "interaction_id"
	metaReceived    = "received" // unix milliseconds
	metaGuild       = "guild_id"
)

// Reply handles returned by Post.
const replyOriginal = "@original"

// Service is what the adapter needs of the chat core; *bot.Service
// satisfies it.
type Service interface {
	Submit(ctx context.Context, r *bot.Request) (bot.Result, error)
	History(ctx context.Context, tenant string, q bot.HistoryQuery) ([]bot.CheckSummary, error)
	Feedback(ctx context.Context, tenant, checkID string, f bot.Feedback) error
}

// ackObserver is implemented by services that record acknowledgement
// latency (*bot.Service: the factbot_ack_seconds histogram).
type ackObserver interface {
	ObserveAck(platform string, d time.Duration)
}

// Config configures an Adapter.
type Config struct {
	// Token is the bot token (DISCORD_BOT_TOKEN), with or without "Bot ".
	Token string
	// AppID is the application id (DISCORD_APP_ID); when empty it is taken
	// from the gateway's READY event.
	AppID string
	// PublicKey is the application's hex Ed25519 public key
	// (DISCORD_PUBLIC_KEY); set, it enables HTTP interactions.
	PublicKey string
	// GuildID (DISCORD_GUILD_ID) registers the commands in one server, for
	// instant updates while testing; empty registers them globally.
	GuildID string
	// APIURL overrides the REST base URL https://discord.com/api/v9/
	// (DISCORD_API_URL, tests). The gateway address comes from GET /gateway.
	APIURL string
	// HTTPClient carries REST requests (default: 30 s timeout).
	HTTPClient *http.Client
	// MaxRetries bounds the retries of one REST call answered 429
	// (default 3); MaxRetryWait bounds one wait (default 30 s): a longer
	// retry_after fails the call at once.
	MaxRetries   int
	MaxRetryWait time.Duration
	// SubmitTimeout bounds storing a request before the acknowledgement
	// (default 2 s, inside Discord's 3 s).
	SubmitTimeout time.Duration
	Logger        *slog.Logger
	// Now and Sleep are the clock (tests).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Adapter is the Discord adapter. It implements bot.Platform.
type Adapter struct {
	cfg    Config
	svc    Service
	s      *discordgo.Session
	rest   *retrier
	log    *slog.Logger
	pub    ed25519.PublicKey
	openMu sync.Mutex
	opened bool
	mu     sync.Mutex
	acks   map[string]*ack
	appID  string
	botID  string
	// handled, if set, is called when an event's handling is over (tests).
	handled func(key string)
	// callbacks bounds the interaction callbacks in flight, so that a burst
	// reuses the pooled API connections instead of dialling one per
	// interaction.
	callbacks chan struct{}
}

// maxCallbacks bounds concurrent interaction callbacks; it matches the idle
// connections kept to the API.
const maxCallbacks = 64

// ack tracks an interaction's acknowledgement so that answers wait for it.
type ack struct {
	done     chan struct{}
	ok       bool // a (deferred) response exists: @original can be edited
	notified bool // the refusal was shown in the acknowledgement itself
}

// New returns an adapter; nothing connects until Start or Run.
func New(cfg Config, svc Service) (*Adapter, error) {
	tok := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cfg.Token), "Bot "))
	if tok == "" {
		return nil, &usererr.Config{Var: "DISCORD_BOT_TOKEN", Msg: "not set",
			Hint: "Discord Developer Portal → your application → Bot → Reset Token"}
	}
	a := &Adapter{cfg: cfg, svc: svc, acks: map[string]*ack{}, appID: cfg.AppID,
		callbacks: make(chan struct{}, maxCallbacks)}
	if cfg.PublicKey != "" {
		k, err := hex.DecodeString(strings.TrimSpace(cfg.PublicKey))
		if err != nil || len(k) != ed25519.PublicKeySize {
			return nil, &usererr.Config{Var: "DISCORD_PUBLIC_KEY", Msg: "not a 64-digit hex Ed25519 key",
				Hint: "Discord Developer Portal → your application → General Information → Public Key"}
		}
		a.pub = k
	}
	if a.cfg.Logger == nil {
		a.cfg.Logger = slog.Default()
	}
	a.log = a.cfg.Logger.With("platform", Name)
	if a.cfg.Now == nil {
		a.cfg.Now = time.Now
	}
	if a.cfg.Sleep == nil {
		a.cfg.Sleep = wait.Sleep
	}
	if a.cfg.MaxRetries <= 0 {
		a.cfg.MaxRetries = 3
	}
	if a.cfg.MaxRetryWait <= 0 {
		a.cfg.MaxRetryWait = 30 * time.Second
	}
	if a.cfg.SubmitTimeout <= 0 {
		a.cfg.SubmitTimeout = 2 * time.Second
	}
	client := cfg.HTTPClient
	if client == nil {
		// Bursts of interactions each need a callback within 3 s: keep
		// enough idle connections to the API to avoid a handshake per call.
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = maxCallbacks
		client = &http.Client{Timeout: 30 * time.Second, Transport: tr}
	}
	if base := strings.TrimSpace(cfg.APIURL); base != "" {
		if !strings.HasSuffix(base, "/") {
			base += "/"
		}
		next := client.Transport
		if next == nil {
			next = http.DefaultTransport
		}
		c := *client
		c.Transport = rebase{from: DefaultAPIURL, to: base, next: next}
		client = &c
	}

	s, err := discordgo.New("Bot " + tok)
	if err != nil {
		return nil, fmt.Errorf("discord: session: %w", err)
	}
	s.Client = client
	s.Identify.Intents = Intents
	s.ShouldRetryOnRateLimit = false // bounded retries in a.rest instead
	s.MaxRestRetries = 3
	s.ShouldReconnectOnError = true
	s.AddHandler(a.onMessageCreate)
	s.AddHandler(a.onInteractionCreate)
	a.s = s
	a.rest = &retrier{max: a.cfg.MaxRetries, maxWait: a.cfg.MaxRetryWait, sleep: a.cfg.Sleep}
	return a, nil
}

// Name implements bot.Platform.
func (a *Adapter) Name() string { return Name }

// Session returns the underlying discordgo session.
func (a *Adapter) Session() *discordgo.Session { return a.s }

// Start connects to the gateway and registers the application commands
// (bulk overwrite, in Config.GuildID when set, else globally).
func (a *Adapter) Start(ctx context.Context) error {
	a.openMu.Lock()
	defer a.openMu.Unlock()
	if a.opened {
		return nil
	}
	if err := a.s.Open(); err != nil {
		return fmt.Errorf("discord: connect to the gateway: %w", err)
	}
	a.opened = true
	a.mu.Lock()
	if u := a.s.State.User; u != nil {
		a.botID = u.ID
	}
	if a.appID == "" {
		if r := a.s.State.Ready.Application; r != nil && r.ID != "" {
			a.appID = r.ID
		} else {
			a.appID = a.botID
		}
	}
	appID := a.appID
	a.mu.Unlock()
	if err := a.RegisterCommands(ctx, appID); err != nil {
		return err
	}
	a.log.Info("connected to Discord", "bot", a.botID, "app", appID, "guild", a.cfg.GuildID)
	return nil
}

// RegisterCommands overwrites the application's commands with Commands().
func (a *Adapter) RegisterCommands(ctx context.Context, appID string) error {
	err := a.rest.do(ctx, func(o ...discordgo.RequestOption) error {
		_, err := a.s.ApplicationCommandBulkOverwrite(appID, a.cfg.GuildID, Commands(), o...)
		return err
	})
	if err != nil {
		where := "globally"
		if a.cfg.GuildID != "" {
			where = "in guild " + a.cfg.GuildID
		}
		return fmt.Errorf("discord: register commands %s (check DISCORD_APP_ID and DISCORD_GUILD_ID, and that the bot was invited with the applications.commands scope): %w", where, err)
	}
	return nil
}

// Close disconnects from the gateway.
func (a *Adapter) Close() error {
	a.openMu.Lock()
	defer a.openMu.Unlock()
	if !a.opened {
		return nil
	}
	a.opened = false
	return a.s.Close()
}

// Run starts the adapter, blocks until ctx ends, then closes it.
func (a *Adapter) Run(ctx context.Context) error {
	if err := a.Start(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	return a.Close()
}

func (a *Adapter) self() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.botID == "" && a.s.State != nil && a.s.State.User != nil {
		a.botID = a.s.State.User.ID
	}
	return a.botID
}

// ---- messages (mentions) ----

func (a *Adapter) onMessageCreate(_ *discordgo.Session, m *discordgo.MessageCreate) {
	if a.handled != nil {
		defer a.handled("discord:message:" + m.ID)
	}
	if r := a.mentionRequest(m.Message); r != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, err := a.svc.Submit(ctx, r)
		if err != nil {
			a.log.Error("store mention", "key", r.Key, "err", err)
			return
		}
		a.log.Debug("mention", "key", r.Key, "status", res.Status)
	}
}

// mentionRequest turns a message into a request if it mentions the bot (or
// is a direct message), and is not from a bot.
func (a *Adapter) mentionRequest(m *discordgo.Message) *bot.Request {
	if m == nil || m.Author == nil || m.Author.Bot || m.Author.System || m.WebhookID != "" {
		return nil
	}
	self := a.self()
	if self == "" || m.Author.ID == self {
		return nil
	}
	mention1, mention2 := "<@"+self+">", "<@!"+self+">"
	dm := m.GuildID == ""
	if !dm && !strings.Contains(m.Content, mention1) && !strings.Contains(m.Content, mention2) {
		return nil // a reply ping or a role mention is not a request
	}
	text := strings.TrimSpace(strings.NewReplacer(mention1, " ", mention2, " ").Replace(m.Content))
	thread := m.ID
	link := messageLink(m.GuildID, m.ChannelID, m.ID)
	// "@factbot" alone in reply to a message checks that message.
	if text == "" && m.ReferencedMessage != nil {
		text = strings.TrimSpace(m.ReferencedMessage.Content)
	}
	return &bot.Request{
		Key: "discord:message:" + m.ID, Tenant: tenant(m.GuildID, m.Author.ID), Platform: Name,
		Kind: bot.KindMention, Channel: m.ChannelID, Thread: thread, Link: link, User: m.Author.ID, Text: text,
		Meta: map[string]string{metaGuild: m.GuildID},
	}
}

func tenant(guildID, userID string) string {
	if guildID != "" {
		return guildID
	}
	return "dm:" + userID
}

func messageLink(guildID, channelID, messageID string) string {
	g := guildID
	if g == "" {
		g = "@me"
	}
	return "https://discord.com/channels/" + g + "/" + channelID + "/" + messageID
}

// ---- interactions ----

func (a *Adapter) onInteractionCreate(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	i := ic.Interaction
	a.handleInteraction(context.Background(), i, func(resp *discordgo.InteractionResponse) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		select {
		case a.callbacks <- struct{}{}:
			defer func() { <-a.callbacks }()
		case <-ctx.Done():
			return ctx.Err()
		}
		return a.rest.do(ctx, func(o ...discordgo.RequestOption) error {
			return a.s.InteractionRespond(i, resp, o...)
		})
	})
}

func interactionUser(i *discordgo.Interaction) *discordgo.User {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User
	}
	if i.User != nil {
		return i.User
	}
	return &discordgo.User{}
}

// handleInteraction answers one interaction; respond sends the interaction
// response (a REST callback for gateway interactions, the HTTP response body
// for HTTP ones).
func (a *Adapter) handleInteraction(ctx context.Context, i *discordgo.Interaction, respond func(*discordgo.InteractionResponse) error) {
	user := interactionUser(i)
	if user.Bot {
		return
	}
	switch i.Type {
	case discordgo.InteractionPing:
		respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
	case discordgo.InteractionApplicationCommand:
		d := i.ApplicationCommandData()
		switch d.Name {
		case CommandFactcheck:
			text, private := "", false
			for _, o := range d.Options {
				switch o.Name {
				case "text":
					text = o.StringValue()
				case "private":
					private = o.BoolValue()
				}
			}
			a.submitInteraction(ctx, i, bot.KindCommand, text, private, "", "", nil, respond)
		case CommandHistory:
			a.history(ctx, i, d, respond)
		case CommandMessage:
			var target *discordgo.Message
			if d.Resolved != nil {
				target = d.Resolved.Messages[d.TargetID]
			}
			text := ""
			if target != nil {
				text = target.Content
			}
			a.submitInteraction(ctx, i, bot.KindShortcut, text, false, d.TargetID,
				messageLink(i.GuildID, i.ChannelID, d.TargetID), nil, respond)
		default:
			a.respondEphemeral(respond, "Unknown command.")
		}
	case discordgo.InteractionMessageComponent:
		d := i.MessageComponentData()
		action, checkID, _ := strings.Cut(d.CustomID, ":")
		switch action {
		case bot.ActionRecheck:
			private := i.Message != nil && i.Message.Flags&discordgo.MessageFlagsEphemeral != 0
			a.submitInteraction(ctx, i, bot.KindRecheck, "", private, "", "", map[string]string{bot.MetaCheckID: checkID}, respond)
		case bot.ActionWrong:
			respond(feedbackModal(checkID))
		}
	case discordgo.InteractionModalSubmit:
		d := i.ModalSubmitData()
		action, checkID, _ := strings.Cut(d.CustomID, ":")
		if action != bot.ActionWrong {
			return
		}
		note := ""
		for _, c := range d.Components {
			if row, ok := c.(*discordgo.ActionsRow); ok {
				for _, rc := range row.Components {
					if ti, ok := rc.(*discordgo.TextInput); ok && ti.CustomID == "note" {
						note = strings.TrimSpace(ti.Value)
					}
				}
			}
		}
		sctx, cancel := context.WithTimeout(ctx, a.cfg.SubmitTimeout)
		err := a.svc.Feedback(sctx, tenant(i.GuildID, user.ID), checkID, bot.Feedback{User: user.ID, Claim: -1, Note: note})
		cancel()
		switch {
		case errors.Is(err, bot.ErrNotFound):
			a.respondEphemeral(respond, "I could not find that check any more, so the feedback was not recorded.")
		case err != nil:
			a.log.Error("feedback", "check", checkID, "err", err)
			a.respondEphemeral(respond, "Sorry, I could not record your feedback right now. Please try again.")
		default:
			a.respondEphemeral(respond, "Thank you — your feedback was recorded with check "+safeID(checkID)+".")
		}
	}
}

func feedbackModal(checkID string) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseModal,
		Data: &discordgo.InteractionResponseData{
			CustomID: bot.ActionWrong + ":" + safeID(checkID),
			Title:    "Wrong verdict?",
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.TextInput{CustomID: "note", Label: "What is wrong? (optional)", Style: discordgo.TextInputParagraph,
					Required: false, MaxLength: 1000, Placeholder: "e.g. the second source says the opposite"},
			}}},
		},
	}
}

func (a *Adapter) respondEphemeral(respond func(*discordgo.InteractionResponse) error, text string) error {
	return respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: bot.Truncate(Escape(text), maxContent),
			Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()},
	})
}

// submitInteraction stores the request, then acknowledges the interaction:
// a deferred response (ephemeral when private) for answers that replace the
// original response, an ephemeral note for the message command (whose
// report is a reply to the target message), the refusal itself when the
// core refused.
func (a *Adapter) submitInteraction(ctx context.Context, i *discordgo.Interaction, kind, text string, private bool,
	thread, link string, meta map[string]string, respond func(*discordgo.InteractionResponse) error) {
	t0 := time.Now() // the decoded interaction is in hand
	user := interactionUser(i)
	key := "discord:interaction:" + i.ID
	if a.handled != nil {
		defer a.handled(key)
	}
	if meta == nil {
		meta = map[string]string{}
	}
	appID := i.AppID
	if appID == "" {
		a.mu.Lock()
		appID = a.appID
		a.mu.Unlock()
	}
	meta[metaToken] = i.Token
	meta[metaAppID] = appID
	meta[metaInteraction] = i.ID
	meta[metaGuild] = i.GuildID
	meta[metaReceived] = strconv.FormatInt(a.cfg.Now().UnixMilli(), 10)
	r := &bot.Request{
		Key: key, Tenant: tenant(i.GuildID, user.ID), Platform: Name, Kind: kind,
		Channel: i.ChannelID, Thread: thread, Link: link, User: user.ID, Text: text, Private: private, Meta: meta,
	}

	a.mu.Lock()
	if _, dup := a.acks[key]; dup {
		a.mu.Unlock()
		return // the same interaction, delivered twice at once
	}
	ak := &ack{done: make(chan struct{})}
	a.acks[key] = ak
	a.mu.Unlock()
	release := func() { close(ak.done) }

	sctx, cancel := context.WithTimeout(ctx, a.cfg.SubmitTimeout)
	res, err := a.svc.Submit(sctx, r)
	cancel()
	if err != nil {
		a.dropAck(key)
		release()
		a.log.Error("store interaction", "key", key, "err", err)
		// Discord does not redeliver interactions: say so rather than fail silently.
		a.respondEphemeral(respond, "Sorry, I could not take this request right now. Please try again in a moment.")
		return
	}
	switch res.Status {
	case bot.Duplicate:
		a.dropAck(key)
		release()
		return
	case bot.Refused:
		ak.notified = a.respondEphemeral(respond, res.Notice) == nil
		release()
		if ak.notified {
			a.observeAck(t0)
		}
		return
	}
	var resp *discordgo.InteractionResponse
	if kind == bot.KindShortcut {
		resp = &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Content: "Checking that message… the report will appear as a reply to it.",
				Flags:   discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
			},
		}
	} else {
		var flags discordgo.MessageFlags
		if private {
			flags = discordgo.MessageFlagsEphemeral
		}
		resp = &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Flags: flags, AllowedMentions: noMentions()},
		}
	}
	err = respond(resp)
	ak.ok = err == nil
	release()
	if err != nil {
		a.log.Warn("acknowledge interaction", "key", key, "err", err)
		return
	}
	a.observeAck(t0)
}

// observeAck records the time since t0 as one acknowledgement's latency:
// from the decoded interaction in hand to Discord having the response (the
// REST callback's round trip, or the HTTP response handed to the server).
func (a *Adapter) observeAck(t0 time.Time) {
	if o, ok := a.svc.(ackObserver); ok {
		o.ObserveAck(Name, time.Since(t0))
	}
}

func (a *Adapter) dropAck(key string) {
	a.mu.Lock()
	delete(a.acks, key)
	a.mu.Unlock()
}

// waitAck waits for the interaction's acknowledgement if it is in flight in
// this process and reports (acked, notified). For requests resumed after a
// restart there is nothing to wait for: the acknowledgement is assumed.
func (a *Adapter) waitAck(ctx context.Context, key string) (acked, notified bool, err error) {
	a.mu.Lock()
	ak, ok := a.acks[key]
	a.mu.Unlock()
	if !ok {
		return true, false, nil
	}
	select {
	case <-ak.done:
	case <-ctx.Done():
		return false, false, ctx.Err()
	}
	a.dropAck(key)
	return ak.ok, ak.notified, nil
}

func (a *Adapter) history(ctx context.Context, i *discordgo.Interaction, d discordgo.ApplicationCommandInteractionData, respond func(*discordgo.InteractionResponse) error) {
	user := interactionUser(i)
	q := bot.HistoryQuery{Limit: 10, Viewer: user.ID}
	for _, o := range d.Options {
		switch o.Name {
		case "count":
			q.Limit = int(max(1, min(o.IntValue(), 25)))
		case "verdict":
			q.Verdict = factcheck.Label(o.StringValue())
		}
	}
	if q.Verdict != "" && !q.Verdict.Valid() {
		a.respondEphemeral(respond, "Unknown verdict; use supported, contradicted, contested or unverifiable.")
		return
	}
	sctx, cancel := context.WithTimeout(ctx, a.cfg.SubmitTimeout)
	sums, err := a.svc.History(sctx, tenant(i.GuildID, user.ID), q)
	cancel()
	if err != nil {
		a.log.Error("history", "err", err)
		a.respondEphemeral(respond, "Sorry, I could not load the history right now.")
		return
	}
	where := "this server"
	if i.GuildID == "" {
		where = "our direct messages"
	}
	rm := renderHistory(bot.HistoryLines(sums), q.Verdict, where)
	respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: rm.Content, Embeds: rm.Embeds,
			Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()},
	})
}
