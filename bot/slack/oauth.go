package slack

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/store"
)

// The OAuth v2 install flow ("Add to Slack"): InstallPath redirects to
// Slack's authorize page with the bot scopes and a signed state; Slack
// sends the installer back to CallbackPath with a code, which
// oauth.v2.access exchanges for the workspace's bot token.
const (
	InstallPath  = "/slack/install"
	CallbackPath = "/slack/oauth/callback"
	// StateTTL is how long an install link's state is accepted.
	StateTTL = 10 * time.Minute
	// DefaultAuthorizeURL is Slack's authorize page.
	DefaultAuthorizeURL = "https://slack.com/oauth/v2/authorize"
)

// installer is the part that installs factbot in a workspace by OAuth
// ("Add to Slack"): the install page, the callback that exchanges the code
// for the workspace's tokens, its signed and once-used states.
type installer struct {
	cfg      Config
	log      *slog.Logger
	hc       *http.Client
	stateKey []byte      // signs the install flow's states
	ws       *workspaces // the installed workspace is read again
}

// BotScopes are the bot scopes the install asks for: those of
// deploy/slack-manifest.yaml (a test keeps them equal).
var BotScopes = []string{
	"app_mentions:read", "assistant:write", "chat:write", "chat:write.public", "commands",
	"channels:read", "groups:read", "im:read", "mpim:read",
	"channels:history", "groups:history", "im:history", "mpim:history", "files:read", "reactions:read",
	"users:read",
}

// Errors of a state that does not check.
var (
	errStateTampered = errors.New("state not signed by this factbot")
	errStateExpired  = errors.New("state expired")
)

// stateKey derives the key that signs states from the client secret.
func stateKey(clientSecret string) []byte {
	m := hmac.New(sha256.New, []byte(clientSecret))
	m.Write([]byte("factbot oauth state v1"))
	return m.Sum(nil)
}

// newState is "<expiry unix>.<nonce>.<mac>", base64url where needed.
func newState(key []byte, now time.Time) string {
	nonce := make([]byte, 16)
	rand.Read(nonce)
	payload := strconv.FormatInt(now.Add(StateTTL).Unix(), 10) + "." + base64.RawURLEncoding.EncodeToString(nonce)
	return payload + "." + stateMAC(key, payload)
}

func stateMAC(key []byte, payload string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// checkState reports a state not signed with key (errStateTampered) or
// past its expiry (errStateExpired).
func checkState(key []byte, state string, now time.Time) error {
	i := strings.LastIndexByte(state, '.')
	if i < 0 {
		return errStateTampered
	}
	payload, mac := state[:i], state[i+1:]
	if !hmac.Equal([]byte(mac), []byte(stateMAC(key, payload))) {
		return errStateTampered
	}
	exp, _, _ := strings.Cut(payload, ".")
	sec, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return errStateTampered
	}
	if !now.Before(time.Unix(sec, 0)) {
		return errStateExpired
	}
	return nil
}

// authorizeURL is Slack's authorize page: Config.AuthorizeURL, else the
// one next to SLACK_API_URL (…/api/ → …/oauth/v2/authorize), else
// Slack's.
func (in *installer) authorizeURL() string {
	if in.cfg.AuthorizeURL != "" {
		return in.cfg.AuthorizeURL
	}
	if in.cfg.APIURL != "" {
		if base, ok := strings.CutSuffix(strings.TrimSuffix(in.cfg.APIURL, "/"), "/api"); ok {
			return base + "/oauth/v2/authorize"
		}
	}
	return DefaultAuthorizeURL
}

// redirectURL is where Slack sends the installer back.
func (in *installer) redirectURL() string {
	return strings.TrimRight(in.cfg.PublicURL, "/") + CallbackPath
}

// serveInstall redirects to Slack's authorize page, with a new state
// bound to this browser by a cookie (state.go).
func (in *installer) serveInstall(w http.ResponseWriter, r *http.Request) {
	state := newState(in.stateKey, in.cfg.Now())
	q := url.Values{
		"client_id":    {in.cfg.ClientID},
		"scope":        {strings.Join(BotScopes, ",")},
		"redirect_uri": {in.redirectURL()},
		"state":        {state},
	}
	http.SetCookie(w, in.stateCookie(state))
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, in.authorizeURL()+"?"+q.Encode(), http.StatusFound)
}

// page is what the install's pages show: a title and a text, given by
// their word ids (words.Lang.Word, bot/words/install.go) and the values the
// text takes, in the language of the installer's browser.
type page struct {
	title, text string
	data        []any // the text's values: name, value pairs
	OK          bool
	Team        string

	Title, Text string
	Command     string
	Install     string
	Lang        words.Lang
}

// T is the page's word id in its language.
func (p *page) T(id string, kv ...any) (string, error) { return p.Lang.Word(id, kv...) }

var pageTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(`<!doctype html>
<html lang="{{.Lang.Tag}}" dir="{{.Lang.Dir}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>factbot: {{.Title}}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1d3557}code{background:#eef;padding:0 .2em}</style>
</head><body>
<h1>{{.Title}}</h1>
<p>{{.Text}}</p>
{{if .OK}}<p>{{with .Team}}{{$.T "InstallNextIn" "Team" .}}{{else}}{{.T "InstallNext"}}{{end}}</p>
<ul>
<li>{{.T "InstallInvite"}} <code>/invite @factbot</code></li>
<li>{{.T "InstallMention"}} <code>@factbot {{.T "InstallMentionExample"}}</code></li>
<li>{{.T "InstallHelp"}} <code>{{.Command}} help</code></li>
</ul>
{{else}}<p><a href="{{.Install}}">{{.T "InstallAgain"}}</a></p>{{end}}
</body></html>
`))
})

