package config

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/goldentest"
	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/internal/usererr"
)

func load(env map[string]string) (*Config, error) {
	return Load(func(k string) string { return env[k] })
}

func TestLoad(t *testing.T) {
	defaults := func(f func(c *Config)) *Config {
		c := &Config{
			Model:         Model{Provider: LLMGemini},
			Search:        Search{Order: []string{SearchGemini}},
			DB:            DefaultDB,
			CacheTTL:      168 * time.Hour,
			HTTPAddr:      DefaultHTTPAddr,
			MaxConns:      256,
			MaxConnsPerIP: 32,
			UserLimit:     bot.Limit{N: 10, Window: 10 * time.Minute},
			TenantLimit:   bot.Limit{N: 100, Window: time.Hour},
			MaxQueue:      100,
			Retention:     90 * 24 * time.Hour,
			Lease:         time.Minute,
			Web:           Web{CheckTTL: 7 * 24 * time.Hour, HistoryTTL: time.Hour},
			MCP:           MCP{MaxSessions: 64, MaxSessionsPerToken: 16, SessionIdle: 10 * time.Minute},
			Slack:         Slack{Reactions: DefaultReactions},
			Discord:       Discord{Reactions: DefaultReactions},
			Match:         Match{On: true, Dim: 128, Threshold: 0.85, MaxAge: 168 * time.Hour},
		}
		if f != nil {
			f(c)
		}
		return c
	}
	tests := []struct {
		name string
		env  map[string]string
		want *Config
	}{
		{"empty", map[string]string{}, defaults(nil)},
		{"MCP tokens and sessions", map[string]string{"FACTBOT_MCP_TOKEN": strings.Repeat("a", 32) + " , " + strings.Repeat("b", 40),
			"FACTBOT_MCP_MAX_SESSIONS": "8", "FACTBOT_MCP_MAX_SESSIONS_PER_TOKEN": "2", "FACTBOT_MCP_SESSION_IDLE": "90s"}, defaults(func(c *Config) {
			c.MCP = MCP{Tokens: []string{strings.Repeat("a", 32), strings.Repeat("b", 40)}, MaxSessions: 8, MaxSessionsPerToken: 2, SessionIdle: 90 * time.Second}
		})},
		{"discord shard and lease", map[string]string{"FACTBOT_DISCORD_SHARD": "1", "FACTBOT_DISCORD_SHARDS": "3", "FACTBOT_LEASE": "30s"}, defaults(func(c *Config) {
			c.Discord.Shard, c.Discord.Shards = 1, 3
			c.Lease = 30 * time.Second
		})},
		{"gemini key from GOOGLE_API_KEY, also for fact checks", map[string]string{"GOOGLE_API_KEY": "g"}, defaults(func(c *Config) {
			c.Model.GeminiKey = "g"
			c.Search.FactCheckKey = "g"
		})},
		{"GEMINI_API_KEY first; FACTCHECK_API_KEY first", map[string]string{"GOOGLE_API_KEY": "g", "GEMINI_API_KEY": "k", "FACTCHECK_API_KEY": "f"}, defaults(func(c *Config) {
			c.Model.GeminiKey = "k"
			c.Search.FactCheckKey = "f"
		})},
		{"openai", map[string]string{"FACTBOT_LLM": " OpenAI ", "FACTBOT_MODEL": "qwen3:8b", "OPENAI_BASE_URL": "http://localhost:11434/v1"}, defaults(func(c *Config) {
			c.Model = Model{Provider: LLMOpenAI, Name: "qwen3:8b", OpenAIBaseURL: "http://localhost:11434/v1"}
		})},
		{"every configured search provider, in order", map[string]string{"SEARXNG_URL": "http://sx", "TAVILY_API_KEY": "t", "BRAVE_API_KEY": "b", "FACTBOT_BRAVE_URL": "http://brave"}, defaults(func(c *Config) {
			c.Search = Search{Order: []string{SearchTavily, SearchBrave, SearchSearXNG}, TavilyKey: "t", BraveKey: "b", BraveURL: "http://brave", SearXNGURL: "http://sx"}
		})},
		{"explicit search order", map[string]string{"FACTBOT_SEARCH": "Brave, gemini,", "BRAVE_API_KEY": "b"}, defaults(func(c *Config) {
			c.Search = Search{Order: []string{SearchBrave, SearchGemini}, Explicit: true, BraveKey: "b"}
		})},
		{"engine", map[string]string{"FACTBOT_TEMPERATURE": "0.7", "FACTBOT_QUESTIONS": "0", "FACTBOT_COMPACT": "1", "FACTBOT_RECHECK": "0",
			"FACTBOT_SCORES": "0", "FACTBOT_CRITIC": "0"}, defaults(func(c *Config) {
			t := 0.7
			c.Engine = factcheck.Options{Temperature: &t, NoQuestions: true, NoRecheck: true, NoScores: true, NoCritic: true}
		})},
		{"store and chat", map[string]string{"FACTBOT_DB": "/tmp/f.db", "FACTBOT_CACHE_TTL": "7d", "FACTBOT_ALLOW_PRIVATE_FETCH": "1",
			"FACTBOT_HTTP_ADDR": "127.0.0.1:0", "FACTBOT_USER_LIMIT": "off", "USER": "ada",
			"FACTBOT_METRICS_ADDR": "127.0.0.1:9090", "FACTBOT_MAX_CONNS": "32", "FACTBOT_TENANT_LIMIT": "50/30m", "FACTBOT_MAX_QUEUE": "7",
			"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1", "SLACK_SIGNING_SECRET": "s", "SLACK_API_URL": "http://slack/api/",
			"DISCORD_BOT_TOKEN": "d", "DISCORD_APP_ID": "1", "DISCORD_GUILD_ID": "2", "DISCORD_API_URL": "http://discord/",
			"DISCORD_PUBLIC_KEY": strings.Repeat("ab", 32)}, defaults(func(c *Config) {
			c.DB, c.CacheTTL, c.AllowPrivateFetch = "/tmp/f.db", 7*24*time.Hour, true
			c.HTTPAddr, c.UserLimit, c.User = "127.0.0.1:0", bot.Limit{}, "ada"
			c.MetricsAddr, c.MaxConns, c.TenantLimit, c.MaxQueue = "127.0.0.1:9090", 32, bot.Limit{N: 50, Window: 30 * time.Minute}, 7
			c.Slack = Slack{BotToken: "xoxb-1", AppToken: "xapp-1", SigningSecret: "s", APIURL: "http://slack/api/", Reactions: DefaultReactions}
			c.Discord = Discord{Token: "d", AppID: "1", GuildID: "2", APIURL: "http://discord/", PublicKey: strings.Repeat("ab", 32), Reactions: DefaultReactions}
		})},
		{"reactions, message content, image input", map[string]string{"FACTBOT_REACTION": " :eyes:, mag ", "FACTBOT_DISCORD_MESSAGE_CONTENT": "1", "OPENAI_IMAGES": "1"}, defaults(func(c *Config) {
			c.Slack.Reactions, c.Discord.Reactions = []string{"eyes", "mag"}, []string{"eyes", "mag"}
			c.Discord.MessageContent, c.Model.OpenAIImages = true, true
		})},
		{"claim matching", map[string]string{"FACTBOT_MATCH": "0", "FACTBOT_EMBED_MODEL": "nomic-embed-text", "FACTBOT_EMBED_DIM": "128",
			"FACTBOT_MATCH_THRESHOLD": "0.9", "FACTBOT_MATCH_MAX_AGE": "30d"}, defaults(func(c *Config) {
			c.Match = Match{On: false, Model: "nomic-embed-text", Dim: 128, Threshold: 0.9, MaxAge: 30 * 24 * time.Hour}
		})},
		{"reactions off", map[string]string{"FACTBOT_REACTION": "off"}, defaults(func(c *Config) {
			c.Slack.Reactions, c.Discord.Reactions = nil, nil
		})},
		{"web view", map[string]string{"FACTBOT_PUBLIC_URL": "https://factbot.example.org/", "FACTBOT_WEB_SECRET": webSecret, "FACTBOT_WEB_ADMIN_TOKEN": webSecret + "a"}, defaults(func(c *Config) {
			c.Web = Web{PublicURL: "https://factbot.example.org", Secret: webSecret, AdminToken: webSecret + "a", CheckTTL: 7 * 24 * time.Hour, HistoryTTL: time.Hour}
		})},
		{"web link lifetime", map[string]string{"FACTBOT_WEB_LINK_TTL": "2d"}, defaults(func(c *Config) {
			c.Web = Web{CheckTTL: 48 * time.Hour, HistoryTTL: time.Hour}
		})},
		{"web link lifetimes", map[string]string{"FACTBOT_WEB_LINK_TTL": "30d, 15m"}, defaults(func(c *Config) {
			c.Web = Web{CheckTTL: 30 * 24 * time.Hour, HistoryTTL: 15 * time.Minute}
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := load(tt.env)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreUnexported(Config{})); diff != "" {
				t.Errorf("Load (-want +got):\n%s", diff)
			}
		})
	}
}

