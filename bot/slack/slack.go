// Package slack is factbot's Slack adapter. It only translates: Slack events,
// slash commands, shortcuts and buttons become store.Requests and calls of
// the chat core (bot.Core), and the core's bot.Messages become Block Kit,
// escaped and paced. It speaks Socket Mode (SLACK_APP_TOKEN) and HTTP mode (SLACK_SIGNING_SECRET).
//
// It serves one workspace with SLACK_BOT_TOKEN, or, with an OAuth client
// (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET), every workspace installed through
// its "Add to Slack" flow (oauth.go), each answered with its own token
// (workspace.go).
package slack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"
	"golang.org/x/time/rate"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/internal/memo"
	"github.com/factbot-dev/factbot/internal/retry"
	"github.com/factbot-dev/factbot/internal/wait"
	"github.com/factbot-dev/factbot/store"
)

// Name is the adapter's platform name (store.Request.Platform).
const Name = "slack"

// Reply handles for answers that cannot be edited with chat.update.
const (
	replyEphemeral = "ephemeral"    // chat.postEphemeral / response_url ephemeral
	replyWebhook   = "response_url" // in_channel via response_url (bot not in channel)
)

// Meta keys.
const metaResponseURL = "response_url"

// API is the part of *slack.Client the adapter uses.
type API interface {
	AuthTestContext(ctx context.Context) (*slack.AuthTestResponse, error)
	PostMessageContext(ctx context.Context, channelID string, options ...slack.MsgOption) (string, string, error)
	UpdateMessageContext(ctx context.Context, channelID, timestamp string, options ...slack.MsgOption) (string, string, string, error)
	PostEphemeralContext(ctx context.Context, channelID, userID string, options ...slack.MsgOption) (string, error)
	// GetConversationInfoContext (conversations.info) tells who can read
	// a conversation the payload did not describe (visibility.go).
	GetConversationInfoContext(ctx context.Context, input *slack.GetConversationInfoInput) (*slack.Channel, error)
	// GetUserInfoContext (users.info, with include_locale) tells who asks:
	// their locale and name (people.go).
	GetUserInfoContext(ctx context.Context, user string, options ...slack.GetUserInfoOption) (*slack.User, error)
	// conversations.history and conversations.replies read the message a
	// request is about (messages.go).
	GetConversationHistoryContext(ctx context.Context, params *slack.GetConversationHistoryParameters) (*slack.GetConversationHistoryResponse, error)
	GetConversationRepliesContext(ctx context.Context, params *slack.GetConversationRepliesParameters) ([]slack.Message, bool, string, error)
	// The assistant (assistant.go): its threads' prompts, status and
	// title, and the streamed answer (stream.go).
	SetAssistantThreadsSuggestedPromptsContext(ctx context.Context, params slack.AssistantThreadsSetSuggestedPromptsParameters) error
	SetAssistantThreadsStatusContext(ctx context.Context, params slack.AssistantThreadsSetStatusParameters) error
	SetAssistantThreadsTitleContext(ctx context.Context, params slack.AssistantThreadsSetTitleParameters) error
	StartStreamContext(ctx context.Context, channelID string, options ...slack.MsgOption) (string, string, error)
	AppendStreamContext(ctx context.Context, channelID, timestamp string, options ...slack.MsgOption) (string, string, error)
	StopStreamContext(ctx context.Context, channelID, timestamp string, options ...slack.MsgOption) (string, string, error)
}

