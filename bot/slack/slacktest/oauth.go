package slacktest

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Identity is whom a token speaks for.
type Identity struct {
	Team, Enterprise string
	BotUserID        string
}

// Grant is what oauth.v2.access answers for one install: the workspace
// (or organisation) and its bot user. Tokens are issued by the fake.
type Grant struct {
	Team, TeamName string
	// Enterprise is the organisation; EnterpriseInstall makes the install
	// org-wide (team empty in the answer, as Slack does).
	Enterprise        string
	EnterpriseInstall bool
	BotUserID         string
	Scope             string
	// Rotate turns token rotation on: the answer carries a refresh token
	// and expires_in (ExpiresIn seconds, default 43200).
	Rotate    bool
	ExpiresIn int
}

type oauthState struct {
	clientID, secret string
	next             []Grant          // the authorize page's next installs
	codes            map[string]Grant // code → grant
	refresh          map[string]Grant // refresh token → grant
	tokens           map[string]Identity
	seq              int
}

// SetApp sets the app's client id and secret that oauth.v2.access
// expects (none set: any).
func (s *Server) SetApp(clientID, secret string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauth.clientID, s.oauth.secret = clientID, secret
}

// Authorize makes the authorize page (GET /oauth/v2/authorize) approve the
// next install with g: it redirects to redirect_uri with a code and the
// state it was given. With no grant queued it answers 403 (the user
// cancelled: redirect with error=access_denied).
func (s *Server) Authorize(g Grant) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauth.next = append(s.oauth.next, g)
}

// Code returns a code oauth.v2.access exchanges for g, as if Slack's
// authorize page had issued it.
func (s *Server) Code(g Grant) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.codeLocked(g)
}

func (s *Server) codeLocked(g Grant) string {
	if s.oauth.codes == nil {
		s.oauth.codes = map[string]Grant{}
	}
	s.oauth.seq++
	c := fmt.Sprintf("code-%d", s.oauth.seq)
	s.oauth.codes[c] = g
	return c
}

// AuthorizeURL is the fake's authorize page, as the adapter derives it
// from URL().
func (s *Server) AuthorizeURL() string { return s.srv.URL + "/oauth/v2/authorize" }

func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || redirect.Host == "" {
		http.Error(w, "bad redirect_uri", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	if s.oauth.clientID != "" && q.Get("client_id") != s.oauth.clientID {
		s.mu.Unlock()
		http.Error(w, "invalid_client_id", http.StatusBadRequest)
		return
	}
	back := url.Values{"state": {q.Get("state")}}
	if len(s.oauth.next) == 0 {
		back.Set("error", "access_denied")
	} else {
		g := s.oauth.next[0]
		s.oauth.next = s.oauth.next[1:]
		back.Set("code", s.codeLocked(g))
	}
	s.mu.Unlock()
	s.record(Call{Method: "oauth/v2/authorize", Form: q})
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

// identity is whom token speaks for, or the error Slack would answer.
func (s *Server) identity(token string) (Identity, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.oauth.tokens[token]; ok {
		return id, ""
	}
	if !strings.HasPrefix(token, "x") {
		return Identity{}, "not_authed"
	}
	return Identity{Team: TeamID, BotUserID: BotUserID}, ""
}

// access answers oauth.v2.access: a code exchange or, with
// grant_type=refresh_token, a refresh.
func (s *Server) access(r *http.Request) map[string]any {
	f := r.PostForm
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = f.Get("client_id"), f.Get("client_secret")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := &s.oauth
	if o.clientID != "" && id != o.clientID {
		return map[string]any{"ok": false, "error": "invalid_client_id"}
	}
	if o.secret != "" && secret != o.secret {
		return map[string]any{"ok": false, "error": "bad_client_secret"}
	}
	var g Grant
	if f.Get("grant_type") == "refresh_token" {
		g, ok = o.refresh[f.Get("refresh_token")]
		if !ok {
			return map[string]any{"ok": false, "error": "invalid_refresh_token"}
		}
		delete(o.refresh, f.Get("refresh_token"))
	} else {
		g, ok = o.codes[f.Get("code")]
		if !ok {
			return map[string]any{"ok": false, "error": "invalid_code"}
		}
		delete(o.codes, f.Get("code"))
	}
	o.seq++
	who := g.Team
	if g.EnterpriseInstall {
		who = g.Enterprise
	}
	token := fmt.Sprintf("xoxb-%s-%d", who, o.seq)
	if o.tokens == nil {
		o.tokens = map[string]Identity{}
	}
	o.tokens[token] = Identity{Team: g.Team, Enterprise: g.Enterprise, BotUserID: g.BotUserID}
	res := map[string]any{"ok": true, "access_token": token, "token_type": "bot", "scope": g.Scope,
		"bot_user_id": g.BotUserID, "app_id": "A1", "is_enterprise_install": g.EnterpriseInstall,
		"authed_user": map[string]any{"id": "UINSTALLER"}}
	if !g.EnterpriseInstall {
		res["team"] = map[string]any{"id": g.Team, "name": g.TeamName}
	}
	if g.Enterprise != "" {
		res["enterprise"] = map[string]any{"id": g.Enterprise, "name": "Org " + g.Enterprise}
	}
	if g.Rotate {
		if o.refresh == nil {
			o.refresh = map[string]Grant{}
		}
		rt := fmt.Sprintf("xoxe-1-%s-%d", who, o.seq)
		o.refresh[rt] = g
		exp := g.ExpiresIn
		if exp == 0 {
			exp = 43200
		}
		res["refresh_token"], res["expires_in"] = rt, exp
	}
	return res
}
