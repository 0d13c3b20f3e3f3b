package slack

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"
)

// An install's state is used once, by the browser that started it: the
// install link sets a cookie holding the state's nonce, and the callback
// accepts the state only with that cookie, and only the first time
// (UsedStates, shared by replicas through the store).

// StateCookie is the cookie /slack/install sets, read by the callback.
const StateCookie = "factbot_slack_install"

// UsedStates records the install states used, so that each completes one
// install on every replica. *store.DB and *postgres.DB implement it.
type UsedStates interface {
	// UseOnce records key as used until expires and reports whether this
	// is its first use.
	UseOnce(ctx context.Context, key string, expires time.Time) (first bool, err error)
}

// Errors of a state that is valid but may not complete an install.
var (
	errStateOtherBrowser = errors.New("state without its cookie")
	errStateUsed         = errors.New("state used before")
)

// stateCookie is the cookie that binds a new state to the browser.
func (in *installer) stateCookie(state string) *http.Cookie {
	return &http.Cookie{Name: StateCookie, Value: stateNonce(state), Path: CallbackPath, MaxAge: int(StateTTL / time.Second),
		HttpOnly: true, Secure: strings.HasPrefix(in.cfg.PublicURL, "https://"), SameSite: http.SameSiteLaxMode}
}

// clearStateCookie removes the cookie once the callback has read it.
func (in *installer) clearStateCookie(w http.ResponseWriter) {
	c := in.stateCookie("")
	c.MaxAge = -1
	http.SetCookie(w, c)
}

// stateNonce is the nonce of a state "<expiry>.<nonce>.<mac>".
func stateNonce(state string) string {
	parts := strings.Split(state, ".")
	if len(parts) != 3 {
		return ""
	}
	return parts[1]
}

// useState accepts a signed, fresh state once, from the browser that
// started the install (errStateOtherBrowser, errStateUsed otherwise).
func (in *installer) useState(r *http.Request, state string, expires time.Time) error {
	nonce := stateNonce(state)
	c, err := r.Cookie(StateCookie)
	if err != nil || nonce == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(nonce)) != 1 {
		return errStateOtherBrowser
	}
	first, err := in.cfg.UsedStates.UseOnce(r.Context(), "slack-install-state:"+nonce, expires)
	if err != nil {
		return err
	}
	if !first {
		return errStateUsed
	}
	return nil
}

// memStates is UsedStates in memory, for one process.
type memStates struct {
	mu   sync.Mutex
	used map[string]time.Time
}

func (m *memStates) UseOnce(_ context.Context, key string, expires time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	for k, exp := range m.used {
		if !now.Before(exp) {
			delete(m.used, k)
		}
	}
	if _, ok := m.used[key]; ok {
		return false, nil
	}
	if m.used == nil {
		m.used = map[string]time.Time{}
	}
	m.used[key] = expires
	return true, nil
}