// Config configures the adapter. BotToken, or ClientID with ClientSecret,
// PublicURL and Installs, is required; AppToken enables Socket Mode,
// SigningSecret enables HTTP mode.
type Config struct {
	BotToken string // SLACK_BOT_TOKEN (xoxb-…)
	// ClientID and ClientSecret (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET)
	// turn on the OAuth install flow and multi-workspace mode: events are
	// answered with the token of their workspace's installation, kept in
	// Installs. BotToken is then not used.
	ClientID, ClientSecret string
	// PublicURL is where Slack reaches factbot (FACTBOT_PUBLIC_URL); the
	// OAuth redirect URL is PublicURL + CallbackPath.
	PublicURL string
	Installs  Installs
	// UsedStates records the install states used, each accepted once
	// (default: in this process's memory; replicas need the store).
	UsedStates UsedStates
	// AuthorizeURL is Slack's authorize page (default: next to APIURL,
	// else DefaultAuthorizeURL).
	AuthorizeURL  string
	AppToken      string // SLACK_APP_TOKEN (xapp-…), Socket Mode
	SigningSecret string // SLACK_SIGNING_SECRET, HTTP mode
	APIURL        string // SLACK_API_URL, e.g. http://127.0.0.1:1234/api/ (tests)
	// HTTPClient carries Web API and response_url calls (default: one with
	// a CallTimeout timeout).
	HTTPClient *http.Client
	// CallTimeout bounds one attempt of a Web API or response_url call
	// (default 15 s): a Slack that hangs fails the attempt instead of
	// holding the worker.
	CallTimeout time.Duration

	// BotUserID is the bot's own user id; found with auth.test when empty.
	BotUserID string
	// PerChannel paces posts and updates per channel of each workspace
	// (default 1/s, chat.postMessage's pace; see pace.go).
	PerChannel rate.Limit
	// Ephemeral paces the ephemeral notes and answers (chat.postEphemeral)
	// per workspace, apart from the channels' messages (default
	// DefaultEphemeral, the method's tier).
	Ephemeral rate.Limit
	// SharedPace, if set, keeps every pace in a store the replicas share
	// (the PostgreSQL store), so that N replicas answering one channel go
	// at its pace together, not N times it.
	SharedPace bot.RateStore
	// MaxRetries bounds retries after 429 (default 3); MaxRetryWait bounds
	// one wait (default and at most 60 s): a longer Retry-After fails the
	// call at once.
	MaxRetries   int
	MaxRetryWait time.Duration
	// Now and Sleep are the clock (tests inject them).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Logger for details of failures.
	Logger *slog.Logger
	// Command is the slash command's name (default "/factcheck").
	Command string
	// Reactions are the reaction names that ask for a check of the
	// message they are added to (FACTBOT_REACTION; DefaultReactions in
	// the configuration); none turns reactions off.
	Reactions []string
}

// Adapter is the Slack platform: a bot.Platform and the event handlers.
type Adapter struct {
	cfg    Config
	client *slack.Client
	api    API
	core   bot.Core
	acks   bot.AckObserver // nil if the core does not record ack latency
	log    *slog.Logger

	hc *http.Client // Web API and response_url calls

	mu      sync.Mutex
	lanes   map[string]*lane // the paces, by lane (pace.go)
	botUser string

	visCache *memo.Cache[store.Visibility] // by workspace and channel (visibility.go)
	users    *memo.Cache[asker]            // by workspace and user (people.go)

	// The parts.
	ws      *workspaces    // the workspaces answered, and their tokens (workspace.go)
	install *installer     // multi-workspace mode's install flow (oauth.go)
	convo   *conversations // people's DMs with factbot, streamed answers, loading states (assistant.go)
	router  *router        // what Slack sends, into requests (handlers.go)

	conn bot.Connection // for Ready
}

// DefaultCallTimeout is Config.CallTimeout's default.
const DefaultCallTimeout = 15 * time.Second

func withDefaults(cfg Config) Config {
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: cfg.CallTimeout}
	}
	return cfg
}

