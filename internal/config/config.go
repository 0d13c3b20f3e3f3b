// Package config reads factbot's settings from the environment, in one
// place, into one typed and validated value. Every variable of the README's
// configuration table is in Vars; nothing else in the program reads the
// environment for configuration.
package config

import (
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/web"
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
	// MCPToken is the Bearer token factbot mcp --addr requires of every
	// HTTP request (FACTBOT_MCP_TOKEN); without it, it serves loopback
	// addresses only.
	MCPToken string

	// Engine is how verdicts are made: the model's temperature and the
	// switches of each technique (FACTBOT_TEMPERATURE, FACTBOT_QUESTIONS,
	// FACTBOT_COMPACT, FACTBOT_RECHECK, FACTBOT_SCORES, FACTBOT_CRITIC,
	// FACTBOT_CRITIC_SKIP);
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

// minWebSecret is the shortest FACTBOT_WEB_SECRET accepted.
const minWebSecret = 32

// Enabled reports whether the web view is on.
func (w Web) Enabled() bool { return w.PublicURL != "" && w.Secret != "" }

// Var is one variable of the configuration table.
type Var struct {
	Name string
	// Secret values are never printed whole.
	Secret bool
}

// Vars lists every variable factbot reads, in the README's order.
var Vars = []Var{
	{"GEMINI_API_KEY", true}, {"GOOGLE_API_KEY", true},
	{"FACTBOT_LLM", false}, {"FACTBOT_MODEL", false}, {"GOOGLE_GEMINI_BASE_URL", false},
	{"OPENAI_API_KEY", true}, {"OPENAI_BASE_URL", false}, {"OPENAI_IMAGES", false},
	{"TAVILY_API_KEY", true}, {"FACTBOT_TAVILY_URL", false},
	{"BRAVE_API_KEY", true}, {"FACTBOT_BRAVE_URL", false},
	{"SEARXNG_URL", false},
	{"FACTBOT_CORPUS", false},
	{"FACTCHECK_API_KEY", true},
	{"FACTBOT_SEARCH", false},
	{"FACTBOT_TEMPERATURE", false},
	{"FACTBOT_QUESTIONS", false}, {"FACTBOT_COMPACT", false}, {"FACTBOT_RECHECK", false}, {"FACTBOT_SCORES", false}, {"FACTBOT_CRITIC", false},
	{"FACTBOT_CRITIC_SKIP", false},
	{"FACTBOT_EXCLUDE_SITES", false},
	{"FACTBOT_CALIBRATION", false},
	{"FACTBOT_ALLOW_PRIVATE_FETCH", false},
	{"FACTBOT_DB", false},
	{"FACTBOT_CACHE_TTL", false},
	{"FACTBOT_RETENTION", false},
	{"FACTBOT_LEASE", false},
	{"FACTBOT_HTTP_ADDR", false},
	{"FACTBOT_METRICS_ADDR", false},
	{"FACTBOT_MAX_CONNS", false},
	{"FACTBOT_MAX_CONNS_PER_IP", false},
	{"FACTBOT_USER_LIMIT", false},
	{"FACTBOT_TENANT_LIMIT", false},
	{"FACTBOT_MAX_QUEUE", false},
	{"FACTBOT_REACTION", false},
	{"FACTBOT_PUBLIC_URL", false}, {"FACTBOT_WEB_SECRET", true}, {"FACTBOT_WEB_LINK_TTL", false}, {"FACTBOT_WEB_ADMIN_TOKEN", true},
	{"FACTBOT_ORGANIZATION", false},
	{"FACTBOT_MCP_TOKEN", true},
	{"SLACK_BOT_TOKEN", true}, {"SLACK_APP_TOKEN", true}, {"SLACK_SIGNING_SECRET", true}, {"SLACK_API_URL", false},
	{"SLACK_CLIENT_ID", false}, {"SLACK_CLIENT_SECRET", true}, {"FACTBOT_ENCRYPTION_KEY", true}, {"FACTBOT_ENCRYPTION_KEY_OLD", true},
	{"DISCORD_BOT_TOKEN", true}, {"DISCORD_APP_ID", false}, {"DISCORD_PUBLIC_KEY", false}, {"DISCORD_GUILD_ID", false}, {"DISCORD_API_URL", false},
	{"FACTBOT_DISCORD_SHARD", false}, {"FACTBOT_DISCORD_SHARDS", false}, {"FACTBOT_DISCORD_GATEWAY", false}, {"FACTBOT_DISCORD_MESSAGE_CONTENT", false},
	{"USER", false},
	{"OTEL_EXPORTER_OTLP_ENDPOINT", false},
}

// Load reads the configuration through getenv (os.Getenv in the program)
// and checks every value that is set. Its error joins one *usererr.Config
// per problem; the Config is returned even then, holding what could be
// read, so that `factbot config` can show it.
//
// What a command needs beyond well-formed values — a model key for the
// engine, a complete chat platform for serve — is checked by EngineErr and
// ChatErr, so that commands that need neither (history, backup) run
// without them.
func Load(getenv func(string) string) (*Config, error) {
	c := &Config{env: map[string]string{}}
	for _, v := range Vars {
		if s := strings.TrimSpace(getenv(v.Name)); s != "" {
			c.env[v.Name] = s
		}
	}
	var errs []error
	add := func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = append(errs, j.Unwrap()...) // one flat list, one error per problem
		} else if err != nil {
			errs = append(errs, err)
		}
	}
	add(c.loadModel())
	add(c.loadSearch())
	add(c.loadEngine())
	add(c.loadStore())
	add(c.loadChat())
	add(c.loadReading())
	add(c.loadWeb())
	c.User = c.env["USER"]
	c.OTLPEndpoint = c.env["OTEL_EXPORTER_OTLP_ENDPOINT"]
	add(checkURL(c.env, "OTEL_EXPORTER_OTLP_ENDPOINT"))
	return c, errors.Join(errs...)
}

