package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/openai"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/web"
)

// Var is one variable of the configuration table.
type Var struct {
	Name string
	// Default is what an unset variable means ("" when nothing): shown
	// by `factbot config` (unless the rest of the configuration decides
	// it) and in the reference.
	Default string
	// Secret values are never printed whole.
	Secret bool
	// Doc says what the variable is for, in Markdown (the reference's
	// last column).
	Doc string

	// group is the reference's section the variable is listed under.
	group string
	// parse reads the variable's value s (trimmed; "" when unset) into c,
	// defaults included; its errors are *usererr.Config naming it. The
	// table's order is the order of parsing: a variable may read the
	// fields of those above it.
	parse func(c *Config, s string) error
	// effective, if set, is the default in effect when the variable is
	// unset, which the rest of the configuration decides (`factbot
	// config`); Default describes it in the reference.
	effective func(c *Config) string
	// show, if set, is how `factbot config` shows a value that is set.
	show func(s string) string
}

// section is a group of the table, a section of the reference.
type section struct {
	name string
	vars []Var
}

// Vars lists every variable factbot reads, in the order of the reference
// (docs/configuration.md) and of `factbot config`. It is built when asked
// for, so that starting the program builds nothing.
func Vars() []Var {
	var out []Var
	for _, s := range sections() {
		for _, v := range s.vars {
			v.group = s.name
			out = append(out, v)
		}
	}
	return out
}

func sections() []section {
	return []section{
		{"Model", modelVars()},
		{"Search", searchVars()},
		{"How verdicts are made", engineVars()},
		{"Claim matching", matchVars()},
		{"Storage", storeVars()},
		{"Serving and limits", serveVars()},
		{"Web view", webVars()},
		{"MCP", mcpVars()},
		{"Slack", slackVars()},
		{"Discord", discordVars()},
		{"Other", otherVars()},
	}
}

func modelVars() []Var {
	return []Var{
		{Name: "GEMINI_API_KEY", Secret: true,
			Doc:   "Gemini, the default model provider; also Google Search through Gemini when no other search provider is set. Get one at <https://aistudio.google.com/apikey>.",
			parse: func(c *Config, s string) error { c.Model.GeminiKey = s; return nil }},
		{Name: "GOOGLE_API_KEY", Secret: true,
			Doc: "used for Gemini when `GEMINI_API_KEY` is unset, and for Google Fact Check Tools when `FACTCHECK_API_KEY` is unset",
			parse: func(c *Config, s string) error {
				c.Model.GeminiKey = or(c.Model.GeminiKey, s)
				return nil
			}},
		{Name: "FACTBOT_LLM", Default: LLMGemini,
			Doc:   "`gemini` or `openai` (any OpenAI-compatible server: OpenAI, Ollama, vLLM, llama.cpp; see [OpenAI-compatible models](configuration-guide.md#openai-compatible-models-local-or-hosted))",
			parse: parseProvider},
		{Name: "FACTBOT_MODEL", Default: gemini.DefaultModel,
			Doc:       "model name for the chosen provider (required with `openai`; the default is Gemini's)",
			parse:     func(c *Config, s string) error { c.Model.Name = s; return nil },
			effective: func(c *Config) string { return c.Model.ModelName() }},
		{Name: "GOOGLE_GEMINI_BASE_URL", Default: "Google's",
			Doc:   "the genai SDK's own endpoint override (tests, proxies)",
			parse: urlVar("GOOGLE_GEMINI_BASE_URL", func(c *Config) *string { return &c.Model.GeminiBaseURL })},
		{Name: "OPENAI_API_KEY", Secret: true,
			Doc:   "the OpenAI-compatible provider's key; a local server needs none",
			parse: func(c *Config, s string) error { c.Model.OpenAIKey = s; return nil }},
		{Name: "OPENAI_BASE_URL", Default: openai.DefaultBaseURL,
			Doc:   "the OpenAI-compatible API's root, ending in `/v1` (e.g. `http://localhost:11434/v1` for Ollama)",
			parse: urlVar("OPENAI_BASE_URL", func(c *Config) *string { return &c.Model.OpenAIBaseURL })},
		{Name: "OPENAI_IMAGES", Default: "0",
			Doc:   "`1` when the OpenAI-compatible model accepts image input: pictures attached in chat are sent to it (as `image_url` data URLs); otherwise the report says they were not read. Gemini always reads them",
			parse: offSwitch("OPENAI_IMAGES", "1 when the OpenAI-compatible model accepts image input", func(c *Config) *bool { return &c.Model.OpenAIImages })},
	}
}

