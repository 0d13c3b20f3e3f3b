package config

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/web"
)

// How the table's variables are read (Var.parse): each function reads one
// variable's value, "" when it is unset, and reports a malformed one as a
// *usererr.Config naming it, with where to get a value.

// urlVar reads an http(s) URL into the string field dst points to.
func urlVar(name string, dst func(*Config) *string) func(*Config, string) error {
	return func(c *Config, s string) error {
		*dst(c) = s
		return checkURL(name, s)
	}
}

// checkURL reports a value that is set but not an http(s) URL.
func checkURL(name, s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &usererr.Config{Var: name, Msg: fmt.Sprintf("%q is not an http(s) URL", s), Hint: "e.g. http://localhost:8080", Err: err}
	}
	return nil
}

// offSwitch reads a switch that is off unless set to 1.
func offSwitch(name, hint string, dst func(*Config) *bool) func(*Config, string) error {
	return func(c *Config, s string) error {
		switch s {
		case "", "0":
		case "1":
			*dst(c) = true
		default:
			return &usererr.Config{Var: name, Msg: fmt.Sprintf("%q is neither 1 nor 0", s), Hint: hint}
		}
		return nil
	}
}

// onSwitch reads a step of verification that is on unless set to 0,
// which sets the Options field off points to.
func onSwitch(name string, off func(*factcheck.Options) *bool) func(*Config, string) error {
	return func(c *Config, s string) error {
		switch s {
		case "", "1":
		case "0":
			*off(&c.Engine) = true
		default:
			return &usererr.Config{Var: name, Msg: fmt.Sprintf("%q is neither 1 nor 0", s), Hint: "0 turns this step of verification off, to measure it against the baseline; leave it unset otherwise"}
		}
		return nil
	}
}

// age reads a duration (ParseAge) of at least least into dst, def when
// it is unset or malformed.
func age(name string, def, least time.Duration, msg, hint string, dst func(*Config) *time.Duration) func(*Config, string) error {
	return func(c *Config, s string) error {
		*dst(c) = def
		if s == "" {
			return nil
		}
		d, err := ParseAge(s)
		if err != nil || d < least {
			return &usererr.Config{Var: name, Msg: fmt.Sprintf("%q %s", s, msg), Hint: hint, Err: err}
		}
		*dst(c) = d
		return nil
	}
}

// positive reads a positive whole number into dst, def when it is unset
// or malformed.
func positive(name string, def int, hint string, dst func(*Config) *int) func(*Config, string) error {
	return func(c *Config, s string) error {
		*dst(c) = def
		if s == "" {
			return nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return &usererr.Config{Var: name, Msg: fmt.Sprintf("%q is not a positive whole number", s), Hint: hint, Err: err}
		}
		*dst(c) = n
		return nil
	}
}

// limit reads a rate ("10/10m", "off") into dst, def when it is unset.
func limit(name, def, hint string, dst func(*Config) *bot.Limit) func(*Config, string) error {
	return func(c *Config, s string) error {
		lim, err := bot.ParseLimit(or(s, def))
		*dst(c) = lim
		if err != nil {
			return &usererr.Config{Var: name, Msg: err.Error(), Hint: hint, Err: err}
		}
		return nil
	}
}

// key reads a 32-byte key into dst.
func key(name string, dst func(*Config) *[]byte) func(*Config, string) error {
	return func(c *Config, s string) error {
		if s == "" {
			return nil
		}
		b, err := parseKey(s)
		*dst(c) = b
		if err != nil {
			return &usererr.Config{Var: name, Msg: err.Error(), Hint: hintKey}
		}
		return nil
	}
}

// parseKey reads a 32-byte key written as 64 hex digits or in base64
// (standard or URL alphabet, padded or not).
func parseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	b, err := hex.DecodeString(s)
	form := "hex"
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if err != nil {
			b, err = enc.DecodeString(s)
			form = "base64"
		}
	}
	if err != nil {
		return nil, fmt.Errorf("neither hex nor base64 (want %d bytes, e.g. from openssl rand -hex 32)", keyring.KeySize)
	}
	if len(b) != keyring.KeySize {
		return nil, fmt.Errorf("%d bytes of %s, want %d", len(b), form, keyring.KeySize)
	}
	return b, nil
}

// secretVar reads a secret of at least minWebSecret characters.
func secretVar(name string, dst func(*Config) *string) func(*Config, string) error {
	return func(c *Config, s string) error {
		*dst(c) = s
		if s != "" && len(s) < minWebSecret {
			return &usererr.Config{Var: name, Msg: fmt.Sprintf("too short (%d characters, at least %d)", len(s), minWebSecret), Hint: "make one with: openssl rand -hex 32"}
		}
		return nil
	}
}

// parseMCPTokens reads FACTBOT_MCP_TOKEN: tokens separated by commas, each
// of at least minWebSecret characters.
func parseMCPTokens(c *Config, s string) error {
	c.MCP.Tokens = nil
	if s == "" {
		return nil
	}
	for i, tok := range strings.Split(s, ",") {
		tok = strings.TrimSpace(tok)
		if len(tok) < minWebSecret {
			return &usererr.Config{Var: "FACTBOT_MCP_TOKEN", Msg: fmt.Sprintf("token %d too short (%d characters, at least %d)", i+1, len(tok), minWebSecret), Hint: "make one with: openssl rand -hex 32; separate several with commas"}
		}
		c.MCP.Tokens = append(c.MCP.Tokens, tok)
	}
	return nil
}

func parseProvider(c *Config, s string) error {
	c.Model.Provider = strings.ToLower(s)
	switch c.Model.Provider {
	case "":
		c.Model.Provider = LLMGemini
	case LLMGemini, LLMOpenAI:
	default:
		return c.Model.Err()
	}
	return nil
}

