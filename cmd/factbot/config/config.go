// Package config reads factbot's settings from the environment, in one
// place, into one typed and validated value. Every variable is one row of
// one table (Vars, in vars.go): its name, default, whether it is secret,
// how it is read and what it is for. The table drives Load, `factbot
// config` (Settings) and the reference docs/configuration.md (Reference);
// nothing else in the program reads the environment for configuration.
package config

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/internal/usererr"
)

// Model providers (FACTBOT_LLM).
const (
	LLMGemini = "gemini"
	LLMOpenAI = "openai"
)

// Search providers, by the names FACTBOT_SEARCH uses.
const (
	SearchTavily  = "tavily"
	SearchBrave   = "brave"
	SearchSearXNG = "searxng"
	SearchGemini  = "gemini"
	SearchCorpus  = "corpus"
)

// Defaults of the settings that have one.
const (
	DefaultDB          = "factbot.db"
	DefaultCacheTTL    = factcheck.DefaultCacheTTL
	DefaultRetention   = 90 * 24 * time.Hour
	DefaultLease       = bot.DefaultLease
	DefaultHTTPAddr    = ":8080"
	DefaultUserLimit   = "10/10m"
	DefaultTenantLimit = "100/1h"
	DefaultMaxQueue    = bot.DefaultMaxQueue
	DefaultMaxConns    = 256
	// DefaultMaxConnsPerIP bounds one client address's share of them.
	DefaultMaxConnsPerIP = 32
	// DefaultMCPMaxSessions bounds factbot mcp --addr's open sessions,
	// DefaultMCPMaxSessionsPerToken those of one token, and
	// DefaultMCPSessionIdle closes an idle one.
	DefaultMCPMaxSessions         = 64
	DefaultMCPMaxSessionsPerToken = 16
	DefaultMCPSessionIdle         = 10 * time.Minute
)

// Where to get a value: the hints of the configuration errors.
const (
	hintGeminiKey = "get a key at https://aistudio.google.com/apikey; GOOGLE_API_KEY also works"
	hintSlackBot  = "the Bot User OAuth Token (xoxb-…) from your Slack app's OAuth & Permissions page"
	hintSlackMode = "for Socket Mode create an app-level token (xapp-…) with connections:write under Basic Information; for HTTP mode set SLACK_SIGNING_SECRET from the same page"
	hintSlackApp  = "Basic Information → App Credentials of your Slack app"
	hintKey       = "32 random bytes in hex or base64: openssl rand -hex 32"
)