func (c *Config) loadModel() error {
	e := c.env
	c.Model = Model{
		Provider:      strings.ToLower(e["FACTBOT_LLM"]),
		Name:          e["FACTBOT_MODEL"],
		GeminiKey:     or(e["GEMINI_API_KEY"], e["GOOGLE_API_KEY"]),
		GeminiBaseURL: e["GOOGLE_GEMINI_BASE_URL"],
		OpenAIKey:     e["OPENAI_API_KEY"],
		OpenAIBaseURL: e["OPENAI_BASE_URL"],
	}
	var errs []error
	switch c.Model.Provider {
	case "":
		c.Model.Provider = LLMGemini
	case LLMGemini, LLMOpenAI:
	default:
		errs = append(errs, c.Model.Err())
	}
	for _, name := range []string{"GOOGLE_GEMINI_BASE_URL", "OPENAI_BASE_URL"} {
		errs = append(errs, checkURL(e, name))
	}
	return errors.Join(errs...)
}

// switches are the variables that turn a technique off with 0; each
// sets the Options field it points to.
func (c *Config) switches() map[string]*bool {
	o := &c.Engine
	return map[string]*bool{
		"FACTBOT_QUESTIONS": &o.NoQuestions,
		"FACTBOT_COMPACT":   &o.NoCompact,
		"FACTBOT_RECHECK":   &o.NoRecheck,
		"FACTBOT_SCORES":    &o.NoScores,
		"FACTBOT_CRITIC":    &o.NoCritic,
		// FACTBOT_CRITIC_SKIP=0: the critic reviews every verdict.
		"FACTBOT_CRITIC_SKIP": &o.NoCriticSkip,
	}
}