// Every malformed value is reported, each as a *usererr.Config naming its
// variable, and the rest of the configuration is still read.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		wantVars []string
	}{
		{"unknown model provider", map[string]string{"FACTBOT_LLM": "claude"}, []string{"FACTBOT_LLM"}},
		{"unknown search provider", map[string]string{"FACTBOT_SEARCH": "tavily,bing"}, []string{"FACTBOT_SEARCH"}},
		{"bad TTL", map[string]string{"FACTBOT_CACHE_TTL": "soon"}, []string{"FACTBOT_CACHE_TTL"}},
		{"zero TTL", map[string]string{"FACTBOT_CACHE_TTL": "0d"}, []string{"FACTBOT_CACHE_TTL"}},
		{"bad retention", map[string]string{"FACTBOT_RETENTION": "forever"}, []string{"FACTBOT_RETENTION"}},
		{"bad lease", map[string]string{"FACTBOT_LEASE": "10ms"}, []string{"FACTBOT_LEASE"}},
		{"shard without count", map[string]string{"FACTBOT_DISCORD_SHARD": "0"}, []string{"FACTBOT_DISCORD_SHARDS"}},
		{"count without shard", map[string]string{"FACTBOT_DISCORD_SHARDS": "2"}, []string{"FACTBOT_DISCORD_SHARD"}},
		{"shard beyond count", map[string]string{"FACTBOT_DISCORD_SHARD": "2", "FACTBOT_DISCORD_SHARDS": "2"}, []string{"FACTBOT_DISCORD_SHARD"}},
		{"negative shard", map[string]string{"FACTBOT_DISCORD_SHARD": "-1", "FACTBOT_DISCORD_SHARDS": "2"}, []string{"FACTBOT_DISCORD_SHARD"}},
		{"zero shards", map[string]string{"FACTBOT_DISCORD_SHARD": "0", "FACTBOT_DISCORD_SHARDS": "0"}, []string{"FACTBOT_DISCORD_SHARDS"}},
		{"bad user limit", map[string]string{"FACTBOT_USER_LIMIT": "lots"}, []string{"FACTBOT_USER_LIMIT"}},
		{"bad tenant limit", map[string]string{"FACTBOT_TENANT_LIMIT": "100"}, []string{"FACTBOT_TENANT_LIMIT"}},
		{"zero connections", map[string]string{"FACTBOT_MAX_CONNS": "0"}, []string{"FACTBOT_MAX_CONNS"}},
		{"queue not a number", map[string]string{"FACTBOT_MAX_QUEUE": "many"}, []string{"FACTBOT_MAX_QUEUE"}},
		{"bot token as app token", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xoxb-1"}, []string{"SLACK_APP_TOKEN"}},
		{"key not hex nor base64", map[string]string{"FACTBOT_ENCRYPTION_KEY": "hunter2"}, []string{"FACTBOT_ENCRYPTION_KEY"}},
		{"short key", map[string]string{"FACTBOT_ENCRYPTION_KEY": "abcd"}, []string{"FACTBOT_ENCRYPTION_KEY"}},
		{"long old key", map[string]string{"FACTBOT_ENCRYPTION_KEY": testKeyHex, "FACTBOT_ENCRYPTION_KEY_OLD": testKeyHex + "00"}, []string{"FACTBOT_ENCRYPTION_KEY_OLD"}},
		{"short public key", map[string]string{"DISCORD_BOT_TOKEN": "t", "DISCORD_PUBLIC_KEY": "abcd"}, []string{"DISCORD_PUBLIC_KEY"}},
		{"temperature out of range", map[string]string{"FACTBOT_TEMPERATURE": "2.5"}, []string{"FACTBOT_TEMPERATURE"}},
		{"temperature not a number", map[string]string{"FACTBOT_TEMPERATURE": "low"}, []string{"FACTBOT_TEMPERATURE"}},
		{"switch not 0 or 1", map[string]string{"FACTBOT_CRITIC": "off", "FACTBOT_SCORES": "no"}, []string{"FACTBOT_CRITIC", "FACTBOT_SCORES"}},
		{"private fetch not 1", map[string]string{"FACTBOT_ALLOW_PRIVATE_FETCH": "yes"}, []string{"FACTBOT_ALLOW_PRIVATE_FETCH"}},
		{"URL without scheme", map[string]string{"FACTBOT_TAVILY_URL": "localhost:9999"}, []string{"FACTBOT_TAVILY_URL"}},
		{"missing exclusion list", map[string]string{"FACTBOT_EXCLUDE_SITES": "testdata/no-such-file.txt"}, []string{"FACTBOT_EXCLUDE_SITES"}},
		{"missing calibration", map[string]string{"FACTBOT_CALIBRATION": "testdata/no-such-file.json"}, []string{"FACTBOT_CALIBRATION"}},
		{"calibration not JSON", map[string]string{"FACTBOT_CALIBRATION": "testdata/not-a-calibration.txt"}, []string{"FACTBOT_CALIBRATION"}},
		{"calibration of an unknown label", map[string]string{"FACTBOT_CALIBRATION": "testdata/unknown-label-calibration.json"}, []string{"FACTBOT_CALIBRATION"}},
		{"public URL not a URL", map[string]string{"FACTBOT_PUBLIC_URL": "factbot.example.org"}, []string{"FACTBOT_PUBLIC_URL"}},
		{"short web secret", map[string]string{"FACTBOT_WEB_SECRET": "hunter2"}, []string{"FACTBOT_WEB_SECRET"}},
		{"short admin token", map[string]string{"FACTBOT_WEB_ADMIN_TOKEN": "admin"}, []string{"FACTBOT_WEB_ADMIN_TOKEN"}},
		{"short MCP token among several", map[string]string{"FACTBOT_MCP_TOKEN": strings.Repeat("a", 32) + ",short"}, []string{"FACTBOT_MCP_TOKEN"}},
		{"zero MCP sessions", map[string]string{"FACTBOT_MCP_MAX_SESSIONS_PER_TOKEN": "0"}, []string{"FACTBOT_MCP_MAX_SESSIONS_PER_TOKEN"}},
		{"MCP idle under a second", map[string]string{"FACTBOT_MCP_SESSION_IDLE": "10ms"}, []string{"FACTBOT_MCP_SESSION_IDLE"}},
		{"bad link lifetime", map[string]string{"FACTBOT_WEB_LINK_TTL": "7d,never"}, []string{"FACTBOT_WEB_LINK_TTL"}},
		{"zero link lifetime", map[string]string{"FACTBOT_WEB_LINK_TTL": "0"}, []string{"FACTBOT_WEB_LINK_TTL"}},
		{"gateway off without an app id", map[string]string{"DISCORD_BOT_TOKEN": "t", "FACTBOT_DISCORD_GATEWAY": "0",
			"DISCORD_PUBLIC_KEY": strings.Repeat("ab", 32)}, []string{"FACTBOT_DISCORD_GATEWAY"}},
		{"gateway neither 0 nor 1", map[string]string{"FACTBOT_DISCORD_GATEWAY": "no"}, []string{"FACTBOT_DISCORD_GATEWAY"}},
		{"several at once", map[string]string{"FACTBOT_LLM": "x", "FACTBOT_CACHE_TTL": "x", "SEARXNG_URL": "x", "FACTBOT_USER_LIMIT": "x"},
			[]string{"FACTBOT_CACHE_TTL", "FACTBOT_LLM", "FACTBOT_USER_LIMIT", "SEARXNG_URL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := load(tt.env)
			if cfg == nil {
				t.Fatal("Load returned no Config with its error")
			}
			if diff := cmp.Diff(tt.wantVars, configVars(t, err)); diff != "" {
				t.Errorf("variables named (-want +got):\n%s\nerror: %v", diff, err)
			}
		})
	}
}