// Config is the whole program's configuration.
type Config struct {
	Model  Model
	Search Search

	// AllowPrivateFetch lets the page reader reach loopback and private
	// addresses (FACTBOT_ALLOW_PRIVATE_FETCH=1).
	AllowPrivateFetch bool
	// DB is the database (FACTBOT_DB): a bbolt file's path, or a
	// PostgreSQL URL (postgres://…), which replicas of serve share.
	DB string
	// CacheTTL is how long a verdict stays fresh (FACTBOT_CACHE_TTL).
	CacheTTL time.Duration
	// Retention is how long serve keeps checks, requests and cached web
	// results before pruning them (FACTBOT_RETENTION); 0 keeps them.
	Retention time.Duration
	// Lease is how long a replica of serve holds a chat request it runs
	// without renewing it (FACTBOT_LEASE): when a replica dies, another
	// takes its requests over after at most this (and half of it again).
	Lease time.Duration
	// CalibrationFile is FACTBOT_CALIBRATION, per-label score offsets
	// written by factbot eval --fit; Calibration what it holds.
	CalibrationFile string
	Calibration     *factcheck.Calibration
	// Match is claim matching: a claim checked before answered from its
	// earlier check (match.go).
	Match Match

	// HTTPAddr is where serve listens (FACTBOT_HTTP_ADDR).
	HTTPAddr string
	// MetricsAddr, when set, is where serve answers /metrics instead of
	// HTTPAddr (FACTBOT_METRICS_ADDR).
	MetricsAddr string
	// MaxConns bounds the open connections of serve's HTTP server
	// (FACTBOT_MAX_CONNS).
	MaxConns int
	// MaxConnsPerIP bounds the open connections from one client address
	// (FACTBOT_MAX_CONNS_PER_IP), so that one client cannot hold them all.
	MaxConnsPerIP int
	// UserLimit is the per-person rate in chat (FACTBOT_USER_LIMIT); the
	// zero Limit means none.
	UserLimit bot.Limit
	// TenantLimit is the per-tenant rate in chat, every user together
	// (FACTBOT_TENANT_LIMIT); the zero Limit means none.
	TenantLimit bot.Limit
	// MaxQueue bounds the chat requests waiting for a worker
	// (FACTBOT_MAX_QUEUE).
	MaxQueue int
	Slack    Slack
	Discord  Discord
	// EncryptionKey seals the tokens of the workspaces installed by OAuth
	// (FACTBOT_ENCRYPTION_KEY, 32 bytes); EncryptionKeyOld is the key
	// before it, read by factbot rotate-key (FACTBOT_ENCRYPTION_KEY_OLD).
	EncryptionKey, EncryptionKeyOld []byte
	// Web is the web view of checks and history.
	Web Web
	// MCP is factbot mcp's configuration over HTTP.
	MCP MCP

	// Engine is how verdicts are made: the model's temperature and the
	// switches of each technique (FACTBOT_TEMPERATURE, FACTBOT_QUESTIONS,
	// FACTBOT_COMPACT, FACTBOT_RECHECK, FACTBOT_SCORES, FACTBOT_CRITIC,
	// FACTBOT_CRITIC_SKIP, FACTBOT_JOINT_PLAN, FACTBOT_PREFETCH,
	// FACTBOT_CRITIC_DOUBT);
	// the zero value is the default.
	Engine factcheck.Options

	// User is who runs factbot check, for its history (USER).
	User string

	// OTLPEndpoint, if set, is where traces of the checks' model and tool
	// calls are sent, by OTLP over HTTP (OTEL_EXPORTER_OTLP_ENDPOINT, the
	// collector's base URL: spans go to its /v1/traces).
	OTLPEndpoint string

	env map[string]string // the variables that are set, trimmed
}

// Model is the model provider's configuration.
type Model struct {
	// Provider is LLMGemini or LLMOpenAI (FACTBOT_LLM).
	Provider string
	// Name is the model (FACTBOT_MODEL); empty means the provider's
	// default (Gemini's; the OpenAI-compatible provider has none).
	Name string
	// GeminiKey is GEMINI_API_KEY, or GOOGLE_API_KEY when that is unset.
	GeminiKey string
	// GeminiBaseURL is GOOGLE_GEMINI_BASE_URL (empty: Google's).
	GeminiBaseURL string
	// OpenAIKey and OpenAIBaseURL are OPENAI_API_KEY and OPENAI_BASE_URL
	// (empty: the hosted API).
	OpenAIKey, OpenAIBaseURL string
	// OpenAIImages says the OpenAI-compatible model accepts image input
	// (OPENAI_IMAGES=1): pictures attached in chat are sent to it.
	OpenAIImages bool
}

// Search is the search providers' configuration.
type Search struct {
	// Order is the providers in failover order (FACTBOT_SEARCH, by default
	// every configured one, else gemini).
	Order []string
	// Explicit says Order came from FACTBOT_SEARCH.
	Explicit bool

	TavilyKey, TavilyURL string // TAVILY_API_KEY, FACTBOT_TAVILY_URL
	BraveKey, BraveURL   string // BRAVE_API_KEY, FACTBOT_BRAVE_URL
	SearXNGURL           string // SEARXNG_URL
	// CorpusDir is FACTBOT_CORPUS, a folder of the team's own documents
	// searched before the web (or instead, with FACTBOT_SEARCH=corpus).
	CorpusDir string
	// FactCheckKey is FACTCHECK_API_KEY, or GOOGLE_API_KEY when that is
	// unset; empty means no fact-check search.
	FactCheckKey string
	// ExcludeSitesFile is FACTBOT_EXCLUDE_SITES, a file of domains (one a
	// line, # comments) kept out of every search result and page read;
	// ExcludeSites the domains read from it.
	ExcludeSitesFile string
	ExcludeSites     []string
}