func (c *Config) loadEngine() error {
	e := c.env
	var errs []error
	if s, ok := e["FACTBOT_TEMPERATURE"]; ok {
		t, err := strconv.ParseFloat(s, 64)
		if err != nil || t < 0 || t > 2 {
			errs = append(errs, &usererr.Config{Var: "FACTBOT_TEMPERATURE", Msg: fmt.Sprintf("%q is not a number from 0 to 2", s), Hint: fmt.Sprintf("the model's sampling temperature; the default %g keeps verdicts repeatable", factcheck.DefaultTemperature)})
		} else {
			c.Engine.Temperature = &t
		}
	}
	sw := c.switches()
	for _, name := range slices.Sorted(maps.Keys(sw)) {
		off := sw[name]
		switch s := e[name]; s {
		case "", "1":
		case "0":
			*off = true
		default:
			errs = append(errs, &usererr.Config{Var: name, Msg: fmt.Sprintf("%q is neither 1 nor 0", s), Hint: "0 turns this step of verification off, to measure it against the baseline; leave it unset otherwise"})
		}
	}
	return errors.Join(errs...)
}

func (c *Config) loadSearch() error {
	e := c.env
	c.Search = Search{
		TavilyKey: e["TAVILY_API_KEY"], TavilyURL: e["FACTBOT_TAVILY_URL"],
		BraveKey: e["BRAVE_API_KEY"], BraveURL: e["FACTBOT_BRAVE_URL"],
		SearXNGURL:   e["SEARXNG_URL"],
		CorpusDir:    e["FACTBOT_CORPUS"],
		FactCheckKey: or(e["FACTCHECK_API_KEY"], e["GOOGLE_API_KEY"]),
	}
	var errs []error
	for _, name := range []string{"FACTBOT_TAVILY_URL", "FACTBOT_BRAVE_URL", "SEARXNG_URL"} {
		errs = append(errs, checkURL(e, name))
	}
	if order, ok := e["FACTBOT_SEARCH"]; ok {
		c.Search.Explicit = true
		for _, n := range strings.Split(order, ",") {
			n = strings.ToLower(strings.TrimSpace(n))
			switch n {
			case "":
			case SearchTavily, SearchBrave, SearchSearXNG, SearchGemini, SearchCorpus:
				c.Search.Order = append(c.Search.Order, n)
			default:
				errs = append(errs, &usererr.Config{Var: "FACTBOT_SEARCH", Msg: fmt.Sprintf("unknown provider %q", n), Hint: "use a comma-separated list of tavily, brave, searxng, gemini, corpus"})
			}
		}
	}
	if path, ok := e["FACTBOT_EXCLUDE_SITES"]; ok {
		c.Search.ExcludeSitesFile = path
		sites, err := search.ReadSitesFile(path)
		if err != nil {
			errs = append(errs, &usererr.Config{Var: "FACTBOT_EXCLUDE_SITES", Msg: err.Error(), Hint: "a file of domains to keep out of searches and page reads, one a line, # comments", Err: err})
		}
		c.Search.ExcludeSites = sites
	}
	if path, ok := e["FACTBOT_CALIBRATION"]; ok {
		c.CalibrationFile = path
		cal, err := factcheck.LoadCalibration(path)
		if err != nil {
			errs = append(errs, &usererr.Config{Var: "FACTBOT_CALIBRATION", Msg: err.Error(), Hint: "a file written by factbot eval --fit", Err: err})
		}
		c.Calibration = cal
	}
	if len(c.Search.Order) == 0 {
		c.Search.Explicit = false
		for _, n := range []string{SearchTavily, SearchBrave, SearchSearXNG} {
			if c.Search.providerErr(n, "") == nil {
				c.Search.Order = append(c.Search.Order, n)
			}
		}
		if len(c.Search.Order) == 0 {
			c.Search.Order = []string{SearchGemini}
		}
		if c.Search.CorpusDir != "" {
			c.Search.Order = append([]string{SearchCorpus}, c.Search.Order...)
		}
	}
	return errors.Join(errs...)
}