// configVars returns the variables err's configuration errors name, and
// fails if err holds any other kind of error.
func configVars(t *testing.T, err error) []string {
	t.Helper()
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else if err != nil {
		errs = []error{err}
	}
	var vars []string
	for _, e := range errs {
		var ce *usererr.Config
		if !errors.As(e, &ce) {
			t.Fatalf("%v is not a *usererr.Config", e)
		}
		if ce.Hint == "" {
			t.Errorf("%v says nothing about where to get a value", ce)
		}
		vars = append(vars, ce.Var)
	}
	sort.Strings(vars)
	return vars
}

// What the engine and the chat adapters need beyond well-formed values.
func TestRequirements(t *testing.T) {
	tests := []struct {
		name       string
		env        map[string]string
		engine     string // the variable EngineErr names, "" for none
		chat       string // the variable ChatErr names, "" for none
		slackValid bool
	}{
		{"nothing", map[string]string{}, "GEMINI_API_KEY", "SLACK_BOT_TOKEN or DISCORD_BOT_TOKEN", true},
		{"gemini", map[string]string{"GEMINI_API_KEY": "k", "DISCORD_BOT_TOKEN": "d"}, "", "", true},
		{"openai without a model", map[string]string{"FACTBOT_LLM": "openai", "OPENAI_API_KEY": "k"}, "FACTBOT_MODEL", "SLACK_BOT_TOKEN or DISCORD_BOT_TOKEN", true},
		{"hosted openai without a key", map[string]string{"FACTBOT_LLM": "openai", "FACTBOT_MODEL": "gpt-4.1-mini"}, "OPENAI_API_KEY", "SLACK_BOT_TOKEN or DISCORD_BOT_TOKEN", true},
		{"local openai without a key", map[string]string{"FACTBOT_LLM": "openai", "FACTBOT_MODEL": "m", "OPENAI_BASE_URL": "http://localhost:11434/v1"}, "GEMINI_API_KEY", "SLACK_BOT_TOKEN or DISCORD_BOT_TOKEN", true},
		{"local openai with searxng", map[string]string{"FACTBOT_LLM": "openai", "FACTBOT_MODEL": "m", "OPENAI_BASE_URL": "http://localhost:11434/v1", "SEARXNG_URL": "http://sx"}, "", "SLACK_BOT_TOKEN or DISCORD_BOT_TOKEN", true},
		{"search order names a provider without a key", map[string]string{"GEMINI_API_KEY": "k", "FACTBOT_SEARCH": "gemini,brave"}, "BRAVE_API_KEY", "SLACK_BOT_TOKEN or DISCORD_BOT_TOKEN", true},
		{"slack bot token only", map[string]string{"GEMINI_API_KEY": "k", "SLACK_BOT_TOKEN": "xoxb-1"}, "", "SLACK_APP_TOKEN", false},
		{"slack app token only", map[string]string{"GEMINI_API_KEY": "k", "SLACK_APP_TOKEN": "xapp-1"}, "", "SLACK_BOT_TOKEN", false},
		{"slack HTTP mode", map[string]string{"GEMINI_API_KEY": "k", "SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"}, "", "", true},
		{"slack OAuth, complete", map[string]string{"GEMINI_API_KEY": "k", "SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "cs", "SLACK_APP_TOKEN": "xapp-1",
			"FACTBOT_ENCRYPTION_KEY": testKeyHex, "FACTBOT_PUBLIC_URL": "https://f.example"}, "", "", true},
		{"slack OAuth without a key", map[string]string{"GEMINI_API_KEY": "k", "SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "cs", "SLACK_APP_TOKEN": "xapp-1",
			"FACTBOT_PUBLIC_URL": "https://f.example"}, "", "FACTBOT_ENCRYPTION_KEY", true},
		{"slack OAuth without a public URL", map[string]string{"GEMINI_API_KEY": "k", "SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "cs", "SLACK_SIGNING_SECRET": "s",
			"FACTBOT_ENCRYPTION_KEY": testKeyHex}, "", "FACTBOT_PUBLIC_URL", true},
		{"slack OAuth without a secret", map[string]string{"GEMINI_API_KEY": "k", "SLACK_CLIENT_ID": "1.2", "SLACK_APP_TOKEN": "xapp-1"}, "", "SLACK_CLIENT_SECRET", false},
		{"slack OAuth without an event mode", map[string]string{"GEMINI_API_KEY": "k", "SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "cs"}, "", "SLACK_APP_TOKEN", false},
		{"slack OAuth and a bot token", map[string]string{"GEMINI_API_KEY": "k", "SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "cs", "SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}, "", "SLACK_BOT_TOKEN", false},
	}
	name := func(err error) string {
		var ce *usererr.Config
		if errors.As(err, &ce) {
			return ce.Var
		}
		if err != nil {
			return "not a *usererr.Config: " + err.Error()
		}
		return ""
	}
	for _, tt := range tests {
		cfg, err := load(tt.env)
		if err != nil {
			t.Fatalf("%s: Load: %v", tt.name, err)
		}
		if got := name(cfg.EngineErr()); got != tt.engine {
			t.Errorf("%s: EngineErr names %q, want %q", tt.name, got, tt.engine)
		}
		if got := name(cfg.ChatErr()); got != tt.chat {
			t.Errorf("%s: ChatErr names %q, want %q", tt.name, got, tt.chat)
		}
		if got := cfg.Slack.Err() == nil; got != tt.slackValid {
			t.Errorf("%s: Slack.Err() == nil is %v, want %v", tt.name, got, tt.slackValid)
		}
	}
}

const webSecret = "0123456789abcdef0123456789abcdef"

const testKeyHex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

// The web view is on with a public URL and a secret, and `factbot config`
// says what is missing otherwise.
func TestWebFeature(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		on   bool
		has  string // in Detail when on, in Missing when off
	}{
		{"off", map[string]string{}, false, "set FACTBOT_PUBLIC_URL and FACTBOT_WEB_SECRET"},
		{"secret missing", map[string]string{"FACTBOT_PUBLIC_URL": "https://f.example"}, false, "set FACTBOT_WEB_SECRET ("},
		{"on", map[string]string{"FACTBOT_PUBLIC_URL": "https://f.example", "FACTBOT_WEB_SECRET": webSecret}, true, "https://f.example/web/ (served on :8080 by factbot serve, or by factbot web); check links last 168h, history links 1h; no operator access"},
		{"on with operators", map[string]string{"FACTBOT_PUBLIC_URL": "https://f.example", "FACTBOT_WEB_SECRET": webSecret, "FACTBOT_WEB_ADMIN_TOKEN": webSecret}, true, "operators open everything"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := load(tt.env)
			if err != nil {
				t.Fatal(err)
			}
			var f *Feature
			for _, ft := range cfg.Features() {
				if strings.HasPrefix(ft.Name, "Web view") {
					f = &ft
				}
			}
			if f == nil {
				t.Fatal("no web view feature")
			}
			if f.On != tt.on || cfg.Web.Enabled() != tt.on {
				t.Errorf("on = %v, Enabled() = %v, want %v", f.On, cfg.Web.Enabled(), tt.on)
			}
			if got := f.Detail + f.Missing; !strings.Contains(got, tt.has) {
				t.Errorf("feature says %q, want it to contain %q", got, tt.has)
			}
		})
	}
}

