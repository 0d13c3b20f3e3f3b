package slack_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/bot/slack/slacktest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// multiEnv is factbot serving every workspace installed by OAuth, on a
// bbolt store, against the fake Slack.
type multiEnv struct {
	fake     *slacktest.Server
	db       *store.DB
	dbPath   string
	installs *store.Installations
	svc      *bot.Service
	ad       *slack.Adapter
	srv      *httptest.Server // factbot's HTTP address (FACTBOT_PUBLIC_URL)
	clock    *storetest.Clock
}

const (
	clientID     = "111.222"
	clientSecret = "client-secret-for-tests"
)

// startMulti starts the adapter in multi-workspace mode: Socket Mode, or
// HTTP mode when httpMode is set.
func startMulti(t *testing.T, httpMode bool) *multiEnv {
	t.Helper()
	e := &multiEnv{fake: slacktest.NewServer(), clock: storetest.NewClock(time.Now())}
	t.Cleanup(e.fake.Close)
	e.fake.SetApp(clientID, clientSecret)
	e.dbPath = filepath.Join(t.TempDir(), "factbot.db")
	db, err := store.Open(e.dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.db = db
	kr, err := keyring.New(bytes.Repeat([]byte{9}, keyring.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	e.installs = db.Installations(kr)
	e.svc = bot.New(db, &bottest.Checker{Label: factcheck.Contradicted}, bot.Options{Logger: quiet, NoUserLimit: true})
	mux := bot.NewMux(bot.NewRegistry(), nil)
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	cfg := slack.Config{ClientID: clientID, ClientSecret: clientSecret, PublicURL: e.srv.URL, Installs: e.installs, UsedStates: db,
		AppToken: "xapp-test", SigningSecret: "secret", APIURL: e.fake.URL(),
		PerChannel: rate.Inf, Logger: quiet, Now: e.clock.Now}
	if httpMode {
		cfg.AppToken = ""
	}
	ad, err := slack.New(cfg, e.svc)
	if err != nil {
		t.Fatal(err)
	}
	e.ad = ad
	ad.Routes(mux)
	e.svc.Register(ad)
	if err := e.svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := ad.Run(ctx); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	if !httpMode {
		<-e.fake.Connected
	}
	t.Cleanup(func() {
		cancel()
		<-done
		e.svc.Close()
		db.Close()
	})
	return e
}

// newBrowser is an HTTP client with its own cookies, as a browser.
func newBrowser(t *testing.T, follow bool) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Jar: jar}
	if !follow {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	return c
}

// install runs the whole install flow as a browser would: factbot's
// install link, Slack's authorize page (approving g), factbot's callback.
func (e *multiEnv) install(t *testing.T, g slacktest.Grant) (int, string) {
	t.Helper()
	e.fake.Authorize(g)
	resp, err := newBrowser(t, true).Get(e.srv.URL + slack.InstallPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// token is the stored bot token of installation id.
func (e *multiEnv) token(t *testing.T, id string) string {
	t.Helper()
	inst, err := e.installs.Get(context.Background(), "slack", id)
	if err != nil {
		t.Fatal(err)
	}
	return inst.BotToken
}

// send delivers an events_api or slash_commands payload in the
// adapter's mode and returns the acknowledgement's payload.
func (e *multiEnv) send(t *testing.T, httpMode bool, typ string, payload map[string]any) json.RawMessage {
	t.Helper()
	if !httpMode {
		id, err := e.fake.Send(typ, payload)
		if err != nil {
			t.Fatal(err)
		}
		return waitAck(t, e.fake, id).Payload
	}
	var body, path string
	switch typ {
	case "events_api":
		b, _ := json.Marshal(payload)
		body, path = string(b), "/slack/events"
	case "slash_commands":
		f := url.Values{}
		for k, v := range payload {
			f.Set(k, fmt.Sprint(v))
		}
		body, path = f.Encode(), "/slack/commands"
	}
	ts := fmt.Sprint(e.clock.Now().Unix())
	code, out := post(t, e.srv.URL+path, body, header(ts, sign("secret", ts, body)))
	if code != http.StatusOK {
		t.Fatalf("POST %s: %d %s", path, code, out)
	}
	return json.RawMessage(out)
}

// noRedirects is a client that stops at the first redirect.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func TestInstallFlow(t *testing.T) {
	e := startMulti(t, false)
	// The install link goes to Slack's authorize page with the manifest's
	// scopes, the redirect URL and a state.
	resp, err := noRedirects.Get(e.srv.URL + slack.InstallPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(loc.String(), e.fake.AuthorizeURL()+"?") {
		t.Fatalf("install link: %d to %s, want 302 to %s", resp.StatusCode, loc, e.fake.AuthorizeURL())
	}
	q := loc.Query()
	want := map[string]string{"client_id": clientID, "scope": strings.Join(slack.BotScopes, ","), "redirect_uri": e.srv.URL + slack.CallbackPath}
	for k, v := range want {
		if q.Get(k) != v {
			t.Errorf("authorize %s = %q, want %q", k, q.Get(k), v)
		}
	}
	if q.Get("state") == "" {
		t.Error("authorize has no state")
	}

	code, page := e.install(t, slacktest.Grant{Team: "T1", TeamName: "One", BotUserID: "UB1", Scope: "chat:write"})
	if code != http.StatusOK {
		t.Fatalf("callback: %d\n%s", code, page)
	}
	for _, s := range []string{"factbot is installed", "One", "/invite @factbot", "/factcheck help"} {
		if !strings.Contains(page, s) {
			t.Errorf("success page lacks %q:\n%s", s, page)
		}
	}
	acc := e.fake.Recorded("oauth.v2.access")
	if len(acc) != 1 || acc[0].Form.Get("redirect_uri") != e.srv.URL+slack.CallbackPath || acc[0].Form.Get("code") == "" {
		t.Fatalf("oauth.v2.access calls: %+v", acc)
	}
	inst, err := e.installs.Get(context.Background(), "slack", "T1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(inst.BotToken, "xoxb-T1-") || inst.BotUserID != "UB1" || inst.Name != "One" || inst.InstalledBy != "UINSTALLER" || inst.RefreshToken != "" {
		t.Errorf("stored installation: %+v", inst)
	}
	// The database file never holds the token in clear.
	raw, err := os.ReadFile(e.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(inst.BotToken)) {
		t.Errorf("the database file holds the bot token %s in clear", inst.BotToken)
	}
}

func TestInstallCallbackRefused(t *testing.T) {
	e := startMulti(t, false)
	browser := newBrowser(t, false)
	freshState := func() string {
		resp, err := browser.Get(e.srv.URL + slack.InstallPath)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc, _ := url.Parse(resp.Header.Get("Location"))
		return loc.Query().Get("state")
	}
	grant := slacktest.Grant{Team: "T1", BotUserID: "UB1"}
	tests := []struct {
		name  string
		query func() url.Values
		say   string
	}{
		{"tampered state", func() url.Values {
			s := freshState()
			// Push the expiry a day later, keeping the signature.
			exp, rest, _ := strings.Cut(s, ".")
			return url.Values{"code": {e.fake.Code(grant)}, "state": {exp[:len(exp)-5] + "99999." + rest}}
		}, "could not be verified"},
		{"forged signature", func() url.Values {
			s := freshState()
			return url.Values{"code": {e.fake.Code(grant)}, "state": {s[:len(s)-4] + "AAAA"}}
		}, "could not be verified"},
		{"no state", func() url.Values { return url.Values{"code": {e.fake.Code(grant)}} }, "could not be verified"},
		{"expired state", func() url.Values {
			s := freshState()
			e.clock.Add(slack.StateTTL + time.Second)
			return url.Values{"code": {e.fake.Code(grant)}, "state": {s}}
		}, "expired"},
		{"cancelled on Slack", func() url.Values {
			return url.Values{"error": {"access_denied"}, "state": {freshState()}}
		}, "access_denied"},
		{"code Slack does not know", func() url.Values {
			return url.Values{"code": {"forged"}, "state": {freshState()}}
		}, "invalid_code"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := browser.Get(e.srv.URL + slack.CallbackPath + "?" + tt.query().Encode())
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode < 400 || !strings.Contains(string(b), tt.say) || !strings.Contains(string(b), "Nothing was stored") && !strings.Contains(string(b), "nothing was stored") {
				t.Errorf("%d, want an error page saying %q and that nothing was stored:\n%s", resp.StatusCode, tt.say, b)
			}
			if n, _ := e.installs.Count(context.Background(), ""); n != 0 {
				t.Errorf("%d installations stored, want 0", n)
			}
		})
	}
	// Only the unknown code reached oauth.v2.access.
	if n := len(e.fake.Recorded("oauth.v2.access")); n != 1 {
		t.Errorf("%d oauth.v2.access calls, want 1 (the unknown code's)", n)
	}
}

// finalFor waits for the final report in channel.
func finalFor(t *testing.T, f *slacktest.Server, channel string) slacktest.Call {
	t.Helper()
	var final slacktest.Call
	waitFor(t, func() bool {
		for _, c := range f.Recorded("chat.update") {
			if isFinal(c) && c.Form.Get("channel") == channel {
				final = c
				return true
			}
		}
		return false
	})
	return final
}

func TestTwoWorkspacesEachWithItsOwnToken(t *testing.T) {
	for _, mode := range []string{"socket", "http"} {
		t.Run(mode, func(t *testing.T) {
			httpMode := mode == "http"
			e := startMulti(t, httpMode)
			for _, g := range []slacktest.Grant{{Team: "T1", TeamName: "One", BotUserID: "UB1"}, {Team: "T2", TeamName: "Two", BotUserID: "UB2"}} {
				if code, page := e.install(t, g); code != http.StatusOK {
					t.Fatalf("install %s: %d %s", g.Team, code, page)
				}
			}
			tok := map[string]string{"T1": e.token(t, "T1"), "T2": e.token(t, "T2")}
			if tok["T1"] == tok["T2"] {
				t.Fatalf("both workspaces have token %s", tok["T1"])
			}
			claims := map[string]string{"T1": "Snow is white", "T2": "Grass is purple"}
			for team, bu := range map[string]string{"T1": "UB1", "T2": "UB2"} {
				e.send(t, httpMode, "events_api", slacktest.MentionIn(team, "Ev"+team, "C"+team, "U1", "1700000001.000100", "<@"+bu+"> "+claims[team]))
			}
			for team := range tok {
				final := finalFor(t, e.fake, "C"+team)
				for _, c := range e.fake.Recorded("chat.postMessage", "chat.update", "conversations.info") {
					if strings.HasSuffix(c.Form.Get("channel"), team) && c.Token != tok[team] {
						t.Errorf("%s in %s's channel with token %s, want %s", c.Method, team, c.Token, tok[team])
					}
				}
				if strings.Contains(final.Text(), "UB") {
					t.Errorf("%s: the bot's own mention was not stripped: %s", team, final.Text())
				}
			}
			// Each workspace's history holds its own check only.
			for team := range tok {
				waitFor(t, func() bool {
					r, err := e.db.Request(context.Background(), team, "slack:event:Ev"+team)
					return err == nil && r.State == store.RequestDone
				})
			}
			for team, other := range map[string]string{"T1": "T2", "T2": "T1"} {
				cmd := slacktest.Command("trig"+team, "C"+team, "U1", "history", e.fake.ResponseURL("h"))
				cmd["team_id"] = team
				ack := e.send(t, httpMode, "slash_commands", cmd)
				if !strings.Contains(string(ack), claims[team]) || strings.Contains(string(ack), claims[other]) {
					t.Errorf("history in %s: %s; want %q and not %q", team, ack, claims[team], claims[other])
				}
			}
		})
	}
}

func TestUninstallForgetsTheWorkspace(t *testing.T) {
	tests := []struct {
		name  string
		event func(team string) map[string]any
	}{
		{"app_uninstalled", func(team string) map[string]any { return slacktest.Uninstalled(team, "EvU"+team) }},
		{"tokens_revoked", func(team string) map[string]any { return slacktest.TokensRevoked(team, "EvR"+team, "UB1") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := startMulti(t, false)
			for _, g := range []slacktest.Grant{{Team: "T1", BotUserID: "UB1"}, {Team: "T2", BotUserID: "UB2"}} {
				if code, page := e.install(t, g); code != http.StatusOK {
					t.Fatalf("install: %d %s", code, page)
				}
			}
			// The workspace is served, so its token is cached.
			e.send(t, false, "events_api", slacktest.MentionIn("T1", "Ev1", "CT1", "U1", "1700000001.000100", "<@UB1> Snow is white"))
			finalFor(t, e.fake, "CT1")
			t1 := e.token(t, "T1")

			// Only user tokens revoked: nothing happens.
			e.send(t, false, "events_api", slacktest.TokensRevoked("T1", "EvUser"))
			if _, err := e.installs.Get(context.Background(), "slack", "T1"); err != nil {
				t.Fatalf("user tokens revoked removed the installation: %v", err)
			}

			e.send(t, false, "events_api", tt.event("T1"))
			if _, err := e.installs.Get(context.Background(), "slack", "T1"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("after %s: %v, want ErrNotFound", tt.name, err)
			}
			before := len(e.fake.Recorded())
			// Its events are ignored: acknowledged, nothing stored or sent.
			e.send(t, false, "events_api", slacktest.MentionIn("T1", "Ev2", "CT1", "U1", "1700000002.000100", "<@UB1> Grass is purple"))
			cmd := slacktest.Command("trigX", "CT1", "U1", "Grass is purple", e.fake.ResponseURL("x"))
			cmd["team_id"] = "T1"
			if ack := e.send(t, false, "slash_commands", cmd); string(ack) != "" && string(ack) != "null" {
				t.Errorf("command of an uninstalled workspace acknowledged with %s", ack)
			}
			if _, err := e.db.Request(context.Background(), "T1", "slack:event:Ev2"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("event of an uninstalled workspace stored: %v", err)
			}
			// The other workspace goes on.
			e.send(t, false, "events_api", slacktest.MentionIn("T2", "Ev3", "CT2", "U1", "1700000003.000100", "<@UB2> Snow is white"))
			finalFor(t, e.fake, "CT2")
			for _, c := range e.fake.Recorded()[before:] {
				if c.Token == t1 {
					t.Errorf("%s with the uninstalled workspace's token", c.Method)
				}
			}
		})
	}
}

func TestTokenRotation(t *testing.T) {
	e := startMulti(t, false)
	if code, page := e.install(t, slacktest.Grant{Team: "T1", BotUserID: "UB1", Rotate: true, ExpiresIn: 3600}); code != http.StatusOK {
		t.Fatalf("install: %d %s", code, page)
	}
	first, err := e.installs.Get(context.Background(), "slack", "T1")
	if err != nil {
		t.Fatal(err)
	}
	if first.RefreshToken == "" || !first.ExpiresAt.Equal(e.clock.Now().Add(time.Hour).UTC()) {
		t.Fatalf("installation with rotation: refresh %q expires %v", first.RefreshToken, first.ExpiresAt)
	}
	// Far from expiry: the token is used as it is.
	e.send(t, false, "events_api", slacktest.MentionIn("T1", "Ev1", "CA", "U1", "1700000001.000100", "<@UB1> Snow is white"))
	if c := finalFor(t, e.fake, "CA"); c.Token != first.BotToken {
		t.Errorf("answered with %s, want %s", c.Token, first.BotToken)
	}
	if n := len(e.fake.Recorded("oauth.v2.access")); n != 1 {
		t.Errorf("%d oauth.v2.access calls before expiry, want 1 (the install)", n)
	}
	// Within minutes of expiry: refreshed first, and the new pair stored. A
	// refresh that fails while the token still works loses nothing: the
	// next use tries again.
	e.clock.Add(55 * time.Minute)
	e.fake.RateLimit("oauth.v2.access", "0")
	e.send(t, false, "events_api", slacktest.MentionIn("T1", "Ev2", "CB", "U1", "1700000002.000100", "<@UB1> Grass is purple"))
	final := finalFor(t, e.fake, "CB")
	if n := len(e.fake.Recorded("oauth.v2.access (429)")); n != 1 {
		t.Errorf("%d refreshes refused, want 1", n)
	}
	acc := e.fake.Recorded("oauth.v2.access")
	if len(acc) != 2 || acc[1].Form.Get("grant_type") != "refresh_token" || acc[1].Form.Get("refresh_token") != first.RefreshToken {
		t.Fatalf("oauth.v2.access calls: %+v", acc)
	}
	now, err := e.installs.Get(context.Background(), "slack", "T1")
	if err != nil {
		t.Fatal(err)
	}
	if now.BotToken == first.BotToken || now.RefreshToken == first.RefreshToken || !now.ExpiresAt.After(first.ExpiresAt) {
		t.Errorf("after refresh: %+v, was %+v", now, first)
	}
	if final.Token != now.BotToken {
		t.Errorf("answered with %s, want the refreshed %s", final.Token, now.BotToken)
	}
}

func TestOrgWideInstallServesEveryWorkspaceOfTheOrg(t *testing.T) {
	e := startMulti(t, false)
	code, page := e.install(t, slacktest.Grant{Enterprise: "E1", EnterpriseInstall: true, BotUserID: "UBE"})
	if code != http.StatusOK || !strings.Contains(page, "every workspace of Org E1") {
		t.Fatalf("install: %d %s", code, page)
	}
	inst, err := e.installs.Get(context.Background(), "slack", "E1")
	if err != nil || !inst.Enterprise {
		t.Fatalf("org-wide installation: %+v, %v", inst, err)
	}
	for _, team := range []string{"T7", "T8"} {
		m := slacktest.MentionIn(team, "Ev"+team, "C"+team, "U1", "1700000001.000100", "<@UBE> Snow is white")
		m["enterprise_id"] = "E1"
		e.send(t, false, "events_api", m)
		if c := finalFor(t, e.fake, "C"+team); c.Token != inst.BotToken {
			t.Errorf("%s answered with %s, want the org's %s", team, c.Token, inst.BotToken)
		}
	}
	// A workspace of another organisation is not served.
	m := slacktest.MentionIn("T9", "EvT9", "CT9", "U1", "1700000001.000100", "<@UBE> Snow is white")
	m["enterprise_id"] = "E2"
	e.send(t, false, "events_api", m)
	if _, err := e.db.Request(context.Background(), "T9", "slack:event:EvT9"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("event of another organisation stored: %v", err)
	}
}

func TestBotScopesAreTheManifests(t *testing.T) {
	b, err := os.ReadFile("../../deploy/slack-manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// oauth_config.scopes.bot: the "- scope" lines after "bot:".
	var got []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case trim == "bot:":
			in = true
		case in && strings.HasPrefix(trim, "- "):
			s, _, _ := strings.Cut(strings.TrimPrefix(trim, "- "), "#")
			got = append(got, strings.TrimSpace(s))
		case in && trim != "" && !strings.HasPrefix(trim, "#"):
			in = false
		}
	}
	if d := cmp.Diff(got, slack.BotScopes); d != "" {
		t.Errorf("manifest bot scopes (-manifest +BotScopes):\n%s", d)
	}
}

// TestInstallStateOnceAndBound: an install's state completes one install,
// and only in the browser that started it (the cookie /slack/install
// sets); a replay of the callback, even with the cookie and another
// workspace's code, installs nothing.
func TestInstallStateOnceAndBound(t *testing.T) {
	e := startMulti(t, false)
	browser := newBrowser(t, false)
	resp, err := browser.Get(e.srv.URL + slack.InstallPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == slack.StateCookie {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Path != slack.CallbackPath || cookie.MaxAge <= 0 {
		t.Fatalf("install link's cookie = %+v, want an HttpOnly, SameSite=Lax cookie for the callback", cookie)
	}
	state := must(url.Parse(resp.Header.Get("Location"))).Query().Get("state")
	callback := func(c *http.Client, team string, cookie *http.Cookie) (int, string) {
		t.Helper()
		q := url.Values{"code": {e.fake.Code(slacktest.Grant{Team: team, BotUserID: "UB" + team})}, "state": {state}}
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+slack.CallbackPath+"?"+q.Encode(), nil)
		if cookie != nil {
			req.AddCookie(cookie)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	installed := func() int {
		n, _ := e.installs.Count(context.Background(), "")
		return n
	}

	// Another browser (no cookie) cannot complete it.
	if code, page := callback(newBrowser(t, false), "T9", nil); code != http.StatusBadRequest || !strings.Contains(page, "did not come back to the browser") || installed() != 0 {
		t.Errorf("callback from another browser = %d, %d installed:\n%s", code, installed(), page)
	}
	// The browser that started it does, and its cookie is cleared.
	if code, page := callback(browser, "T1", nil); code != http.StatusOK || installed() != 1 {
		t.Fatalf("callback from the browser that started it = %d:\n%s", code, page)
	}
	for _, c := range browser.Jar.Cookies(must(url.Parse(e.srv.URL + slack.CallbackPath))) {
		if c.Name == slack.StateCookie {
			t.Errorf("the state's cookie is still set after the install")
		}
	}
	// A replay, keeping the cookie, with another workspace's code: refused.
	for _, team := range []string{"T1", "T2"} {
		if code, page := callback(http.DefaultClient, team, cookie); code != http.StatusBadRequest || !strings.Contains(page, "already used") {
			t.Errorf("replayed callback for %s = %d:\n%s", team, code, page)
		}
	}
	if n := installed(); n != 1 {
		t.Errorf("%d installations after replays, want 1", n)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The install's pages speak the installer's browser's language (its
// Accept-Language), from the catalogs, and English otherwise.
func TestInstallPagesInTheBrowsersLanguage(t *testing.T) {
	e := startMulti(t, false)
	for _, tt := range []struct {
		accept string
		want   []string
	}{
		{"", []string{`<html lang="en" dir="ltr">`, "This install request could not be verified", "Start the installation again"}},
		{"fr-FR,fr;q=0.9", []string{`<html lang="fr" dir="ltr">`, "Cette demande d’installation n’a pas pu être vérifiée", "Recommencer l’installation"}},
		{"ar", []string{`<html lang="ar" dir="rtl">`, "تعذّر التحقق من طلب التثبيت هذا"}},
		{"ko-KR", []string{`<html lang="en" dir="ltr">`, "This install request could not be verified"}}, // no Korean catalog
	} {
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+slack.CallbackPath+"?code=c", nil)
		if tt.accept != "" {
			req.Header.Set("Accept-Language", tt.accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, w := range tt.want {
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), w) {
				t.Errorf("Accept-Language %q: %d, want 400 and a page with %q:\n%s", tt.accept, resp.StatusCode, w, b)
			}
		}
	}
}