func searchVars() []Var {
	return []Var{
		{Name: "TAVILY_API_KEY", Secret: true,
			Doc:   "Tavily search (<https://app.tavily.com>)",
			parse: func(c *Config, s string) error { c.Search.TavilyKey = s; return nil }},
		{Name: "FACTBOT_TAVILY_URL", Default: search.DefaultTavilyURL,
			Doc:   "Tavily's API root (tests, proxies)",
			parse: urlVar("FACTBOT_TAVILY_URL", func(c *Config) *string { return &c.Search.TavilyURL })},
		{Name: "BRAVE_API_KEY", Secret: true,
			Doc:   "Brave Search (<https://brave.com/search/api/>)",
			parse: func(c *Config, s string) error { c.Search.BraveKey = s; return nil }},
		{Name: "FACTBOT_BRAVE_URL", Default: search.DefaultBraveURL,
			Doc:   "Brave Search's API root (tests, proxies)",
			parse: urlVar("FACTBOT_BRAVE_URL", func(c *Config) *string { return &c.Search.BraveURL })},
		{Name: "SEARXNG_URL",
			Doc:   "a self-hosted SearXNG (its JSON format must be enabled)",
			parse: urlVar("SEARXNG_URL", func(c *Config) *string { return &c.Search.SearXNGURL })},
		{Name: "FACTBOT_CORPUS",
			Doc:   "a folder of the team's own documents (`.html`, `.htm`, `.pdf`, `.md`, `.markdown`, `.txt`, subfolders included, dot-files skipped) searched before the web: the text of each file is extracted once into an index kept outside the folder (beside the database under `serve`, else in the user's cache folder; only regular files inside the folder are read, up to 32 MiB each: [security.md](security.md)), and the folder is checked for added, changed and removed files at most once a minute; results link to the files' `file://` URLs, which `read_page` serves from the index. With no `FACTBOT_SEARCH`, the corpus comes first and the web is asked when it finds nothing; `FACTBOT_SEARCH=corpus` searches only the corpus (no internet needed but the model's)",
			parse: func(c *Config, s string) error { c.Search.CorpusDir = s; return nil }},
		{Name: "FACTCHECK_API_KEY", Default: "GOOGLE_API_KEY's", Secret: true,
			Doc: "Google Fact Check Tools (published ClaimReview fact-checks, the `search_fact_checks` tool)",
			parse: func(c *Config, s string) error {
				c.Search.FactCheckKey = or(s, c.env["GOOGLE_API_KEY"])
				return nil
			},
			effective: func(c *Config) string {
				if c.env["GOOGLE_API_KEY"] != "" {
					return "GOOGLE_API_KEY's"
				}
				return ""
			}},
		{Name: "FACTBOT_SEARCH", Default: "every configured provider",
			Doc:       "provider order for failover, e.g. `brave,tavily,gemini` or `corpus,tavily`; with none configured: `gemini` (after `corpus` when `FACTBOT_CORPUS` is set)",
			parse:     parseSearchOrder,
			effective: func(c *Config) string { return strings.Join(c.Search.Order, ",") }},
	}
}

// switches are the variables that turn a step of verification off with
// 0, each with the Options field it sets.
var switches = []struct {
	name string
	off  func(o *factcheck.Options) *bool
	doc  string
}{
	{"FACTBOT_QUESTIONS", func(o *factcheck.Options) *bool { return &o.NoQuestions }, "the questions written before searching"},
	{"FACTBOT_COMPACT", func(o *factcheck.Options) *bool { return &o.NoCompact }, "the compact transcript"},
	{"FACTBOT_RECHECK", func(o *factcheck.Options) *bool { return &o.NoRecheck }, "the one chance to fix evidence that fails the checks"},
	{"FACTBOT_SCORES", func(o *factcheck.Options) *bool { return &o.NoScores }, "the per-label scores"},
	{"FACTBOT_CRITIC", func(o *factcheck.Options) *bool { return &o.NoCritic }, "the critic"},
	// FACTBOT_CRITIC_SKIP=0: the critic reviews every verdict.
	{"FACTBOT_CRITIC_SKIP", func(o *factcheck.Options) *bool { return &o.NoCriticSkip }, "skipping the critic when every cited sentence plainly takes the label's side"},
	// The faster path (issue 47): 0 gives back each step's earlier form.
	{"FACTBOT_JOINT_PLAN", func(o *factcheck.Options) *bool { return &o.NoJointPlan }, "the questions written with the claims, in the extraction's call (each claim's questions then take a call of their own)"},
	{"FACTBOT_PREFETCH", func(o *factcheck.Options) *bool { return &o.NoPrefetch }, "the searches and page reads made in parallel before the first research turn (the model then makes each one, a turn each)"},
	{"FACTBOT_CRITIC_DOUBT", func(o *factcheck.Options) *bool { return &o.NoCriticDoubt }, "keeping the critic for a plain verdict the model is not confident of or that cites no page read (the critic is then skipped on every plain verdict)"},
}