func TestMask(t *testing.T) {
	for in, want := range map[string]string{
		"AIzaSyA-0123456789abcdefghijklmnopqrstu": "AIza…(39 chars)",
		"xoxb-1234567890-abcdef":                  "xoxb…(22 chars)",
		"short-secret":                            "set",
	} {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

// Secrets are never shown whole, whatever their length.
func TestSettingsMaskSecrets(t *testing.T) {
	env := map[string]string{}
	for _, v := range Vars() {
		if v.Secret {
			env[v.Name] = "secret-" + v.Name + "-0123456789"
		}
	}
	cfg, _ := load(env)
	for _, s := range cfg.Settings() {
		if strings.Contains(s.Value, "secret-") {
			t.Errorf("%s shown as %q", s.Name, s.Value)
		}
	}
}

// The configuration reference lists exactly the variables Load reads.
func TestReferenceTable(t *testing.T) {
	b, err := os.ReadFile("../../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	var inTable []string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.Split(line, "|")[1]
		for _, m := range regexp.MustCompile("`([A-Z_]+)`").FindAllStringSubmatch(first, -1) {
			inTable = append(inTable, m[1])
		}
	}
	var vars []string
	for _, v := range Vars() {
		vars = append(vars, v.Name)
	}
	sort.Strings(inTable)
	sort.Strings(vars)
	if diff := cmp.Diff(vars, inTable); diff != "" {
		t.Errorf("docs/configuration.md's tables vs config.Vars (-Vars +docs):\n%s", diff)
	}
}

var update = flag.Bool("update", false, "rewrite docs/configuration.md from the table")

// docs/configuration.md is what Reference makes of the table: a variable
// added, changed or removed without regenerating it fails here.
func TestReference(t *testing.T) {
	goldentest.Golden(t, "../../../docs/configuration.md", Reference(), *update)
}

// Every variable has a way to read it and says what it is for, once.
func TestTableComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range Vars() {
		if seen[v.Name] {
			t.Errorf("%s is in the table twice", v.Name)
		}
		seen[v.Name] = true
		if v.parse == nil || v.Doc == "" || v.group == "" {
			t.Errorf("%s: parse set %v, doc %q, section %q", v.Name, v.parse != nil, v.Doc, v.group)
		}
	}
}

func TestLoadFiles(t *testing.T) {
	dir := t.TempDir()
	sites, cal := dir+"/exclude.txt", dir+"/calibration.json"
	os.WriteFile(sites, []byte("# fact-checkers\nwww.Snopes.com\npolitifact.com # PolitiFact\n"), 0o644)
	os.WriteFile(cal, []byte(`{"offsets": {"supported": 0, "contradicted": 0.5}}`), 0o644)
	c, err := load(map[string]string{"FACTBOT_EXCLUDE_SITES": sites, "FACTBOT_CALIBRATION": cal})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"snopes.com", "politifact.com"}, c.Search.ExcludeSites); d != "" || c.Search.ExcludeSitesFile != sites {
		t.Errorf("exclusions from %q (-want +got):\n%s", c.Search.ExcludeSitesFile, d)
	}
	if c.CalibrationFile != cal || c.Calibration == nil || c.Calibration.Offsets["contradicted"] != 0.5 {
		t.Errorf("calibration from %q = %+v", c.CalibrationFile, c.Calibration)
	}
	os.WriteFile(sites, []byte("not a domain\n"), 0o644)
	if _, err := load(map[string]string{"FACTBOT_EXCLUDE_SITES": sites}); !strings.Contains(fmt.Sprint(err), "line 1") {
		t.Errorf("err = %v; want one naming the line", err)
	}
}

func TestSettingsRedactDatabasePassword(t *testing.T) {
	env := map[string]string{"FACTBOT_DB": "postgres://factbot:s3cret@db:5432/factbot?sslmode=disable"}
	c, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Settings() {
		if s.Name == "FACTBOT_DB" && s.Value != "postgres://factbot:xxxxx@db:5432/factbot?sslmode=disable" {
			t.Errorf("FACTBOT_DB shows as %q, want the password masked", s.Value)
		}
	}
}

func TestParseKey(t *testing.T) {
	k := bytes.Repeat([]byte{7}, keyring.KeySize)
	for _, s := range []string{
		"0707070707070707070707070707070707070707070707070707070707070707",
		"BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=",
		"BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc",
	} {
		got, err := parseKey(s)
		if err != nil || !bytes.Equal(got, k) {
			t.Errorf("parseKey(%q) = %x, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "0707", "not a key!", "BwcHBwcH"} {
		if _, err := parseKey(s); err == nil {
			t.Errorf("parseKey(%q) accepted", s)
		}
	}
}