func (c *Config) loadStore() error {
	e := c.env
	c.DB = or(e["FACTBOT_DB"], DefaultDB)
	c.CacheTTL = DefaultCacheTTL
	var errs []error
	if s, ok := e["FACTBOT_CACHE_TTL"]; ok {
		d, err := ParseAge(s)
		if err != nil || d <= 0 {
			errs = append(errs, &usererr.Config{Var: "FACTBOT_CACHE_TTL", Msg: fmt.Sprintf("%q is not a positive duration", s), Hint: "e.g. 168h or 7d", Err: err})
		} else {
			c.CacheTTL = d
		}
	}
	c.Retention = DefaultRetention
	if s, ok := e["FACTBOT_RETENTION"]; ok {
		d, err := ParseAge(s)
		if err != nil || d < 0 {
			errs = append(errs, &usererr.Config{Var: "FACTBOT_RETENTION", Msg: fmt.Sprintf("%q is not a duration", s), Hint: "e.g. 90d, or 0 to keep everything", Err: err})
		} else {
			c.Retention = d
		}
	}
	c.Lease = DefaultLease
	if s, ok := e["FACTBOT_LEASE"]; ok {
		d, err := ParseAge(s)
		if err != nil || d < time.Second {
			errs = append(errs, &usererr.Config{Var: "FACTBOT_LEASE", Msg: fmt.Sprintf("%q is not a duration of a second or more", s), Hint: "e.g. 1m: replicas renew it every third of it", Err: err})
		} else {
			c.Lease = d
		}
	}
	switch s := e["FACTBOT_ALLOW_PRIVATE_FETCH"]; s {
	case "", "0":
	case "1":
		c.AllowPrivateFetch = true
	default:
		errs = append(errs, &usererr.Config{Var: "FACTBOT_ALLOW_PRIVATE_FETCH", Msg: fmt.Sprintf("%q is neither 1 nor 0", s), Hint: "1 lets the page reader reach loopback and private addresses; leave it unset otherwise"})
	}
	return errors.Join(errs...)
}

func (c *Config) loadChat() error {
	e := c.env
	c.HTTPAddr = or(e["FACTBOT_HTTP_ADDR"], DefaultHTTPAddr)
	var errs []error
	lim, err := bot.ParseLimit(or(e["FACTBOT_USER_LIMIT"], DefaultUserLimit))
	if err != nil {
		errs = append(errs, &usererr.Config{Var: "FACTBOT_USER_LIMIT", Msg: err.Error(), Hint: "checks per user per window, e.g. 10/10m; off disables", Err: err})
	}
	c.UserLimit = lim
	if c.TenantLimit, err = bot.ParseLimit(or(e["FACTBOT_TENANT_LIMIT"], DefaultTenantLimit)); err != nil {
		errs = append(errs, &usererr.Config{Var: "FACTBOT_TENANT_LIMIT", Msg: err.Error(), Hint: "checks per workspace or server per window, e.g. 100/1h; off disables", Err: err})
	}
	c.MetricsAddr = e["FACTBOT_METRICS_ADDR"]
	c.MaxConns, err = positive(e, "FACTBOT_MAX_CONNS", DefaultMaxConns, "open HTTP connections at once, e.g. 256")
	errs = append(errs, err)
	c.MaxConnsPerIP, err = positive(e, "FACTBOT_MAX_CONNS_PER_IP", DefaultMaxConnsPerIP, "open HTTP connections from one address, e.g. 32")
	errs = append(errs, err)
	c.MaxQueue, err = positive(e, "FACTBOT_MAX_QUEUE", DefaultMaxQueue, "chat requests waiting for a worker, e.g. 100")
	errs = append(errs, err)
	c.Slack = Slack{BotToken: e["SLACK_BOT_TOKEN"], AppToken: e["SLACK_APP_TOKEN"], SigningSecret: e["SLACK_SIGNING_SECRET"], APIURL: e["SLACK_API_URL"],
		ClientID: e["SLACK_CLIENT_ID"], ClientSecret: e["SLACK_CLIENT_SECRET"]}
	for _, k := range []struct {
		name string
		dst  *[]byte
	}{{"FACTBOT_ENCRYPTION_KEY", &c.EncryptionKey}, {"FACTBOT_ENCRYPTION_KEY_OLD", &c.EncryptionKeyOld}} {
		if v, ok := e[k.name]; ok {
			b, err := store.ParseKey(v)
			if err != nil {
				errs = append(errs, &usererr.Config{Var: k.name, Msg: err.Error(), Hint: hintKey})
			}
			*k.dst = b
		}
	}
	if t := c.Slack.AppToken; t != "" && !strings.HasPrefix(t, "xapp-") {
		errs = append(errs, &usererr.Config{Var: "SLACK_APP_TOKEN", Msg: "is not an app-level token (xapp-…)", Hint: "Basic Information → App-Level Tokens, scope connections:write"})
	}
	c.Discord = Discord{Token: e["DISCORD_BOT_TOKEN"], AppID: e["DISCORD_APP_ID"], PublicKey: e["DISCORD_PUBLIC_KEY"], GuildID: e["DISCORD_GUILD_ID"], APIURL: e["DISCORD_API_URL"]}
	if k := c.Discord.PublicKey; k != "" {
		if b, err := hex.DecodeString(k); err != nil || len(b) != 32 {
			errs = append(errs, &usererr.Config{Var: "DISCORD_PUBLIC_KEY", Msg: "not a 64-digit hex Ed25519 key", Hint: "Discord Developer Portal → your application → General Information → Public Key"})
		}
	}
	errs = append(errs, c.loadShard())
	switch s := e["FACTBOT_DISCORD_GATEWAY"]; s {
	case "", "1":
	case "0":
		c.Discord.NoGateway = true
		if c.Discord.PublicKey == "" || c.Discord.AppID == "" {
			errs = append(errs, &usererr.Config{Var: "FACTBOT_DISCORD_GATEWAY", Msg: "0 (HTTP interactions only) needs DISCORD_PUBLIC_KEY and DISCORD_APP_ID",
				Hint: "both are on the Discord Developer Portal → your application → General Information"})
		}
	default:
		errs = append(errs, &usererr.Config{Var: "FACTBOT_DISCORD_GATEWAY", Msg: fmt.Sprintf("%q is neither 1 nor 0", s), Hint: "0 serves Discord by HTTP interactions alone, with no gateway connection"})
	}
	for _, name := range []string{"SLACK_API_URL", "DISCORD_API_URL"} {
		errs = append(errs, checkURL(e, name))
	}
	return errors.Join(errs...)
}