// Slack is the Slack adapter's configuration: one workspace's BotToken,
// or an OAuth client (ClientID, ClientSecret) serving every workspace that
// installs the app.
type Slack struct {
	BotToken      string // SLACK_BOT_TOKEN (xoxb-…)
	ClientID      string // SLACK_CLIENT_ID: multi-workspace mode (OAuth)
	ClientSecret  string // SLACK_CLIENT_SECRET
	AppToken      string // SLACK_APP_TOKEN (xapp-…): Socket Mode
	SigningSecret string // SLACK_SIGNING_SECRET: HTTP mode
	APIURL        string // SLACK_API_URL (tests)
	// Reactions are the reaction names that ask for a check of a message
	// (FACTBOT_REACTION, comma-separated; "off": none).
	Reactions []string
}

// Discord is the Discord adapter's configuration.
type Discord struct {
	Token     string // DISCORD_BOT_TOKEN
	AppID     string // DISCORD_APP_ID
	PublicKey string // DISCORD_PUBLIC_KEY: HTTP interactions
	GuildID   string // DISCORD_GUILD_ID
	// Shard and Shards are this replica's gateway shard and the number of
	// shards (FACTBOT_DISCORD_SHARD, FACTBOT_DISCORD_SHARDS); Shards 0
	// means one shard.
	Shard, Shards int
	// NoGateway is FACTBOT_DISCORD_GATEWAY=0: HTTP interactions only.
	NoGateway bool
	// MessageContent is FACTBOT_DISCORD_MESSAGE_CONTENT=1: the privileged
	// message content intent, and with it reactions (FACTBOT_REACTION, as
	// Slack's).
	MessageContent bool
	Reactions      []string
	APIURL         string // DISCORD_API_URL (tests)
}

// Web is the web view's configuration. It is on when PublicURL and Secret
// are both set.
type Web struct {
	// PublicURL is where people reach factbot serve's HTTP address, e.g.
	// https://factbot.example.org behind a TLS proxy (FACTBOT_PUBLIC_URL).
	PublicURL string
	// Secret signs the links (FACTBOT_WEB_SECRET).
	Secret string
	// AdminToken opens every page as a Bearer token
	// (FACTBOT_WEB_ADMIN_TOKEN); empty means no operator access.
	AdminToken string
	// CheckTTL and HistoryTTL are how long links to one check and to a
	// history stay valid (FACTBOT_WEB_LINK_TTL, "check[,history]").
	CheckTTL, HistoryTTL time.Duration
	// Organization is who publishes the verdicts, the author of their
	// ClaimReview markup (FACTBOT_ORGANIZATION); "" is
	// web.DefaultOrganization.
	Organization string
}

// MCP is factbot mcp's configuration over HTTP.
type MCP struct {
	// Tokens are the Bearer tokens factbot mcp --addr accepts, one per
	// client (FACTBOT_MCP_TOKEN, separated by commas); without one, it
	// serves loopback addresses only.
	Tokens []string
	// MaxSessions bounds the open sessions, every client's together
	// (FACTBOT_MCP_MAX_SESSIONS); MaxSessionsPerToken those opened with one
	// token (FACTBOT_MCP_MAX_SESSIONS_PER_TOKEN).
	MaxSessions, MaxSessionsPerToken int
	// SessionIdle closes a session that receives no request for this long
	// (FACTBOT_MCP_SESSION_IDLE).
	SessionIdle time.Duration
}

// minWebSecret is the shortest FACTBOT_WEB_SECRET accepted.
const minWebSecret = 32

// Enabled reports whether the web view is on.
func (w Web) Enabled() bool { return w.PublicURL != "" && w.Secret != "" }