func engineVars() []Var {
	vars := []Var{
		{Name: "FACTBOT_TEMPERATURE", Default: strconv.FormatFloat(factcheck.DefaultTemperature, 'g', -1, 64),
			Doc:   "the model's sampling temperature, 0–2; low keeps verdicts repeatable",
			parse: parseTemperature},
	}
	for _, sw := range switches {
		vars = append(vars, Var{Name: sw.name, Default: "1",
			Doc:   "`0` turns off " + sw.doc + " (see [how a verdict is made](verdicts.md)), to measure it against the baseline with `factbot eval`",
			parse: onSwitch(sw.name, sw.off)})
	}
	return append(vars,
		Var{Name: "FACTBOT_EXCLUDE_SITES",
			Doc:   "a file of domains (one a line, `#` comments) kept out of every search result and page read, subdomains included; `factbot check` and `factbot eval` also take `--exclude-sites FILE`",
			parse: parseExcludeSites},
		Var{Name: "FACTBOT_CALIBRATION", Default: "no offsets",
			Doc:   "a JSON file of per-label score offsets, e.g. `{\"offsets\": {\"unverifiable\": -0.5}}`, added before the highest score is taken; written by `factbot eval --fit` (see [AVeriTeC](evaluation.md#averitec))",
			parse: parseCalibration},
		Var{Name: "FACTBOT_ALLOW_PRIVATE_FETCH", Default: "0",
			Doc:   "`1` lets the page reader reach loopback and private addresses (tests, intranets)",
			parse: offSwitch("FACTBOT_ALLOW_PRIVATE_FETCH", "1 lets the page reader reach loopback and private addresses; leave it unset otherwise", func(c *Config) *bool { return &c.AllowPrivateFetch })},
	)
}

func storeVars() []Var {
	return []Var{
		{Name: "FACTBOT_DB", Default: DefaultDB,
			Doc:   "the database of every command: a path is a bbolt file (one process); `postgres://…` a PostgreSQL database, which several `factbot serve` replicas can share (see [Deployment](deployment.md)); `factbot config` masks its password",
			parse: func(c *Config, s string) error { c.DB = or(s, DefaultDB); return nil },
			show:  RedactURL},
		{Name: "FACTBOT_CACHE_TTL", Default: FormatDuration(DefaultCacheTTL),
			Doc:   "verdict freshness (`7d` works too)",
			parse: age("FACTBOT_CACHE_TTL", DefaultCacheTTL, 1, "is not a positive duration", "e.g. 168h or 7d", func(c *Config) *time.Duration { return &c.CacheTTL })},
		{Name: "FACTBOT_RETENTION", Default: FormatDuration(DefaultRetention),
			Doc:   "`factbot serve` prunes checks, requests and cached web results older than this every hour (`0` keeps them); refused requests leave only a dedupe record, removed after a day",
			parse: age("FACTBOT_RETENTION", DefaultRetention, 0, "is not a duration", "e.g. 90d, or 0 to keep everything", func(c *Config) *time.Duration { return &c.Retention })},
		{Name: "FACTBOT_LEASE", Default: FormatDuration(DefaultLease),
			Doc:   "how long a `factbot serve` replica holds a chat request it runs without renewing it (every third of it); when a replica dies, another takes its requests over within 1.5 × this",
			parse: age("FACTBOT_LEASE", DefaultLease, time.Second, "is not a duration of a second or more", "e.g. 1m: replicas renew it every third of it", func(c *Config) *time.Duration { return &c.Lease })},
	}
}