// DefaultReactions are FACTBOT_REACTION's default: 🔍 and 🔎.
var DefaultReactions = []string{"mag", "mag_right"}

// loadReading reads what lets factbot read messages other than mentions
// and their pictures: reactions, Discord's message content intent, a
// model's image input.
func (c *Config) loadReading() error {
	e := c.env
	var errs []error
	reactions := DefaultReactions
	switch s := e["FACTBOT_REACTION"]; strings.ToLower(s) {
	case "":
	case "off", "0", "none":
		reactions = nil
	default:
		reactions = nil
		for _, r := range strings.Split(s, ",") {
			if r = strings.Trim(strings.TrimSpace(r), ":"); r != "" {
				reactions = append(reactions, r)
			}
		}
	}
	c.Slack.Reactions, c.Discord.Reactions = reactions, reactions
	for _, b := range []struct {
		name string
		dst  *bool
		hint string
	}{
		{"FACTBOT_DISCORD_MESSAGE_CONTENT", &c.Discord.MessageContent, "1 asks for Discord's privileged message content intent (enable it on the Developer Portal → Bot), which reactions need"},
		{"OPENAI_IMAGES", &c.Model.OpenAIImages, "1 when the OpenAI-compatible model accepts image input"},
	} {
		switch s := e[b.name]; s {
		case "", "0":
		case "1":
			*b.dst = true
		default:
			errs = append(errs, &usererr.Config{Var: b.name, Msg: fmt.Sprintf("%q is neither 1 nor 0", s), Hint: b.hint})
		}
	}
	return errors.Join(errs...)
}

// positive reads a variable holding a positive whole number, def when it
// is unset.
func positive(env map[string]string, name string, def int, hint string) (int, error) {
	s, ok := env[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return def, &usererr.Config{Var: name, Msg: fmt.Sprintf("%q is not a positive whole number", s), Hint: hint, Err: err}
	}
	return n, nil
}

