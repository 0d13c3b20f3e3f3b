package slack

import (
	"context"

	"github.com/slack-go/slack"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/store"
)

// Slack's loading state in channel threads (assistant.threads.setStatus,
// which accepts chat:write since 2026-03): while a mention's, a
// reaction's, the shortcut's or /factcheck's check runs, the reply's
// thread shows "factbot is checking…" with rotating loading messages, set
// when the "Checking…" message is posted and cleared when it is edited
// into the report. The message stays: it is what the channel shows (the
// thread's reply count, the first line) to those who do not open the
// thread, it carries the progress when Slack refuses the status, and it is
// the one message the report replaces, so an answer is never split.
// Private requests (ephemeral answers) show nothing to others: they get no
// status.

// loading sets (set) or clears the loading state of the thread of r's
// reply in its channel. One attempt, not paced behind the channel's
// messages and not retried: a status refused or rate limited is logged,
// and the report is delivered all the same.
func (cv *conversations) loading(ctx context.Context, api API, r *store.Request, thread string, m *bot.Message) {
	set := !m.Final
	if r.Private || thread == "" || isAssistant(r) {
		return
	}
	p := slack.AssistantThreadsSetStatusParameters{ChannelID: r.Channel, ThreadTS: thread}
	if set {
		l := m.Lang
		p.Status = l.Text(words.StatusChecking, nil)
		p.LoadingMessages = []string{l.Text(words.LoadingClaims, nil), l.Text(words.LoadingSources, nil), l.Text(words.LoadingWeighing, nil)}
	}
	ctx, cancel := context.WithTimeout(ctx, cv.cfg.CallTimeout)
	defer cancel()
	if err := api.SetAssistantThreadsStatusContext(ctx, p); err != nil && ctx.Err() == nil {
		cv.log.Info("slack: loading state not shown (assistant.threads.setStatus refused); the report is delivered all the same",
			"key", r.Key, "set", set, "err", err)
	}
}
