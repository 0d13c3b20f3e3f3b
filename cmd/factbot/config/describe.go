package config

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck/openai"
	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/internal/usererr"
)

// Setting is one variable as `factbot config` shows it.
type Setting struct {
	Name string
	// Value is the value in effect: the variable's (secrets masked) or,
	// when it is not set, the default ("" when there is none).
	Value string
	// Default says the variable is not set.
	Default bool
}

// Settings returns every variable of Vars with its effective value.
func (c *Config) Settings() []Setting {
	var out []Setting
	for _, v := range Vars() {
		s := Setting{Name: v.Name}
		if val, ok := c.env[v.Name]; ok {
			s.Value = val
			if v.Secret {
				s.Value = Mask(val)
			}
			if v.show != nil {
				s.Value = v.show(val)
			}
		} else {
			s.Default = true
			s.Value = v.Default
			if v.effective != nil {
				s.Value = v.effective(c)
			}
		}
		out = append(out, s)
	}
	return out
}

// RedactURL returns a URL such as a PostgreSQL FACTBOT_DB with its
// password masked, and anything else as it is.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); !ok {
		return s
	}
	u.User = url.UserPassword(u.User.Username(), "xxxxx")
	return u.String()
}

// Mask shows a secret by at most its first 4 characters and its length;
// a short one (under 16 characters) only as "set".
func Mask(s string) string {
	r := []rune(s)
	if len(r) < 16 {
		return "set"
	}
	return fmt.Sprintf("%s…(%d chars)", string(r[:4]), len(r))
}

// Feature is one thing factbot can do, and whether the configuration
// enables it.
type Feature struct {
	Name string
	On   bool
	// Detail says how it is set up, when it is on.
	Detail string
	// Missing says what to set to turn it on, when it is off.
	Missing string
}

// Features lists the model provider, the search providers in failover
// order, the stores and servers, and each chat platform's modes.
func (c *Config) Features() []Feature {
	fs := []Feature{c.modelFeature(), c.searchFeature()}
	fc := Feature{Name: "Google Fact Check Tools", On: c.Search.FactCheckKey != "", Detail: "search_fact_checks is offered first", Missing: "set FACTCHECK_API_KEY (or GOOGLE_API_KEY)"}
	fs = append(fs, fc,
		Feature{Name: "Database", On: true, Detail: fmt.Sprintf("%s, verdicts fresh for %s", c.DB, FormatDuration(c.CacheTTL))},
		c.httpFeature())
	s, d := c.Slack, c.Discord
	guild := "commands registered globally"
	if d.GuildID != "" {
		guild = "commands registered in server " + d.GuildID
	}
	// The token Slack's modes need: SLACK_BOT_TOKEN, or an OAuth client.
	tokenVar, token := "SLACK_BOT_TOKEN", s.BotToken
	if s.OAuth() {
		tokenVar, token = "SLACK_CLIENT_ID and SLACK_CLIENT_SECRET", s.ClientID
		if s.ClientSecret == "" {
			token = ""
		}
	}
	fs = append(fs,
		feature("Slack Socket Mode", "connects out, no public URL needed", tokenVar, token, "SLACK_APP_TOKEN", s.AppToken),
		feature("Slack HTTP mode", "POST /slack/events, /slack/commands, /slack/interactions", tokenVar, token, "SLACK_SIGNING_SECRET", s.SigningSecret),
		c.slackOAuthFeature(),
		c.discordGatewayFeature(guild),
		feature("Discord HTTP interactions", "POST /discord/interactions", "DISCORD_BOT_TOKEN", d.Token, "DISCORD_PUBLIC_KEY", d.PublicKey))
	limit := "none (off)"
	if c.UserLimit != (bot.Limit{}) {
		limit = fmt.Sprintf("%d checks per %s", c.UserLimit.N, FormatDuration(c.UserLimit.Window))
	}
	if s.Configured() || d.Configured() {
		tlimit := "none (off)"
		if c.TenantLimit != (bot.Limit{}) {
			tlimit = fmt.Sprintf("%d checks per %s", c.TenantLimit.N, FormatDuration(c.TenantLimit.Window))
		}
		fs = append(fs, Feature{Name: "Per-user limit in chat", On: true, Detail: limit},
			Feature{Name: "Per-workspace/server limit in chat", On: true, Detail: fmt.Sprintf("%s; at most %d requests waiting", tlimit, c.MaxQueue)})
	}
	return append(fs, c.webFeature())
}