func serveVars() []Var {
	return []Var{
		{Name: "FACTBOT_HTTP_ADDR", Default: DefaultHTTPAddr,
			Doc:   "health, metrics, Slack HTTP mode, Discord HTTP interactions, the web view",
			parse: func(c *Config, s string) error { c.HTTPAddr = or(s, DefaultHTTPAddr); return nil }},
		{Name: "FACTBOT_METRICS_ADDR", Default: "FACTBOT_HTTP_ADDR's",
			Doc:   "a separate listener for `/metrics` (e.g. `127.0.0.1:9090`), which also answers `/healthz` and `/readyz`; when set, the public listener no longer serves `/metrics` (`/healthz` and `/readyz` stay)",
			parse: func(c *Config, s string) error { c.MetricsAddr = s; return nil }},
		{Name: "FACTBOT_MAX_CONNS", Default: fmt.Sprint(DefaultMaxConns),
			Doc:   "open connections each HTTP listener accepts at once (`factbot serve`'s, `factbot web --addr`'s, `factbot mcp --addr`'s), half of them at most waiting for request headers (when full, the one that has waited longest is closed; [security.md](security.md)); a client must send its request headers within 2 seconds and its body within 15 seconds",
			parse: positive("FACTBOT_MAX_CONNS", DefaultMaxConns, "open HTTP connections at once, e.g. 256", func(c *Config) *int { return &c.MaxConns })},
		{Name: "FACTBOT_MAX_CONNS_PER_IP", Default: fmt.Sprint(DefaultMaxConnsPerIP),
			Doc:   "open connections from one client address (more are closed at once), so that one client cannot starve the others; behind a proxy that connects from one address, set it to `FACTBOT_MAX_CONNS`",
			parse: positive("FACTBOT_MAX_CONNS_PER_IP", DefaultMaxConnsPerIP, "open HTTP connections from one address, e.g. 32", func(c *Config) *int { return &c.MaxConnsPerIP })},
		{Name: "FACTBOT_USER_LIMIT", Default: DefaultUserLimit,
			Doc:   "checks per person per window in chat, counted across every workspace, server and direct message they ask in (`off` disables)",
			parse: limit("FACTBOT_USER_LIMIT", DefaultUserLimit, "checks per user per window, e.g. 10/10m; off disables", func(c *Config) *bot.Limit { return &c.UserLimit })},
		{Name: "FACTBOT_TENANT_LIMIT", Default: DefaultTenantLimit,
			Doc:   "checks per Slack workspace or Discord server per window, all its people together (`off` disables)",
			parse: limit("FACTBOT_TENANT_LIMIT", DefaultTenantLimit, "checks per workspace or server per window, e.g. 100/1h; off disables", func(c *Config) *bot.Limit { return &c.TenantLimit })},
		{Name: "FACTBOT_MAX_QUEUE", Default: fmt.Sprint(DefaultMaxQueue),
			Doc:   "chat requests waiting for a worker; more are refused with a note saying how many wait and about how long (`factbot_queue_depth`, `factbot_refusals_total` in `/metrics`)",
			parse: positive("FACTBOT_MAX_QUEUE", DefaultMaxQueue, "chat requests waiting for a worker, e.g. 100", func(c *Config) *int { return &c.MaxQueue })},
		{Name: "FACTBOT_REACTION", Default: strings.Join(DefaultReactions, ","),
			Doc:   "the reactions (Slack's names; in Discord 🔍 and 🔎, or the emoji given) that ask for a check of the message they are added to; `off` disables them",
			parse: parseReactions},
	}
}

func webVars() []Var {
	return []Var{
		{Name: "FACTBOT_PUBLIC_URL",
			Doc:   "the `https://` address people open to reach `FACTBOT_HTTP_ADDR` (behind a TLS proxy); with `FACTBOT_WEB_SECRET` it turns the [web view](web.md) on, and Slack's OAuth install needs it. An `http://` address works but `serve` and `web` warn at start: links and their tokens would travel in clear",
			parse: parsePublicURL},
		{Name: "FACTBOT_WEB_SECRET", Secret: true,
			Doc:   "signs the web view's links (HMAC-SHA256); at least 32 characters, e.g. `openssl rand -hex 32`. Changing it voids every link given out",
			parse: secretVar("FACTBOT_WEB_SECRET", func(c *Config) *string { return &c.Web.Secret })},
		{Name: "FACTBOT_WEB_LINK_TTL", Default: FormatDuration(web.DefaultCheckTTL) + "," + FormatDuration(web.DefaultHistoryTTL),
			Doc:   "how long links stay valid: to one check, and after a comma to a history (`7d` or `30d,2h`)",
			parse: parseLinkTTL},
		{Name: "FACTBOT_WEB_ADMIN_TOKEN", Secret: true,
			Doc:   "operators open every page of every tenant with `Authorization: Bearer <token>`; at least 32 characters",
			parse: secretVar("FACTBOT_WEB_ADMIN_TOKEN", func(c *Config) *string { return &c.Web.AdminToken })},
		{Name: "FACTBOT_ORGANIZATION", Default: web.DefaultOrganization,
			Doc:   "who publishes the verdicts: the author of the ClaimReview markup on every check's page and in `factbot export --format claimreview` (see [ClaimReview](claimreview.md))",
			parse: func(c *Config, s string) error { c.Web.Organization = s; return nil }},
	}
}