// New returns an adapter posting with the real slack-go client.
func New(cfg Config, core bot.Core) (*Adapter, error) {
	switch {
	case cfg.ClientID != "":
		if cfg.ClientSecret == "" || cfg.PublicURL == "" || cfg.Installs == nil {
			return nil, errors.New("slack: with SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, FACTBOT_PUBLIC_URL and an installation store (FACTBOT_ENCRYPTION_KEY) are required")
		}
	case cfg.BotToken == "":
		return nil, errors.New("slack: SLACK_BOT_TOKEN is required (OAuth & Permissions → Bot User OAuth Token, xoxb-…), or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET for installs by OAuth")
	}
	cfg = withDefaults(cfg)
	opts := []slack.Option{slack.OptionHTTPClient(cfg.HTTPClient)}
	if cfg.AppToken != "" {
		opts = append(opts, slack.OptionAppLevelToken(cfg.AppToken))
	}
	if cfg.APIURL != "" {
		u := cfg.APIURL
		if !strings.HasSuffix(u, "/") {
			u += "/"
		}
		opts = append(opts, slack.OptionAPIURL(u))
	}
	token := cfg.BotToken
	if cfg.ClientID != "" {
		token = "" // each workspace's client has its own; this one only opens Socket Mode
	}
	client := slack.New(token, opts...)
	a := NewWithAPI(cfg, client, client, core)
	a.ws.clientOpts = opts
	return a, nil
}