func parseTemperature(c *Config, s string) error {
	if s == "" {
		return nil
	}
	t, err := strconv.ParseFloat(s, 64)
	if err != nil || t < 0 || t > 2 {
		return &usererr.Config{Var: "FACTBOT_TEMPERATURE", Msg: fmt.Sprintf("%q is not a number from 0 to 2", s), Hint: fmt.Sprintf("the model's sampling temperature; the default %g keeps verdicts repeatable", factcheck.DefaultTemperature)}
	}
	c.Engine.Temperature = &t
	return nil
}

// parseSearchOrder reads FACTBOT_SEARCH, or, when it names no provider,
// takes every configured one (the corpus first), else gemini.
func parseSearchOrder(c *Config, s string) error {
	var errs []error
	if s != "" {
		c.Search.Explicit = true
		for _, n := range strings.Split(s, ",") {
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

func parseExcludeSites(c *Config, path string) error {
	if path == "" {
		return nil
	}
	c.Search.ExcludeSitesFile = path
	sites, err := search.ReadSitesFile(path)
	c.Search.ExcludeSites = sites
	if err != nil {
		return &usererr.Config{Var: "FACTBOT_EXCLUDE_SITES", Msg: err.Error(), Hint: "a file of domains to keep out of searches and page reads, one a line, # comments", Err: err}
	}
	return nil
}

func parseCalibration(c *Config, path string) error {
	if path == "" {
		return nil
	}
	c.CalibrationFile = path
	cal, err := factcheck.LoadCalibration(path)
	c.Calibration = cal
	if err != nil {
		return &usererr.Config{Var: "FACTBOT_CALIBRATION", Msg: err.Error(), Hint: "a file written by factbot eval --fit", Err: err}
	}
	return nil
}

// DefaultReactions are FACTBOT_REACTION's default: 🔍 and 🔎.
var DefaultReactions = []string{"mag", "mag_right"}

// parseReactions reads the reactions that ask for a check of a message,
// Slack's and Discord's alike.
func parseReactions(c *Config, s string) error {
	reactions := DefaultReactions
	switch strings.ToLower(s) {
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
	return nil
}

func parsePublicURL(c *Config, s string) error {
	c.Web.PublicURL = strings.TrimRight(s, "/")
	if err := checkURL("FACTBOT_PUBLIC_URL", s); err != nil {
		return &usererr.Config{Var: "FACTBOT_PUBLIC_URL", Msg: err.(*usererr.Config).Msg, Hint: "the https:// address people open, e.g. https://factbot.example.org (a TLS proxy in front of FACTBOT_HTTP_ADDR)"}
	}
	return nil
}

// parseLinkTTL reads "check[,history]" lifetimes of the web view's links.
func parseLinkTTL(c *Config, s string) error {
	c.Web.CheckTTL, c.Web.HistoryTTL = web.DefaultCheckTTL, web.DefaultHistoryTTL
	if s == "" {
		return nil
	}
	ck, hist, two := strings.Cut(s, ",")
	d1, err1 := ParseAge(ck)
	d2, err2 := c.Web.HistoryTTL, error(nil)
	if two {
		d2, err2 = ParseAge(hist)
	}
	if err1 != nil || err2 != nil || d1 <= 0 || d2 <= 0 {
		return &usererr.Config{Var: "FACTBOT_WEB_LINK_TTL", Msg: fmt.Sprintf("%q is not one or two positive durations", s), Hint: "how long links stay valid: for one check, and optionally for a history after a comma, e.g. 7d or 7d,1h"}
	}
	c.Web.CheckTTL, c.Web.HistoryTTL = d1, d2
	return nil
}

func parseAppToken(c *Config, s string) error {
	c.Slack.AppToken = s
	if s != "" && !strings.HasPrefix(s, "xapp-") {
		return &usererr.Config{Var: "SLACK_APP_TOKEN", Msg: "is not an app-level token (xapp-…)", Hint: "Basic Information → App-Level Tokens, scope connections:write"}
	}
	return nil
}

func parsePublicKey(c *Config, s string) error {
	c.Discord.PublicKey = s
	if s == "" {
		return nil
	}
	if b, err := hex.DecodeString(s); err != nil || len(b) != 32 {
		return &usererr.Config{Var: "DISCORD_PUBLIC_KEY", Msg: "not a 64-digit hex Ed25519 key", Hint: "Discord Developer Portal → your application → General Information → Public Key"}
	}
	return nil
}

// parseShards reads FACTBOT_DISCORD_SHARD and FACTBOT_DISCORD_SHARDS: both
// or neither, a shard count of at least 1 and a shard below it.
func parseShards(c *Config, shards string) error {
	shard, hasShard := c.env["FACTBOT_DISCORD_SHARD"]
	hasShards := shards != ""
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

// parseGateway reads FACTBOT_DISCORD_GATEWAY; 0 needs the public key and
// the application id, read above it.
func parseGateway(c *Config, s string) error {
	switch s {
	case "", "1":
	case "0":
		c.Discord.NoGateway = true
		if c.Discord.PublicKey == "" || c.Discord.AppID == "" {
			return &usererr.Config{Var: "FACTBOT_DISCORD_GATEWAY", Msg: "0 (HTTP interactions only) needs DISCORD_PUBLIC_KEY and DISCORD_APP_ID",
				Hint: "both are on the Discord Developer Portal → your application → General Information"}
		}
	default:
		return &usererr.Config{Var: "FACTBOT_DISCORD_GATEWAY", Msg: fmt.Sprintf("%q is neither 1 nor 0", s), Hint: "0 serves Discord by HTTP interactions alone, with no gateway connection"}
	}
	return nil
}