// slackOAuthFeature is the multi-workspace mode: "Add to Slack" by OAuth.
func (c *Config) slackOAuthFeature() Feature {
	s := c.Slack
	key := ""
	if c.EncryptionKey != nil {
		key = "set"
	}
	f := feature("Slack workspaces by OAuth (Add to Slack)", "", "SLACK_CLIENT_ID", s.ClientID, "SLACK_CLIENT_SECRET", s.ClientSecret,
		"FACTBOT_ENCRYPTION_KEY", key, "FACTBOT_PUBLIC_URL", c.Web.PublicURL)
	if f.On {
		f.Detail = fmt.Sprintf("multi-workspace (OAuth): install at %s/slack/install, Redirect URL %s/slack/oauth/callback; tokens encrypted with key %s",
			c.Web.PublicURL, c.Web.PublicURL, keyring.KeyID(c.EncryptionKey))
	} else {
		f.Missing += " to serve every workspace that installs the app (instead of SLACK_BOT_TOKEN's one)"
	}
	return f
}

func (c *Config) webFeature() Feature {
	w := c.Web
	f := feature("Web view (signed links to checks and history)", "", "FACTBOT_PUBLIC_URL", w.PublicURL, "FACTBOT_WEB_SECRET", w.Secret)
	if f.On {
		f.Detail = fmt.Sprintf("%s/web/ (served on %s by factbot serve, or by factbot web); check links last %s, history links %s", w.PublicURL, c.HTTPAddr, FormatDuration(w.CheckTTL), FormatDuration(w.HistoryTTL))
		if w.AdminToken != "" {
			f.Detail += "; operators open everything with FACTBOT_WEB_ADMIN_TOKEN"
		} else {
			f.Detail += "; no operator access (FACTBOT_WEB_ADMIN_TOKEN not set)"
		}
	} else {
		f.Missing += " (the https:// address of factbot serve behind a TLS proxy, and a secret from openssl rand -hex 32)"
	}
	return f
}

func (c *Config) httpFeature() Feature {
	d := fmt.Sprintf("%s: /healthz, /readyz, /metrics and the HTTP-mode webhooks; at most %d connections, %d per client address", c.HTTPAddr, c.MaxConns, c.MaxConnsPerIP)
	if c.MetricsAddr != "" {
		d = fmt.Sprintf("%s: /healthz, /readyz and the HTTP-mode webhooks; at most %d connections, %d per client address; /metrics, /healthz and /readyz on %s", c.HTTPAddr, c.MaxConns, c.MaxConnsPerIP, c.MetricsAddr)
	}
	if c.Web.Enabled() {
		d += "; the web view under /web/"
	}
	return Feature{Name: "HTTP server (factbot serve)", On: true, Detail: d}
}

func (c *Config) modelFeature() Feature {
	f := Feature{Name: "Model provider", Detail: fmt.Sprintf("%s, model %s", c.Model.Provider, c.Model.ModelName())}
	if c.Model.Provider == LLMOpenAI {
		f.Detail += " at " + or(c.Model.OpenAIBaseURL, openai.DefaultBaseURL)
	}
	f.On = c.Model.Err() == nil
	f.Missing = missing(c.Model.Err())
	return f
}

func (c *Config) searchFeature() Feature {
	f := Feature{Name: "Search (failover order)", Detail: strings.Join(c.Search.Order, " → ")}
	if !c.Search.Explicit {
		f.Detail += " (every configured provider; set FACTBOT_SEARCH to choose)"
	}
	err := c.SearchErr()
	f.On = err == nil
	f.Missing = missing(err)
	return f
}

// feature is a feature that is on when every variable of vars (name,
// value pairs) is set.
// discordGatewayFeature is the gateway's line: on with a bot token, unless
// FACTBOT_DISCORD_GATEWAY=0 serves Discord by HTTP interactions alone.
func (c *Config) discordGatewayFeature(guild string) Feature {
	f := feature("Discord gateway", guild, "DISCORD_BOT_TOKEN", c.Discord.Token)
	if f.On && c.Discord.NoGateway {
		f = Feature{Name: "Discord gateway", Missing: "off (FACTBOT_DISCORD_GATEWAY=0: HTTP interactions only; mentions are not seen)"}
	}
	return f
}

func feature(name, detail string, vars ...string) Feature {
	var unset []string
	for i := 0; i < len(vars); i += 2 {
		if vars[i+1] == "" {
			unset = append(unset, vars[i])
		}
	}
	f := Feature{Name: name, On: len(unset) == 0, Detail: detail}
	if !f.On {
		f.Missing = "set " + strings.Join(unset, " and ")
	}
	return f
}

// missing says what to set for a configuration error.
func missing(err error) string {
	var ce *usererr.Config
	if !errors.As(err, &ce) {
		return ""
	}
	if ce.Msg != "not set" {
		return ce.Error()
	}
	m := "set " + ce.Var
	if ce.Hint != "" {
		m += " (" + ce.Hint + ")"
	}
	return m
}

// FormatDuration is d without trailing zero units: "168h", "1h30m", "10m".
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