// Load reads the configuration through getenv (os.Getenv in the program)
// and checks every value that is set, variable by variable of the table
// (Vars). Its error joins one *usererr.Config per problem; the Config is
// returned even then, holding what could be read, so that `factbot config`
// can show it.
//
// What a command needs beyond well-formed values — a model key for the
// engine, a complete chat platform for serve — is checked by EngineErr and
// ChatErr, so that commands that need neither (history, backup) run
// without them.
func Load(getenv func(string) string) (*Config, error) {
	c := &Config{env: map[string]string{}}
	vars := Vars()
	for _, v := range vars {
		if s := strings.TrimSpace(getenv(v.Name)); s != "" {
			c.env[v.Name] = s
		}
	}
	var errs []error
	for _, v := range vars {
		err := v.parse(c, c.env[v.Name])
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = append(errs, j.Unwrap()...) // one flat list, one error per problem
		} else if err != nil {
			errs = append(errs, err)
		}
	}
	return c, errors.Join(errs...)
}

// ModelName is the model that will be asked: FACTBOT_MODEL or the
// provider's default.
func (m Model) ModelName() string {
	if m.Name == "" && m.Provider == LLMGemini {
		return gemini.DefaultModel
	}
	return m.Name
}

// Err reports what the model provider lacks, or nil.
func (m Model) Err() error {
	switch m.Provider {
	default:
		return &usererr.Config{Var: "FACTBOT_LLM", Msg: fmt.Sprintf("unknown provider %q", m.Provider), Hint: "use gemini (the default) or openai"}
	case LLMGemini:
		if m.GeminiKey == "" {
			return &usererr.Config{Var: "GEMINI_API_KEY", Msg: "not set", Hint: hintGeminiKey}
		}
	case LLMOpenAI:
		if m.Name == "" {
			return &usererr.Config{Var: "FACTBOT_MODEL", Msg: "not set", Hint: "with FACTBOT_LLM=openai, name the model, e.g. gpt-4.1-mini or qwen3:8b for Ollama"}
		}
		if m.OpenAIKey == "" && hostedOpenAI(m.OpenAIBaseURL) {
			return &usererr.Config{Var: "OPENAI_API_KEY", Msg: "no API key for the hosted OpenAI API",
				Hint: "create one at https://platform.openai.com/api-keys, or set OPENAI_BASE_URL to a local server such as http://localhost:11434/v1"}
		}
	}
	return nil
}

// hostedOpenAI reports whether base (OPENAI_BASE_URL) is OpenAI's own API,
// which needs a key; local servers usually need none.
func hostedOpenAI(base string) bool {
	if base == "" {
		return true
	}
	u, err := url.Parse(base)
	return err == nil && u.Host == "api.openai.com"
}

// providerErr reports what search provider name lacks; geminiKey is the
// Gemini key Google Search through Gemini uses.
func (s Search) providerErr(name, geminiKey string) error {
	switch name {
	case SearchTavily:
		if s.TavilyKey == "" {
			return &usererr.Config{Var: "TAVILY_API_KEY", Msg: "not set", Hint: "get a key at https://app.tavily.com"}
		}
	case SearchBrave:
		if s.BraveKey == "" {
			return &usererr.Config{Var: "BRAVE_API_KEY", Msg: "not set", Hint: "get a key at https://brave.com/search/api/"}
		}
	case SearchSearXNG:
		if s.SearXNGURL == "" {
			return &usererr.Config{Var: "SEARXNG_URL", Msg: "not set", Hint: "the base URL of your SearXNG instance, with the json format enabled"}
		}
	case SearchCorpus:
		if s.CorpusDir == "" {
			return &usererr.Config{Var: "FACTBOT_CORPUS", Msg: "not set", Hint: "a folder of HTML, PDF, Markdown and text files to search"}
		}
	case SearchGemini:
		if geminiKey == "" {
			return &usererr.Config{Var: "GEMINI_API_KEY", Msg: "not set", Hint: "Google Search through Gemini needs a Gemini key: https://aistudio.google.com/apikey"}
		}
	}
	return nil
}

// SearchErr reports the first search provider in Order that lacks its
// key or URL, or nil.
func (c *Config) SearchErr() error {
	for _, n := range c.Search.Order {
		if err := c.Search.providerErr(n, c.Model.GeminiKey); err != nil {
			return err
		}
	}
	return nil
}

// EngineErr reports what the fact-checking engine (check, eval, serve)
// lacks: the model's key or name, then a search provider's key.
func (c *Config) EngineErr() error {
	if err := c.Model.Err(); err != nil {
		return err
	}
	return c.SearchErr()
}