// writePage answers with page p in the language of the browser
// (Accept-Language), else English.
func (in *installer) writePage(w http.ResponseWriter, r *http.Request, status int, p page) {
	p.Lang = words.ViewerLang(r.Header.Get("Accept-Language"), "", "")
	p.Title, p.Text = p.Lang.MustWord(p.title), p.Lang.MustWord(p.text, p.data...)
	p.Command, p.Install = in.cfg.Command, InstallPath
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := pageTmpl().Execute(w, &p); err != nil {
		in.log.Warn("slack: install page", "err", err)
	}
}

// serveCallback checks the state, exchanges the code for the workspace's
// tokens with oauth.v2.access and stores them.
func (in *installer) serveCallback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	switch err := checkState(in.stateKey, q.Get("state"), in.cfg.Now()); {
	case errors.Is(err, errStateExpired):
		in.writePage(w, r, http.StatusBadRequest, page{title: "InstallExpired", text: "InstallExpiredText", data: []any{"Minutes", int(StateTTL / time.Minute)}})
		return
	case err != nil:
		in.log.Warn("slack: install callback with a bad state", "err", err)
		in.writePage(w, r, http.StatusBadRequest, page{title: "InstallUnverified", text: "InstallTamperedText"})
		return
	}
	if !in.acceptState(w, r, q.Get("state")) {
		return
	}
	if e := q.Get("error"); e != "" {
		in.writePage(w, r, http.StatusBadRequest, page{title: "InstallFailed", text: "InstallSlackSaid", data: []any{"Error", e}})
		return
	}
	code := q.Get("code")
	if code == "" {
		in.writePage(w, r, http.StatusBadRequest, page{title: "InstallFailed", text: "InstallNoCode"})
		return
	}
	res, err := slack.GetOAuthV2ResponseContext(r.Context(), in.hc, in.cfg.ClientID, in.cfg.ClientSecret, code, in.redirectURL(), slack.OAuthOptionAPIURL(in.ws.apiURL()))
	if err == nil && res.AccessToken == "" {
		err = errors.New("no bot token in the answer")
	}
	if err != nil {
		in.log.Error("slack: oauth.v2.access", "err", err)
		in.writePage(w, r, http.StatusBadGateway, page{title: "InstallFailed", text: "InstallRefused", data: []any{"Error", err.Error()}})
		return
	}
	inst := installation(res, in.cfg.Now())
	if inst.ID == "" {
		in.writePage(w, r, http.StatusBadGateway, page{title: "InstallFailed", text: "InstallNoWorkspace"})
		return
	}
	if err := in.cfg.Installs.Put(r.Context(), inst); err != nil {
		in.log.Error("slack: store installation", "installation", inst.ID, "err", err)
		in.writePage(w, r, http.StatusInternalServerError, page{title: "InstallFailed", text: "InstallNotStored"})
		return
	}
	in.ws.forget(inst.ID)
	in.log.Info("slack: installed", "installation", inst.ID, "name", inst.Name, "org_wide", inst.Enterprise, "rotating", inst.RefreshToken != "")
	text := "InstalledIn"
	if inst.Enterprise {
		text = "InstalledEverywhere"
	}
	in.writePage(w, r, http.StatusOK, page{title: "Installed", text: text, data: []any{"Team", inst.Name}, OK: true, Team: inst.Name})
}

// acceptState uses the callback's (signed, fresh) state once, from the
// browser that started the install, or answers with an error page.
func (in *installer) acceptState(w http.ResponseWriter, r *http.Request, state string) bool {
	err := in.useState(r, state, in.cfg.Now().Add(StateTTL))
	switch {
	case err == nil:
		in.clearStateCookie(w)
		return true
	case errors.Is(err, errStateOtherBrowser):
		in.log.Warn("slack: install callback without the state's cookie")
		in.writePage(w, r, http.StatusBadRequest, page{title: "InstallUnverified", text: "InstallOtherBrowserText"})
	case errors.Is(err, errStateUsed):
		in.log.Warn("slack: install callback with a state used before")
		in.writePage(w, r, http.StatusBadRequest, page{title: "InstallUsed", text: "InstallUsedText"})
	default:
		in.log.Error("slack: record the install state", "err", err)
		in.writePage(w, r, http.StatusInternalServerError, page{title: "InstallFailed", text: "InstallNotRecorded"})
	}
	return false
}

// installation is what oauth.v2.access answered, as stored.
func installation(res *slack.OAuthV2Response, now time.Time) *store.Installation {
	inst := &store.Installation{
		Platform: Name, ID: res.Team.ID, Name: res.Team.Name,
		Enterprise: res.IsEnterpriseInstall, EnterpriseID: res.Enterprise.ID,
		AppID: res.AppID, BotUserID: res.BotUserID, Scope: res.Scope, InstalledBy: res.AuthedUser.ID,
		InstalledAt: now.UTC(), BotToken: res.AccessToken, RefreshToken: res.RefreshToken,
	}
	if res.IsEnterpriseInstall {
		inst.ID, inst.Name = res.Enterprise.ID, res.Enterprise.Name
	}
	if res.ExpiresIn > 0 {
		inst.ExpiresAt = now.Add(time.Duration(res.ExpiresIn) * time.Second).UTC()
	}
	return inst
}
