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

	"github.com/factbot-dev/factbot/store"
)

// Installs is where the workspaces installed by OAuth are kept, their
// tokens sealed (*store.Installations).
type Installs interface {
	Get(ctx context.Context, platform, id string) (*store.Installation, error)
	Put(ctx context.Context, inst *store.Installation) error
	Delete(ctx context.Context, platform, id string) (bool, error)
}

// errNotInstalled is returned for a workspace with no installation: its
// events are ignored.
var errNotInstalled = errors.New("slack: workspace not installed")

const (
	// wsTTL is how long a workspace's installation is trusted from the
	// cache; past it the store is read again (so that an installation
	// deleted from outside, e.g. factbot forget through the admin socket,
	// stops being served within it).
	wsTTL = time.Minute
	// refreshMargin is how long before its expiry a rotating token is
	// refreshed.
	refreshMargin = 10 * time.Minute
	// metaEnterprise is the request's Enterprise Grid organisation, to
	// find an org-wide install when answering.
	metaEnterprise = "slack_enterprise"
)

// workspace is one workspace's client: the token it answers with and its
// bot user. In single-token mode there is one, ws.single.
// workspaces are the workspaces the adapter answers: the one of
// SLACK_BOT_TOKEN (single), or, with an OAuth client, each installation's,
// read from Installs and kept a minute (m, by installation id), its token
// refreshed before it expires.
type workspaces struct {
	cfg        Config
	log        *slog.Logger
	hc         *http.Client
	clientOpts []slack.Option // of every workspace's client
	single     *workspace     // single-token mode's workspace

	mu sync.Mutex
	m  map[string]*workspace
}

type workspace struct {
	key string // the installation's id ("" in single-token mode)
	api API

	mu      sync.Mutex // serialises refreshes
	inst    *store.Installation
	botUser string
	loaded  time.Time
}

// multi reports whether the adapter serves the workspaces installed by
// OAuth rather than one SLACK_BOT_TOKEN.
func (ws *workspaces) multi() bool { return ws.cfg.ClientID != "" }

// workspaceOf is the workspace of a request stored by the adapter.
func (ws *workspaces) of(ctx context.Context, r *store.Request) (*workspace, error) {
	return ws.get(ctx, r.Tenant, r.Meta[metaEnterprise])
}

// workspace returns the client of team (in organisation enterprise): its
// own install, else its organisation's org-wide install. It returns
// errNotInstalled when there is neither.
func (ws *workspaces) get(ctx context.Context, team, enterprise string) (*workspace, error) {
	if !ws.multi() {
		return ws.single, nil
	}
	for _, id := range []string{team, enterprise} {
		if id == "" {
			continue
		}
		w, err := ws.load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if w.orgWide() && id == team {
			continue // an organisation's id where a team's was expected
		}
		return w, ws.refreshIfDue(ctx, w)
	}
	return nil, fmt.Errorf("%w: team %s enterprise %s", errNotInstalled, team, enterprise)
}

// loadWorkspace returns the cached workspace of installation id, reading
// the store when it is not cached or older than wsTTL.
func (ws *workspaces) load(ctx context.Context, id string) (*workspace, error) {
	now := ws.cfg.Now()
	ws.mu.Lock()
	w, ok := ws.m[id]
	ws.mu.Unlock()
	if ok {
		w.mu.Lock()
		fresh := now.Sub(w.loaded) < wsTTL
		w.mu.Unlock()
		if fresh {
			return w, nil
		}
	}
	inst, err := ws.cfg.Installs.Get(ctx, Name, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			ws.forget(id)
		}
		return nil, err
	}
	if ok {
		w.mu.Lock()
		same := w.inst.BotToken == inst.BotToken
		if same {
			w.loaded = now
		}
		w.mu.Unlock()
		if same {
			return w, nil
		}
	}
	w = ws.newWorkspace(inst, now)
	ws.mu.Lock()
	ws.m[id] = w
	ws.mu.Unlock()
	return w, nil
}

