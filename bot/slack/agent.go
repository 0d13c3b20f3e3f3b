package slack

import (
	"strings"
	"sync"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// Slack's agent messaging experience (the manifest's features.agent_view,
// the only one an app created since mid-2026 can have): the person talks
// to factbot in its Messages tab, a DM whose top-level messages are the
// conversations, each answered in its own thread.
//   - app_home_opened with tab "messages" replaces assistant_thread_started:
//     the DM's suggested prompts are set for the channel alone (an agent
//     app's setSuggestedPrompts with a thread_ts fails silently);
//   - app_context_changed says what the person views: the prompts are set
//     again, naming the channel now in view;
//   - a top-level DM (message.im with no thread_ts) is a request answered
//     in its thread, and a reply in that thread a new request there: the
//     assistant's path (assistant.go: status, stream, feedback buttons).

// viewer is what factbot knows of one person in the agent experience:
// their DM with factbot and the channel they view.
type viewer struct{ dm, viewing string }

// viewers remembers each person's viewer, by workspace and user, in this
// process's memory (at most maxViewers: past that it starts afresh; a
// person forgotten gets the prompts without the channel in view until
// Slack says it again).
type viewers struct {
	mu sync.Mutex
	m  map[string]viewer
}

const maxViewers = 10000

// update applies f to the viewer of user in team and returns it before and
// after.
func (v *viewers) update(team, user string, f func(*viewer)) (before, after viewer) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil || len(v.m) >= maxViewers {
		v.m = map[string]viewer{}
	}
	k := team + ":" + user
	before = v.m[k]
	after = before
	f(&after)
	v.m[k] = after
	return before, after
}

// agentEvent handles the agent experience's own events; false for any other.
func (cv *conversations) agentEvent(w *workspace, team string, cb *slackevents.EventsAPICallbackEvent, data any) bool {
	switch e := data.(type) {
	case *slackevents.AppHomeOpenedEvent:
		if e.Tab != "messages" || e.User == "" || e.Channel == "" {
			return true // the Home tab: factbot publishes none
		}
		_, v := cv.viewers.update(team, e.User, func(v *viewer) {
			v.dm = e.Channel
			if e.Context != nil {
				v.viewing = viewedChannel(*e.Context)
			}
		})
		cv.suggestLater(w, team, promptTarget{channel: v.dm, user: e.User, viewing: v.viewing})
	case *slackevents.AppContextChangedEvent:
		if e.User == "" { // Slack's own example of the event names no user: the person is its authorization's
			e.User = personOf(cb.Authorizations)
		}
		if e.User == "" {
			cv.log.Debug("slack: app_context_changed names no person; ignored")
			return true
		}
		before, v := cv.viewers.update(team, e.User, func(v *viewer) {
			if e.Channel != "" {
				v.dm = e.Channel
			}
			v.viewing = viewedChannel(e.Context)
		})
		// Each move to another channel sends the event: the prompts are
		// set again only when the channel they name changes.
		if v.dm != "" && promptChannel(v.viewing) != promptChannel(before.viewing) {
			cv.suggestLater(w, team, promptTarget{channel: v.dm, user: e.User, viewing: v.viewing})
		}
	default:
		return false
	}
	return true
}

// personOf is the one person (not a bot) among an event's authorizations;
// "" if there is none, or more than one.
func personOf(auths []slack.EventAuthorization) string {
	var user string
	for _, au := range auths {
		if au.IsBot || au.UserID == "" {
			continue
		}
		if user != "" && user != au.UserID {
			return ""
		}
		user = au.UserID
	}
	return user
}

// viewedChannel is the channel a person views: the most relevant entity
// that is a channel, or a message in one; "" for none.
func viewedChannel(c slackevents.AppContext) string {
	for _, e := range c.Entities {
		switch {
		case e.Type == slackevents.AppContextEntityChannel:
			return e.Value
		case e.Type == slackevents.AppContextEntityMessageContext && e.Message != nil:
			return e.Message.ChannelID
		}
	}
	return ""
}

// promptChannel is the channel the prompts name for a person viewing ch:
// none for a DM (its messages are not factbot's to read).
func promptChannel(ch string) string {
	if strings.HasPrefix(ch, "D") {
		return ""
	}
	return ch
}
