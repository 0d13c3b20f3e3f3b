// Package discord is factbot's Discord adapter. It only translates: gateway
// mentions, the /factcheck and /factcheck-history commands, the
// "Fact-check" message command and report buttons become store.Requests
// and calls of the chat core (bot.Core), and the core's bot.Messages become
// embeds within Discord's limits. Every message it sends suppresses
// mentions.
//
// Interactions can also arrive over HTTP (POST /discord/interactions) when
// a public key is configured; requests are verified with Ed25519 first.
//
// The commands can be installed to a server or to a person's account; an
// interaction from a user install is answered through the interaction
// alone (userinstall.go).
package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/internal/retry"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/internal/wait"
)

// Name is the adapter's platform name (store.Request.Platform).
const Name = "discord"

// Intents are the gateway intents the bot asks for: none is privileged,
// since Discord delivers the content of messages that mention the app and
// of direct messages.
const Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages

// ContentIntents are added with Config.MessageContent: the privileged
// message content intent, and reactions.
const ContentIntents = discordgo.IntentMessageContent | discordgo.IntentsGuildMessageReactions | discordgo.IntentsDirectMessageReactions

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
	// ShardID and ShardCount give this process its gateway shard
	// (FACTBOT_DISCORD_SHARD, FACTBOT_DISCORD_SHARDS): Discord sends it
	// the events of the guilds with (guild_id >> 22) % ShardCount ==
	// ShardID, and direct messages to shard 0. A ShardCount of 0 or 1 is
	// one shard, the whole bot.
	ShardID, ShardCount int
	// NoGateway runs the adapter on HTTP interactions alone: no gateway
	// connection, so any number of replicas behind a load balancer need
	// no shards. Mentions (gateway messages) are then not seen; slash and
	// message commands are. It needs PublicKey and AppID.
	NoGateway bool
	// APIURL overrides the REST base URL https://discord.com/api/v9/
	// (DISCORD_API_URL, tests). The gateway address comes from GET /gateway.
	APIURL string
	// HTTPClient carries REST requests (default: one with a CallTimeout
	// timeout).
	HTTPClient *http.Client
	// CallTimeout bounds one attempt of a REST call (default 15 s).
	CallTimeout time.Duration
	// MaxRetries bounds the retries of one REST call answered 429
	// (default 3); MaxRetryWait bounds one wait (default 30 s, at most
	// 60 s): a longer retry_after fails the call at once.
	MaxRetries   int
	MaxRetryWait time.Duration
	// SubmitTimeout bounds storing a request before the acknowledgement
	// (default 2 s, inside Discord's 3 s).
	SubmitTimeout time.Duration
	// MessageContent asks for the privileged message content intent
	// (FACTBOT_DISCORD_MESSAGE_CONTENT=1, to be enabled on the Developer
	// Portal too): only then are reactions offered, since the content of
	// a message that does not mention the bot is otherwise empty.
	MessageContent bool
	// Reactions are the reactions that ask for a check of their message
	// (FACTBOT_REACTION: names such as "mag", or emoji), with
	// MessageContent only.
	Reactions []string
	Logger    *slog.Logger
	// Now and Sleep are the clock (tests).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// session is the part of *discordgo.Session the adapter uses.
type session interface {
	Open() error
	Close() error
	// identity returns the bot's user id and the application id, known
	// once the gateway is open.
	identity() (botID, appID string)
	ApplicationCommandBulkOverwrite(appID, guildID string, cmds []*discordgo.ApplicationCommand, o ...discordgo.RequestOption) ([]*discordgo.ApplicationCommand, error)
	InteractionRespond(i *discordgo.Interaction, resp *discordgo.InteractionResponse, o ...discordgo.RequestOption) error
	InteractionResponseEdit(i *discordgo.Interaction, edit *discordgo.WebhookEdit, o ...discordgo.RequestOption) (*discordgo.Message, error)
	FollowupMessageCreate(i *discordgo.Interaction, wait bool, data *discordgo.WebhookParams, o ...discordgo.RequestOption) (*discordgo.Message, error)
	UserChannelCreate(recipientID string, o ...discordgo.RequestOption) (*discordgo.Channel, error)
	ChannelMessageSendComplex(channelID string, data *discordgo.MessageSend, o ...discordgo.RequestOption) (*discordgo.Message, error)
	ChannelMessageEditComplex(m *discordgo.MessageEdit, o ...discordgo.RequestOption) (*discordgo.Message, error)
	// Channel (GET /channels/{id}), cachedChannel and everyonePermissions
	// (the gateway's state cache) tell who can read a channel
	// (visibility.go).
	Channel(channelID string, o ...discordgo.RequestOption) (*discordgo.Channel, error)
	// ChannelMessage reads the message a request is about (messages.go).
	ChannelMessage(channelID, messageID string, o ...discordgo.RequestOption) (*discordgo.Message, error)
	cachedChannel(id string) (*discordgo.Channel, bool)
	everyonePermissions(guildID string) (int64, bool)
}