func (c *Config) loadWeb() error {
	e := c.env
	c.Web = Web{PublicURL: strings.TrimRight(e["FACTBOT_PUBLIC_URL"], "/"), Secret: e["FACTBOT_WEB_SECRET"], AdminToken: e["FACTBOT_WEB_ADMIN_TOKEN"],
		CheckTTL: web.DefaultCheckTTL, HistoryTTL: web.DefaultHistoryTTL, Organization: e["FACTBOT_ORGANIZATION"]}
	c.MCPToken = e["FACTBOT_MCP_TOKEN"]
	var errs []error
	if err := checkURL(e, "FACTBOT_PUBLIC_URL"); err != nil {
		errs = append(errs, &usererr.Config{Var: "FACTBOT_PUBLIC_URL", Msg: err.(*usererr.Config).Msg, Hint: "the https:// address people open, e.g. https://factbot.example.org (a TLS proxy in front of FACTBOT_HTTP_ADDR)"})
	}
	for _, name := range []string{"FACTBOT_WEB_SECRET", "FACTBOT_WEB_ADMIN_TOKEN", "FACTBOT_MCP_TOKEN"} {
		if v, ok := e[name]; ok && len(v) < minWebSecret {
			errs = append(errs, &usererr.Config{Var: name, Msg: fmt.Sprintf("too short (%d characters, at least %d)", len(v), minWebSecret), Hint: "make one with: openssl rand -hex 32"})
		}
	}
	if s, ok := e["FACTBOT_WEB_LINK_TTL"]; ok {
		ck, hist, two := strings.Cut(s, ",")
		d1, err1 := ParseAge(ck)
		d2, err2 := c.Web.HistoryTTL, error(nil)
		if two {
			d2, err2 = ParseAge(hist)
		}
		if err1 != nil || err2 != nil || d1 <= 0 || d2 <= 0 {
			errs = append(errs, &usererr.Config{Var: "FACTBOT_WEB_LINK_TTL", Msg: fmt.Sprintf("%q is not one or two positive durations", s), Hint: "how long links stay valid: for one check, and optionally for a history after a comma, e.g. 7d or 7d,1h"})
		} else {
			c.Web.CheckTTL, c.Web.HistoryTTL = d1, d2
		}
	}
	return errors.Join(errs...)
}

// checkURL reports a variable that is set but not an http(s) URL.
func checkURL(env map[string]string, name string) error {
	s, ok := env[name]
	if !ok {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &usererr.Config{Var: name, Msg: fmt.Sprintf("%q is not an http(s) URL", s), Hint: "e.g. http://localhost:8080", Err: err}
	}
	return nil
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

// loadShard reads FACTBOT_DISCORD_SHARD and FACTBOT_DISCORD_SHARDS: both
// or neither, a shard count of at least 1 and a shard below it.
func (c *Config) loadShard() error {
	e := c.env
	shard, hasShard := e["FACTBOT_DISCORD_SHARD"]
	shards, hasShards := e["FACTBOT_DISCORD_SHARDS"]
	if !hasShard && !hasShards {
		return nil
	}
	const hint = "this replica's shard, from 0, and the number of shards, e.g. FACTBOT_DISCORD_SHARD=1 FACTBOT_DISCORD_SHARDS=2"
	if !hasShard || !hasShards {
		missing := "FACTBOT_DISCORD_SHARD"
		if hasShard {
			missing = "FACTBOT_DISCORD_SHARDS"
		}
		return &usererr.Config{Var: missing, Msg: "is needed with the other shard setting", Hint: hint}
	}
	n, err := strconv.Atoi(shards)
	if err != nil || n < 1 {
		return &usererr.Config{Var: "FACTBOT_DISCORD_SHARDS", Msg: fmt.Sprintf("%q is not a positive number", shards), Hint: hint}
	}
	id, err := strconv.Atoi(shard)
	if err != nil || id < 0 || id >= n {
		return &usererr.Config{Var: "FACTBOT_DISCORD_SHARD", Msg: fmt.Sprintf("%q is not a shard from 0 to %d", shard, n-1), Hint: hint}
	}
	c.Discord.Shard, c.Discord.Shards = id, n
	return nil
}