// NewWithAPI returns an adapter over any API (unit tests); client is used
// for Socket Mode and may be nil when Config.AppToken is empty.
func NewWithAPI(cfg Config, client *slack.Client, api API, core bot.Core) *Adapter {
	cfg = withDefaults(cfg)
	if cfg.PerChannel == 0 {
		cfg.PerChannel = 1
	}
	if cfg.Ephemeral == 0 {
		cfg.Ephemeral = DefaultEphemeral
	}
	if cfg.MaxRetries <= 0 {
		cfg.MaxRetries = 3
	}
	if cfg.MaxRetryWait <= 0 || cfg.MaxRetryWait > retry.DefaultMaxWait {
		cfg.MaxRetryWait = retry.DefaultMaxWait
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = wait.Sleep
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Command == "" {
		cfg.Command = "/factcheck"
	}
	if cfg.UsedStates == nil {
		cfg.UsedStates = &memStates{}
	}
	obs, _ := core.(bot.AckObserver)
	a := &Adapter{cfg: cfg, client: client, api: api, core: core, acks: obs, log: cfg.Logger, hc: cfg.HTTPClient,
		lanes: map[string]*lane{}, botUser: cfg.BotUserID, visCache: newVisCache(cfg.Now), users: newUserCache(cfg.Now),
		ws: &workspaces{cfg: cfg, log: cfg.Logger, hc: cfg.HTTPClient, single: &workspace{api: api}, m: map[string]*workspace{}}}
	a.convo = &conversations{svc: a, core: core, cfg: cfg, log: cfg.Logger, ws: a.ws, streams: map[string]*stream{}}
	a.router = &router{svc: a, core: core, cfg: cfg, log: cfg.Logger, ws: a.ws, convo: a.convo, acks: obs}
	a.install = &installer{cfg: cfg, log: cfg.Logger, hc: cfg.HTTPClient, ws: a.ws}
	if cfg.ClientSecret != "" {
		a.install.stateKey = stateKey(cfg.ClientSecret)
	}
	return a
}

// observeAck records the time since t0 (the event in hand) as one
// acknowledgement's latency.
func (rt *router) observeAck(t0 time.Time) {
	if rt.acks != nil {
		rt.acks.ObserveAck(Name, time.Since(t0))
	}
}

// Name implements bot.Platform.
func (a *Adapter) Name() string { return Name }

// Init finds the bot's own user id with auth.test (to ignore its own
// messages and strip its mention).
//
// In multi-workspace mode there is no token to test: each installation
// carries its bot user.
func (a *Adapter) Init(ctx context.Context) error {
	if a.ws.multi() {
		return nil
	}
	a.mu.Lock()
	known := a.botUser != ""
	a.mu.Unlock()
	if known {
		return nil
	}
	var res *slack.AuthTestResponse
	err := a.call(ctx, "", "", func(ctx context.Context) error {
		var err error
		res, err = a.api.AuthTestContext(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("slack: auth.test (is SLACK_BOT_TOKEN right?): %w", err)
	}
	a.mu.Lock()
	a.botUser = res.UserID
	a.mu.Unlock()
	return nil
}

func (a *Adapter) botUserID() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.botUser
}

// botUserOf is the bot's user id in workspace w.
func (a *Adapter) botUserOf(w *workspace) string {
	if w == a.ws.single {
		return a.botUserID()
	}
	return w.bot()
}

// call runs one Web API call paced for channel of team (none without a
// channel; see pace.go), retrying after 429 a bounded number of times and
// waiting the Retry-After Slack asked for (1 s, 2 s, … when it named none,
// at most MaxRetryWait). Each attempt runs under CallTimeout.
func (a *Adapter) call(ctx context.Context, team, channel string, fn func(ctx context.Context) error) error {
	if channel == "" {
		return a.callOn(ctx, "", rate.Inf, fn)
	}
	return a.callOn(ctx, channelLane(team, channel), a.cfg.PerChannel, fn)
}

// callOn is call paced by lane key at limit.
func (a *Adapter) callOn(ctx context.Context, key string, limit rate.Limit, fn func(ctx context.Context) error) error {
	p := retry.Policy{
		Attempts: a.cfg.MaxRetries + 1,
		MaxWait:  a.cfg.MaxRetryWait,
		Sleep:    a.cfg.Sleep,
		OnRetry: func(_ int, d time.Duration, _ error) {
			a.log.Info("slack rate limited; waiting", "retry_after", d, "pace", key)
		},
	}
	return retry.Do(ctx, p, rateLimited, func(ctx context.Context) error {
		if err := a.wait(ctx, key, limit); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(ctx, a.cfg.CallTimeout)
		defer cancel()
		return fn(ctx)
	})
}

// rateLimited retries Slack's 429s, after the Retry-After they carry.
func rateLimited(err error) retry.Decision {
	var rl *slack.RateLimitedError
	if !errors.As(err, &rl) {
		return retry.Decision{}
	}
	return retry.Decision{Retry: true, After: rl.RetryAfter}
}

func msgOptions(m *bot.Message) []slack.MsgOption {
	blocks, text := Render(m)
	return []slack.MsgOption{slack.MsgOptionText(text, false), slack.MsgOptionBlocks(blocks...)}
}

// Post implements bot.Platform: a threaded reply, or an ephemeral one for
// private requests.
func (a *Adapter) Post(ctx context.Context, r *store.Request, m *bot.Message) (string, error) {
	if isAssistant(r) {
		return a.convo.postAssistant(ctx, r, m)
	}
	if r.Private {
		return replyEphemeral, a.postPrivate(ctx, r, m)
	}
	w, err := a.ws.of(ctx, r)
	if err != nil {
		return "", err
	}
	api := w.client()
	opts := msgOptions(m)
	if r.Thread != "" {
		opts = append(opts, slack.MsgOptionTS(r.Thread))
	}
	var ts string
	err = a.call(ctx, r.Tenant, r.Channel, func(ctx context.Context) error {
		// Once its turn came, a post is seen through (within
		// CallTimeout) even if the caller gives up: its ts, lost, would
		// have the message posted twice.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), a.cfg.CallTimeout)
		defer cancel()
		var err error
		_, ts, err = api.PostMessageContext(ctx, r.Channel, opts...)
		return err
	})
	if err != nil && r.Meta[metaResponseURL] != "" && isNotInChannel(err) {
		// The bot cannot post here (e.g. /factcheck in a channel it was not
		// invited to): answer through the command's response_url instead.
		if !m.Final {
			return replyWebhook, nil
		}
		return replyWebhook, a.postWebhook(ctx, r, m, slack.ResponseTypeInChannel)
	}
	if err != nil {
		return "", fmt.Errorf("slack: chat.postMessage: %w", err)
	}
	if !m.Final { // the "Checking…" message: the thread's loading state too (loading.go)
		a.convo.loading(ctx, api, r, firstNonEmpty(r.Thread, ts), m)
	}
	return ts, nil
}

func isNotInChannel(err error) bool {
	s := err.Error()
	return s == "not_in_channel" || s == "channel_not_found"
}

// Update implements bot.Platform with chat.update. Ephemeral and
// response_url answers cannot be edited: only the final one is sent, as a
// new message.
func (a *Adapter) Update(ctx context.Context, r *store.Request, reply string, m *bot.Message) error {
	if strings.HasPrefix(reply, streamPrefix) {
		err := a.convo.updateAssistant(ctx, r, reply, m)
		if errors.Is(err, errStreamGone) { // its stream is another process's: the report is posted anew
			return fmt.Errorf("%w: %w", bot.ErrReplyGone, err)
		}
		return err
	}
	switch reply {
	case replyEphemeral:
		if !m.Final {
			return nil
		}
		return a.postPrivate(ctx, r, m)
	case replyWebhook:
		if !m.Final {
			return nil
		}
		return a.postWebhook(ctx, r, m, slack.ResponseTypeInChannel)
	}
	w, err := a.ws.of(ctx, r)
	if err != nil {
		return err
	}
	api := w.client()
	opts := msgOptions(m)
	err = a.call(ctx, r.Tenant, r.Channel, func(ctx context.Context) error {
		_, _, _, err := api.UpdateMessageContext(ctx, r.Channel, reply, opts...)
		return err
	})
	if err != nil && isGone(err) {
		return fmt.Errorf("slack: chat.update: %w: %w", bot.ErrReplyGone, err)
	}
	if err != nil {
		return fmt.Errorf("slack: chat.update: %w", err)
	}
	if m.Final { // the report: the loading state ends (loading.go)
		a.convo.loading(ctx, api, r, firstNonEmpty(r.Thread, reply), m)
	}
	return nil
}

// isGone reports whether chat.update failed because the message cannot
// be edited any more: the core then posts the answer anew.
func isGone(err error) bool {
	switch err.Error() {
	case "message_not_found", "cant_update_message", "edit_window_closed":
		return true
	}
	return false
}

// Notify implements bot.Platform: an ephemeral note to the asker.
func (a *Adapter) Notify(ctx context.Context, r *store.Request, text string) error {
	if isAssistant(r) {
		return a.convo.notifyAssistant(ctx, r, text)
	}
	m := &bot.Message{Final: true, Title: text}
	return a.postPrivate(ctx, r, m)
}

func (a *Adapter) postPrivate(ctx context.Context, r *store.Request, m *bot.Message) error {
	if r.Meta[metaResponseURL] != "" {
		return a.postWebhook(ctx, r, m, slack.ResponseTypeEphemeral)
	}
	w, err := a.ws.of(ctx, r)
	if err != nil {
		return err
	}
	api := w.client()
	opts := msgOptions(m)
	if r.Thread != "" {
		opts = append(opts, slack.MsgOptionTS(r.Thread))
	}
	// Ephemeral messages have their own pace, not the channel's: a note
	// to one person never waits behind the channel's answers.
	err = a.callOn(ctx, ephemeralLane(r.Tenant), a.cfg.Ephemeral, func(ctx context.Context) error {
		_, err := api.PostEphemeralContext(ctx, r.Channel, r.User, opts...)
		return err
	})
	if err != nil {
		return fmt.Errorf("slack: chat.postEphemeral: %w", err)
	}
	return nil
}

func (a *Adapter) postWebhook(ctx context.Context, r *store.Request, m *bot.Message, responseType string) error {
	blocks, text := Render(m)
	msg := &slack.WebhookMessage{Text: text, Blocks: &slack.Blocks{BlockSet: blocks}, ResponseType: responseType}
	key, limit := channelLane(r.Tenant, r.Channel), a.cfg.PerChannel
	if responseType == slack.ResponseTypeEphemeral {
		key, limit = ephemeralLane(r.Tenant), a.cfg.Ephemeral
	}
	err := a.callOn(ctx, key, limit, func(ctx context.Context) error {
		return slack.PostWebhookCustomHTTPContext(ctx, r.Meta[metaResponseURL], a.hc, msg)
	})
	if err != nil {
		return fmt.Errorf("slack: response_url: %w", err)
	}
	return nil
}