// gateway is the real session.
type gateway struct{ *discordgo.Session }

func (g gateway) identity() (botID, appID string) {
	st := g.State
	if st == nil {
		return "", ""
	}
	st.RLock()
	defer st.RUnlock()
	if st.User != nil {
		botID = st.User.ID
	}
	if st.Ready.Application != nil {
		appID = st.Ready.Application.ID
	}
	return botID, appID
}

// Adapter is the Discord adapter. It implements bot.Platform.
type Adapter struct {
	cfg    Config
	core   bot.Core
	acks   bot.AckObserver // nil if the core does not record ack latency
	s      session
	rest   *retrier
	log    *slog.Logger
	pub    ed25519.PublicKey
	openMu sync.Mutex
	opened bool
	mu     sync.Mutex
	inAck  ackTable // interactions being acknowledged (events.go)
	appID  string
	botID  string
	// callbacks bounds the interaction callbacks in flight, so that a burst
	// reuses the pooled API connections instead of dialling one per
	// interaction.
	callbacks chan struct{}

	chans *channels     // who can read a channel (visibility.go)
	ix    *interactions // commands, buttons, the feedback form (events.go)

	conn bot.Connection // for Ready (ready.go)
}

// maxCallbacks bounds concurrent interaction callbacks; it matches the idle
// connections kept to the API.
const maxCallbacks = 64

// New returns an adapter; nothing connects until Start or Run.
func New(cfg Config, core bot.Core) (*Adapter, error) {
	tok := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cfg.Token), "Bot "))
	if tok == "" {
		return nil, &usererr.Config{Var: "DISCORD_BOT_TOKEN", Msg: "not set",
			Hint: "Discord Developer Portal → your application → Bot → Reset Token"}
	}
	obs, _ := core.(bot.AckObserver)
	a := &Adapter{cfg: withDefaults(cfg), core: core, acks: obs, appID: cfg.AppID, callbacks: make(chan struct{}, maxCallbacks)}
	if cfg.PublicKey != "" {
		k, err := hex.DecodeString(strings.TrimSpace(cfg.PublicKey))
		if err != nil || len(k) != ed25519.PublicKeySize {
			return nil, &usererr.Config{Var: "DISCORD_PUBLIC_KEY", Msg: "not a 64-digit hex Ed25519 key",
				Hint: "Discord Developer Portal → your application → General Information → Public Key"}
		}
		a.pub = k
	}
	a.log = a.cfg.Logger.With("platform", Name)
	s, err := discordgo.New("Bot " + tok)
	if err != nil {
		return nil, fmt.Errorf("discord: session: %w", err)
	}
	s.Client = restClient(a.cfg)
	s.Identify.Intents = Intents
	if cfg.MessageContent {
		s.Identify.Intents |= ContentIntents
	}
	if cfg.NoGateway && (cfg.PublicKey == "" || cfg.AppID == "") {
		return nil, &usererr.Config{Var: "FACTBOT_DISCORD_GATEWAY", Msg: "0 (HTTP interactions only) needs DISCORD_PUBLIC_KEY and DISCORD_APP_ID",
			Hint: "both are on the Discord Developer Portal → your application → General Information"}
	}
	if cfg.ShardCount > 1 {
		if cfg.ShardID < 0 || cfg.ShardID >= cfg.ShardCount {
			return nil, &usererr.Config{Var: "FACTBOT_DISCORD_SHARD", Msg: fmt.Sprintf("shard %d is not below the shard count %d", cfg.ShardID, cfg.ShardCount)}
		}
		s.ShardID, s.ShardCount = cfg.ShardID, cfg.ShardCount
	}
	s.ShouldRetryOnRateLimit = false // bounded retries in a.rest instead
	s.MaxRestRetries = 3
	s.ShouldReconnectOnError = true
	s.AddHandler(a.onMessageCreate)
	s.AddHandler(a.onInteractionCreate)
	// The gateway connection's state, which discordgo reconnects by itself.
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Connect) { a.conn.Up() })
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) { a.conn.Down(errGatewayLost) })
	s.AddHandler(a.onReactionAdd)
	a.s = gateway{s}
	a.rest = &retrier{max: a.cfg.MaxRetries, maxWait: a.cfg.MaxRetryWait, sleep: a.cfg.Sleep, timeout: a.cfg.CallTimeout}
	a.chans = &channels{s: a.s, rest: a.rest, log: a.log, cache: newChannelCache(a.cfg.Now)}
	a.ix = &interactions{cfg: a.cfg, core: core, log: a.log, chans: a.chans, acks: &a.inAck, observe: a.observeAck,
		appID: func() string { // the application's id, once known
			a.mu.Lock()
			defer a.mu.Unlock()
			return a.appID
		}}
	return a, nil
}