func mcpVars() []Var {
	return []Var{
		{Name: "FACTBOT_MCP_TOKEN", Secret: true,
			Doc:   "the Bearer token `factbot mcp --addr` requires of every HTTP request (`Authorization: Bearer <token>`), or several separated by commas, one per client, each at least 32 characters; without it, `factbot mcp --addr` serves loopback addresses only (see [MCP](mcp.md))",
			parse: parseMCPTokens},
		{Name: "FACTBOT_MCP_MAX_SESSIONS", Default: fmt.Sprint(DefaultMCPMaxSessions),
			Doc:   "open sessions of `factbot mcp --addr`, every client's together; a new one beyond is refused with HTTP 503 and a JSON-RPC error",
			parse: positive("FACTBOT_MCP_MAX_SESSIONS", DefaultMCPMaxSessions, "open MCP sessions at once, e.g. 64", func(c *Config) *int { return &c.MCP.MaxSessions })},
		{Name: "FACTBOT_MCP_MAX_SESSIONS_PER_TOKEN", Default: fmt.Sprint(DefaultMCPMaxSessionsPerToken),
			Doc:   "open sessions of `factbot mcp --addr` opened with one token of `FACTBOT_MCP_TOKEN` (without a token, every client together); a new one beyond is refused with HTTP 429 and a JSON-RPC error",
			parse: positive("FACTBOT_MCP_MAX_SESSIONS_PER_TOKEN", DefaultMCPMaxSessionsPerToken, "open MCP sessions per token, e.g. 16", func(c *Config) *int { return &c.MCP.MaxSessionsPerToken })},
		{Name: "FACTBOT_MCP_SESSION_IDLE", Default: FormatDuration(DefaultMCPSessionIdle),
			Doc:   "an MCP session over HTTP that receives no request for this long is closed (its client starts a new one)",
			parse: age("FACTBOT_MCP_SESSION_IDLE", DefaultMCPSessionIdle, time.Second, "is not a duration of a second or more", "e.g. 10m", func(c *Config) *time.Duration { return &c.MCP.SessionIdle })},
	}
}

func slackVars() []Var {
	return []Var{
		{Name: "SLACK_BOT_TOKEN", Secret: true,
			Doc:   "Slack, one workspace: the Bot User OAuth Token (`xoxb-…`)",
			parse: func(c *Config, s string) error { c.Slack.BotToken = s; return nil }},
		{Name: "SLACK_APP_TOKEN", Secret: true,
			Doc:   "Slack's Socket Mode: an app-level token (`xapp-…`) with `connections:write`",
			parse: parseAppToken},
		{Name: "SLACK_SIGNING_SECRET", Secret: true,
			Doc:   "Slack's HTTP mode: the signing secret its requests are checked with",
			parse: func(c *Config, s string) error { c.Slack.SigningSecret = s; return nil }},
		{Name: "SLACK_API_URL", Default: "the platform's",
			Doc:   "Slack's API root, for tests (the OAuth authorize page is taken next to it: `…/api/` → `…/oauth/v2/authorize`)",
			parse: urlVar("SLACK_API_URL", func(c *Config) *string { return &c.Slack.APIURL })},
		{Name: "SLACK_CLIENT_ID",
			Doc:   "Slack for [many workspaces](slack.md#many-workspaces-add-to-slack): every workspace that installs the app through `FACTBOT_PUBLIC_URL/slack/install` is answered with its own token (instead of `SLACK_BOT_TOKEN`'s one workspace); needs `SLACK_CLIENT_SECRET`, `FACTBOT_ENCRYPTION_KEY` and `FACTBOT_PUBLIC_URL`",
			parse: func(c *Config, s string) error { c.Slack.ClientID = s; return nil }},
		{Name: "SLACK_CLIENT_SECRET", Secret: true,
			Doc:   "the OAuth client's secret, with `SLACK_CLIENT_ID`",
			parse: func(c *Config, s string) error { c.Slack.ClientSecret = s; return nil }},
		{Name: "FACTBOT_ENCRYPTION_KEY", Secret: true,
			Doc:   "32 bytes in hex or base64 (`openssl rand -hex 32`): the workspaces' tokens are stored encrypted with it (AES-256-GCM)",
			parse: key("FACTBOT_ENCRYPTION_KEY", func(c *Config) *[]byte { return &c.EncryptionKey })},
		{Name: "FACTBOT_ENCRYPTION_KEY_OLD", Secret: true,
			Doc:   "the key `FACTBOT_ENCRYPTION_KEY` replaces, while rotating: `factbot rotate-key` re-encrypts every token with the new key; `factbot serve` still opens tokens sealed with the old one",
			parse: key("FACTBOT_ENCRYPTION_KEY_OLD", func(c *Config) *[]byte { return &c.EncryptionKeyOld })},
	}
}

