package slack

import (
	"context"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/internal/memo"
	"github.com/factbot-dev/factbot/store"
)

// Who asks: their locale chooses the language of the answer's words
// (bot.MetaLocale), and their name says who asked under a report everyone
// in the channel sees (bot.MetaUserName). Both come from users.info with
// include_locale (scope users:read), cached per workspace and user.
const (
	userTTL    = time.Hour
	userErrTTL = time.Minute
	userMax    = 10000
	// userTimeout bounds one users.info call: it runs before the
	// acknowledgement, beside conversations.info.
	userTimeout = time.Second
)

// asker is what users.info tells of a person.
type asker struct{ locale, name string }

func newUserCache(now func() time.Time) *memo.Cache[asker] {
	return &memo.Cache[asker]{TTL: userTTL, ErrTTL: userErrTTL, Max: userMax, Now: now}
}

// lookupAsker starts looking user up (users.info, cached) and returns a
// function that sets what was found on r's Meta; call it before Submit.
// The lookup runs while the caller does its other lookups.
func (a *Adapter) lookupAsker(ctx context.Context, w *workspace, user string) func(r *store.Request) {
	done := make(chan asker, 1)
	go func() {
		p, _ := a.users.Get(ctx, w.key+":"+user, func(ctx context.Context) (asker, error) {
			cctx, cancel := context.WithTimeout(ctx, userTimeout)
			defer cancel()
			u, err := w.client().GetUserInfoContext(cctx, user)
			if err != nil {
				hint := ""
				if strings.Contains(err.Error(), "missing_scope") {
					hint = "add the scope users:read (see deploy/slack-manifest.yaml) and reinstall the app"
				}
				a.log.Warn("slack: users.info failed; the answer's language comes from the claims", "user", user, "err", err, "hint", hint)
				return asker{}, err
			}
			return askerOf(u), nil
		})
		done <- p
	}()
	return func(r *store.Request) {
		var p asker
		select {
		case p = <-done:
		case <-ctx.Done():
		}
		if r.Meta == nil {
			r.Meta = map[string]string{}
		}
		if p.locale != "" {
			r.Meta[bot.MetaLocale] = p.locale
		}
		if p.name != "" {
			r.Meta[bot.MetaUserName] = p.name
		}
	}
}

// askerOf is the locale ("es-ES") and the name Slack shows of u.
func askerOf(u *slack.User) asker {
	if u == nil {
		return asker{}
	}
	return asker{locale: u.Locale, name: firstNonEmpty(u.Profile.DisplayName, u.RealName, u.Profile.RealName, u.Name)}
}