func withDefaults(cfg Config) Config {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = wait.Sleep
	}
	if cfg.MaxRetries <= 0 {
		cfg.MaxRetries = 3
	}
	if cfg.MaxRetryWait <= 0 {
		cfg.MaxRetryWait = 30 * time.Second
	}
	cfg.MaxRetryWait = min(cfg.MaxRetryWait, retry.DefaultMaxWait)
	if cfg.SubmitTimeout <= 0 {
		cfg.SubmitTimeout = 2 * time.Second
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = 15 * time.Second
	}
	return cfg
}

// restClient is the HTTP client of REST calls, sent to cfg.APIURL if set.
func restClient(cfg Config) *http.Client {
	client := cfg.HTTPClient
	if client == nil {
		// Bursts of interactions each need a callback within 3 s: keep
		// enough idle connections to the API to avoid a handshake per call.
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = maxCallbacks
		client = &http.Client{Timeout: cfg.CallTimeout, Transport: tr}
	}
	base := strings.TrimSpace(cfg.APIURL)
	if base == "" {
		return client
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	next := client.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c := *client
	c.Transport = rebase{from: DefaultAPIURL, to: base, next: next}
	return &c
}

// Name implements bot.Platform.
func (a *Adapter) Name() string { return Name }

// Start connects to the gateway and registers the application commands
// (bulk overwrite, in Config.GuildID when set, else globally).
func (a *Adapter) Start(ctx context.Context) error {
	a.openMu.Lock()
	defer a.openMu.Unlock()
	if a.opened {
		return nil
	}
	if a.cfg.NoGateway {
		return a.startWithoutGateway(ctx)
	}
	if err := a.s.Open(); err != nil {
		return fmt.Errorf("discord: connect to the gateway: %w", err)
	}
	a.opened = true
	botID, readyApp := a.s.identity()
	a.mu.Lock()
	a.botID = botID
	if a.appID == "" {
		a.appID = readyApp
	}
	if a.appID == "" {
		a.appID = a.botID
	}
	appID := a.appID
	a.mu.Unlock()
	if err := a.RegisterCommands(ctx, appID); err != nil {
		return err
	}
	a.log.Info("connected to Discord", "bot", botID, "app", appID, "guild", a.cfg.GuildID)
	a.conn.Up()
	return nil
}

// startWithoutGateway registers the commands over REST and leaves the
// interactions to the HTTP endpoint. a.openMu is held.
func (a *Adapter) startWithoutGateway(ctx context.Context) error {
	if err := a.RegisterCommands(ctx, a.cfg.AppID); err != nil {
		return err
	}
	a.log.Info("Discord: HTTP interactions only, no gateway connection", "app", a.cfg.AppID, "guild", a.cfg.GuildID)
	a.conn.Up()
	return nil
}

// RegisterCommands overwrites the application's commands with Commands()
// (globally), or in Config.GuildID's server without their integration
// types and contexts, which Discord takes for global commands only.
func (a *Adapter) RegisterCommands(ctx context.Context, appID string) error {
	cmds := Commands()
	if a.cfg.GuildID != "" {
		cmds = guildCommands()
	}
	err := a.rest.do(ctx, func(o ...discordgo.RequestOption) error {
		_, err := a.s.ApplicationCommandBulkOverwrite(appID, a.cfg.GuildID, cmds, o...)
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
	id := a.botID
	a.mu.Unlock()
	if id != "" {
		return id
	}
	id, _ = a.s.identity()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.botID == "" {
		a.botID = id
	}
	return a.botID
}

// observeAck records the time since t0 as one acknowledgement's latency:
// from the decoded interaction in hand to Discord having the response (the
// REST callback's round trip, or the HTTP response handed to the server).
func (a *Adapter) observeAck(t0 time.Time) {
	if a.acks != nil {
		a.acks.ObserveAck(Name, time.Since(t0))
	}
}