func discordVars() []Var {
	return []Var{
		{Name: "DISCORD_BOT_TOKEN", Secret: true,
			Doc:   "Discord: the bot token",
			parse: func(c *Config, s string) error { c.Discord.Token = s; return nil }},
		{Name: "DISCORD_APP_ID", Default: "from the gateway",
			Doc:   "the application's id (needed with `FACTBOT_DISCORD_GATEWAY=0`)",
			parse: func(c *Config, s string) error { c.Discord.AppID = s; return nil }},
		{Name: "DISCORD_PUBLIC_KEY",
			Doc:   "the application's public key (64 hex digits): it enables HTTP interactions",
			parse: parsePublicKey},
		{Name: "DISCORD_GUILD_ID",
			Doc:   "registers the commands to one server, for instant updates",
			parse: func(c *Config, s string) error { c.Discord.GuildID = s; return nil }},
		{Name: "DISCORD_API_URL", Default: "the platform's",
			Doc:   "Discord's API root, for tests",
			parse: urlVar("DISCORD_API_URL", func(c *Config) *string { return &c.Discord.APIURL })},
		{Name: "FACTBOT_DISCORD_SHARD", Default: "0",
			Doc:   "this replica's Discord gateway shard (from 0), set together with `FACTBOT_DISCORD_SHARDS`; every replica needs its own shard (see [Deployment](deployment.md))",
			parse: func(*Config, string) error { return nil }}, // with FACTBOT_DISCORD_SHARDS
		{Name: "FACTBOT_DISCORD_SHARDS", Default: "1",
			Doc:   "the number of gateway shards, set together with `FACTBOT_DISCORD_SHARD`",
			parse: parseShards},
		{Name: "FACTBOT_DISCORD_GATEWAY", Default: "1",
			Doc:   "`0` serves Discord by HTTP interactions alone (`DISCORD_PUBLIC_KEY` and `DISCORD_APP_ID` needed): no gateway connection, so replicas behind a load balancer need no shards; slash and message commands work, mentions are not seen",
			parse: parseGateway},
		{Name: "FACTBOT_DISCORD_MESSAGE_CONTENT", Default: "0",
			Doc:   "`1` asks Discord for the privileged *Message Content* intent (turn it on under the Developer Portal's **Bot** page too): only then are reactions offered in Discord, since without it a message that does not mention the bot reaches factbot without its text",
			parse: offSwitch("FACTBOT_DISCORD_MESSAGE_CONTENT", "1 asks for Discord's privileged message content intent (enable it on the Developer Portal → Bot), which reactions need", func(c *Config) *bool { return &c.Discord.MessageContent })},
	}
}

func otherVars() []Var {
	return []Var{
		{Name: "USER", Default: "the system's name for the user",
			Doc:       "who runs `factbot check`, as recorded in its history (flag `--user`), and whom `factbot web --history` makes its link for",
			parse:     func(c *Config, s string) error { c.User = s; return nil },
			effective: func(*Config) string { return "" }},
		{Name: "OTEL_EXPORTER_OTLP_ENDPOINT",
			Doc:   "an OpenTelemetry collector's base URL, e.g. `http://localhost:4318`: `serve` and `check` then send a trace of every check (its span, each model call as `chat MODEL` with the GenAI attributes — model, input and output tokens, finish reason — and each tool call as `execute_tool NAME`) by OTLP over HTTP (protobuf) to its `/v1/traces`; the exporter's other `OTEL_EXPORTER_OTLP_*` variables (headers, timeout) apply",
			parse: urlVar("OTEL_EXPORTER_OTLP_ENDPOINT", func(c *Config) *string { return &c.OTLPEndpoint })},
	}
}