// Configured reports whether any Slack variable asks for the adapter.
func (s Slack) Configured() bool {
	return s.BotToken != "" || s.AppToken != "" || s.SigningSecret != "" || s.OAuth()
}

// OAuth reports whether the adapter serves the workspaces that install it
// by OAuth (multi-workspace mode) rather than one SLACK_BOT_TOKEN.
func (s Slack) OAuth() bool { return s.ClientID != "" || s.ClientSecret != "" }

// Err reports what a configured Slack adapter lacks, or nil. What the
// OAuth mode needs beyond Slack's variables is Config.SlackErr's.
func (s Slack) Err() error {
	if !s.Configured() {
		return nil
	}
	switch {
	case s.OAuth() && s.BotToken != "":
		return &usererr.Config{Var: "SLACK_BOT_TOKEN", Msg: "set together with SLACK_CLIENT_ID",
			Hint: "unset SLACK_BOT_TOKEN to serve every workspace that installs the app (OAuth), or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET to serve one workspace"}
	case s.OAuth() && s.ClientID == "":
		return &usererr.Config{Var: "SLACK_CLIENT_ID", Msg: "not set", Hint: hintSlackApp + " (SLACK_CLIENT_SECRET is set)"}
	case s.OAuth() && s.ClientSecret == "":
		return &usererr.Config{Var: "SLACK_CLIENT_SECRET", Msg: "not set", Hint: hintSlackApp + " (SLACK_CLIENT_ID is set)"}
	case !s.OAuth() && s.BotToken == "":
		return &usererr.Config{Var: "SLACK_BOT_TOKEN", Msg: "not set", Hint: hintSlackBot + "; or, to serve many workspaces, SLACK_CLIENT_ID and SLACK_CLIENT_SECRET"}
	}
	if s.AppToken == "" && s.SigningSecret == "" {
		return &usererr.Config{Var: "SLACK_APP_TOKEN", Msg: "neither SLACK_APP_TOKEN nor SLACK_SIGNING_SECRET is set", Hint: hintSlackMode}
	}
	return nil
}

// Configured reports whether DISCORD_BOT_TOKEN turns the adapter on.
func (d Discord) Configured() bool { return d.Token != "" }

// ChatErr reports why serve cannot run its chat platforms: none is
// configured, or a configured one lacks a variable.
func (c *Config) ChatErr() error {
	if !c.Slack.Configured() && !c.Discord.Configured() {
		return &usererr.Config{Var: "SLACK_BOT_TOKEN or DISCORD_BOT_TOKEN", Msg: "no chat platform configured",
			Hint: "set SLACK_BOT_TOKEN (one workspace) or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (every workspace that installs the app) with SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode), or DISCORD_BOT_TOKEN"}
	}
	return c.SlackErr()
}

// SlackErr is Slack.Err, then what the OAuth mode needs besides: a key to
// seal the workspaces' tokens and the public URL Slack sends installers
// back to.
func (c *Config) SlackErr() error {
	if err := c.Slack.Err(); err != nil || !c.Slack.OAuth() {
		return err
	}
	if c.EncryptionKey == nil {
		if _, set := c.env["FACTBOT_ENCRYPTION_KEY"]; !set {
			return &usererr.Config{Var: "FACTBOT_ENCRYPTION_KEY", Msg: "not set", Hint: "with SLACK_CLIENT_ID the workspaces' tokens are stored encrypted with it: " + hintKey}
		}
	}
	if c.Web.PublicURL == "" {
		if _, set := c.env["FACTBOT_PUBLIC_URL"]; !set {
			return &usererr.Config{Var: "FACTBOT_PUBLIC_URL", Msg: "not set", Hint: "with SLACK_CLIENT_ID, the https:// address Slack sends installers back to (its Redirect URL is FACTBOT_PUBLIC_URL/slack/oauth/callback)"}
		}
	}
	return nil
}

// ParseAge parses a Go duration ("36h", "90m") or a number of days ("30d").
func ParseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(d, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q: want a duration such as 30d or 72h", s)
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q: want a duration such as 30d or 72h", s)
	}
	return d, nil
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