func (ws *workspaces) newWorkspace(inst *store.Installation, now time.Time) *workspace {
	return &workspace{key: inst.ID, api: slack.New(inst.BotToken, ws.clientOpts...), inst: inst, botUser: inst.BotUserID, loaded: now}
}

// forgetWorkspace drops installation id from the cache.
func (ws *workspaces) forget(id string) {
	ws.mu.Lock()
	delete(ws.m, id)
	ws.mu.Unlock()
}

// refreshIfDue renews a rotating token that expires within refreshMargin
// (oauth.v2.access, grant_type=refresh_token), storing the new pair
// before using it.
func (ws *workspaces) refreshIfDue(ctx context.Context, w *workspace) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	inst := w.inst
	if inst.RefreshToken == "" || inst.ExpiresAt.IsZero() || inst.ExpiresAt.Sub(ws.cfg.Now()) > refreshMargin {
		return nil
	}
	res, err := slack.RefreshOAuthV2TokenContext(ctx, ws.hc, ws.cfg.ClientID, ws.cfg.ClientSecret, inst.RefreshToken, slack.OAuthOptionAPIURL(ws.apiURL()))
	if err != nil {
		if ws.cfg.Now().Before(inst.ExpiresAt) {
			// The token still works: use it, and try again next time.
			ws.log.Warn("slack: token refresh failed; using the current token until it expires", "workspace", inst.ID, "expires", inst.ExpiresAt, "err", err)
			return nil
		}
		return fmt.Errorf("slack: refresh the token of %s: %w", inst.ID, err)
	}
	next := *inst
	next.BotToken, next.RefreshToken = res.AccessToken, res.RefreshToken
	next.ExpiresAt = time.Time{}
	if res.ExpiresIn > 0 {
		next.ExpiresAt = ws.cfg.Now().Add(time.Duration(res.ExpiresIn) * time.Second)
	}
	if next.RefreshToken == "" {
		next.RefreshToken = inst.RefreshToken
	}
	if err := ws.cfg.Installs.Put(ctx, &next); err != nil {
		return fmt.Errorf("slack: store the refreshed token of %s: %w", inst.ID, err)
	}
	w.inst = &next
	w.api = slack.New(next.BotToken, ws.clientOpts...)
	ws.log.Info("slack: token refreshed", "workspace", inst.ID, "expires", next.ExpiresAt)
	return nil
}

// orgWide reports whether the workspace is an organisation's install.
func (w *workspace) orgWide() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.inst != nil && w.inst.Enterprise
}

// bot is the workspace's bot user id.
func (w *workspace) bot() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.botUser
}

// client is the workspace's API client (it changes on refresh).
func (w *workspace) client() API {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.api
}

// apiURL is the Web API base, with its slash.
func (ws *workspaces) apiURL() string {
	u := ws.cfg.APIURL
	if u == "" {
		return slack.APIURL
	}
	if !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}

// uninstall deletes the installation an app_uninstalled or tokens_revoked
// event names; its workspace's events are ignored from then on.
func (ws *workspaces) uninstall(ctx context.Context, team, enterprise, why string) error {
	if !ws.multi() {
		ws.log.Warn("slack: "+why+"; with SLACK_BOT_TOKEN the token is the operator's to remove", "team", team)
		return nil
	}
	for _, id := range []string{team, enterprise} {
		if id == "" {
			continue
		}
		inst, err := ws.cfg.Installs.Get(ctx, Name, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err == nil && inst.Enterprise && id == team {
			continue
		}
		// A record that does not open (its key lost) is deleted all the same.
		ok, err := ws.cfg.Installs.Delete(ctx, Name, id)
		if err != nil {
			return err
		}
		ws.forget(id)
		if ok {
			ws.log.Info("slack: "+why+"; installation and tokens deleted", "installation", id)
		}
		return nil
	}
	return nil
}
