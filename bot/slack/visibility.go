package slack

import (
	"context"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/factbot-dev/factbot/internal/memo"
	"github.com/factbot-dev/factbot/store"
)

// Who can read the conversation a request comes from decides who may find
// its check later (store.Request.Visibility; bot.Audience). The adapter
// takes it from the payload where the payload says, else from
// conversations.info, cached per channel. Anything it cannot tell is
// unknown, which the core treats as not public.
const (
	// visTTL is how long a conversation's visibility is trusted (a
	// channel made private is seen within this time).
	visTTL = 10 * time.Minute
	// visErrTTL is how long a failed lookup stands before the next
	// request tries again, so that a burst costs one failed call.
	visErrTTL = 30 * time.Second
	// visMax bounds the cached conversations.
	visMax = 10000
	// visTimeout bounds one conversations.info call: it runs before the
	// acknowledgement, which Slack expects within 3 s.
	visTimeout = 2 * time.Second
)

// visibilityOfName says what a slash command's channel_name or an
// interaction payload's channel (id and name) tell of the conversation;
// unknown when they do not tell (a channel's own name says nothing of it).
func visibilityOfName(id, name string) store.Visibility {
	switch {
	case strings.HasPrefix(id, "D"), name == "directmessage":
		return store.VisibilityDM
	case strings.HasPrefix(name, "mpdm-"):
		return store.VisibilityGroup
	case name == "privategroup":
		return store.VisibilityPrivate
	}
	return store.VisibilityUnknown
}

// visibilityOfInfo maps a conversations.info answer. Private channels are
// is_private (new ones are also is_channel; old ones is_group).
func visibilityOfInfo(c *slack.Channel) store.Visibility {
	switch {
	case c == nil:
		return store.VisibilityUnknown
	case c.IsIM:
		return store.VisibilityDM
	case c.IsMpIM:
		return store.VisibilityGroup
	case c.IsPrivate, c.IsGroup:
		return store.VisibilityPrivate
	case c.IsChannel:
		return store.VisibilityPublic
	}
	return store.VisibilityUnknown
}

// visibility is who can read channel: hint when the payload said, else
// conversations.info (cached).
func (a *Adapter) visibility(ctx context.Context, w *workspace, channel string, hint store.Visibility) store.Visibility {
	if hint != store.VisibilityUnknown {
		return hint
	}
	if v := visibilityOfName(channel, ""); v != store.VisibilityUnknown {
		return v
	}
	if channel == "" {
		return store.VisibilityUnknown
	}
	return a.lookupVisibility(ctx, w, channel)
}

// lookupVisibility asks conversations.info, with workspace w's token, once
// per channel and visTTL: concurrent requests for a channel wait for the
// one call in flight.
func (a *Adapter) lookupVisibility(ctx context.Context, w *workspace, channel string) store.Visibility {
	vis, _ := a.visCache.Get(ctx, w.key+":"+channel, func(ctx context.Context) (store.Visibility, error) {
		cctx, cancel := context.WithTimeout(ctx, visTimeout)
		defer cancel()
		info, err := w.client().GetConversationInfoContext(cctx, &slack.GetConversationInfoInput{ChannelID: channel})
		if err != nil {
			hint := ""
			if strings.Contains(err.Error(), "missing_scope") {
				hint = "add the scopes channels:read, groups:read, im:read and mpim:read (see deploy/slack-manifest.yaml) and reinstall the app"
			}
			a.log.Warn("slack: conversations.info failed; the request's visibility is unknown (not public)",
				"channel", channel, "err", err, "hint", hint)
			return store.VisibilityUnknown, err
		}
		return visibilityOfInfo(info), nil
	})
	return vis
}

// newVisCache is the cache of conversations' visibility.
func newVisCache(now func() time.Time) *memo.Cache[store.Visibility] {
	return &memo.Cache[store.Visibility]{TTL: visTTL, ErrTTL: visErrTTL, Max: visMax, Now: now}
}
