package slack

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/internal/download"
	"github.com/factbot-dev/factbot/store"
)

// DefaultReactions are the reactions that ask for a check of a message
// (🔍 and 🔎), unless FACTBOT_REACTION says otherwise.
var DefaultReactions = []string{"mag", "mag_right"}

// filesHost is Slack's file host: the only one the bot token is sent to
// when downloading a file (besides SLACK_API_URL's host, when it is set).
const filesHost = "https://files.slack.com"

// messageOf is the message a mention asks about, for bot.MetaMessage: its
// own when it has files; with no other text in a thread, the thread's
// first message; else none.
func messageOf(m *slackevents.AppMentionEvent, text string) string {
	switch {
	case len(m.Files) > 0:
		return m.TimeStamp
	case text == "" && m.ThreadTimeStamp != "" && m.ThreadTimeStamp != m.TimeStamp:
		return m.ThreadTimeStamp
	}
	return ""
}

// reactionRequest turns a reaction added to a message into a request to
// check that message, answered in its thread. Its key is the message's,
// so that it is answered once however many people react.
func (a *Adapter) reactionRequest(ctx context.Context, w *workspace, team, enterprise string, e *slackevents.ReactionAddedEvent) *store.Request {
	if e.Item.Type != "message" || e.Item.Channel == "" || e.Item.Timestamp == "" || e.User == "" ||
		e.User == a.botUserOf(w) || e.ItemUser == a.botUserOf(w) || !slices.Contains(a.cfg.Reactions, e.Reaction) {
		return nil
	}
	return &store.Request{
		Key: "slack:reaction:" + e.Item.Channel + ":" + e.Item.Timestamp, Tenant: team, Platform: Name,
		Kind: bot.KindReaction, Channel: e.Item.Channel, Thread: e.Item.Timestamp, User: e.User,
		Visibility: a.visibility(ctx, w, e.Item.Channel, store.VisibilityUnknown),
		Meta:       withMessage(a.ws.meta(enterprise, team, e.User), e.Item.Timestamp),
	}
}

// withMessage sets bot.MetaMessage in meta when ts is not empty.
func withMessage(meta map[string]string, ts string) map[string]string {
	if ts != "" {
		meta[bot.MetaMessage] = ts
	}
	return meta
}

// ReadMessage implements bot.MessageReader: the message of r's channel
// whose ts is r.Meta[bot.MetaMessage], with conversations.history (a
// message of the channel) or conversations.replies (one in a thread); for
// latestPrefix and a channel, that channel's latest message.
func (a *Adapter) ReadMessage(ctx context.Context, r *store.Request) (*bot.Posted, error) {
	w, err := a.ws.of(ctx, r)
	if err != nil {
		return nil, err
	}
	ts := r.Meta[bot.MetaMessage]
	var m *slack.Message
	from, latest := strings.CutPrefix(ts, latestPrefix)
	if latest {
		m, err = a.latestMessage(ctx, w, r, from)
	} else {
		m, err = a.findMessage(ctx, w, r, ts)
	}
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, bot.ErrMessageNotFound(nil)
	}
	p := &bot.Posted{Text: messageText(m.Text, a.botUserOf(w))}
	if m.ThreadTimestamp != "" && m.ThreadTimestamp != m.Timestamp && !latest {
		p.Thread = m.ThreadTimestamp // a reply: its thread's first message
	}
	for _, f := range m.Files {
		p.Files = append(p.Files, bot.Attachment{Name: f.Name, MIME: f.Mimetype, URL: f.URLPrivateDownload, Size: int64(f.Size)})
	}
	return p, nil
}

// findMessage finds the message ts of r's channel; nil if there is none.
func (a *Adapter) findMessage(ctx context.Context, w *workspace, r *store.Request, ts string) (*slack.Message, error) {
	api := w.client()
	var hist *slack.GetConversationHistoryResponse
	err := a.call(ctx, r.Tenant, "", func(ctx context.Context) error {
		var err error
		hist, err = api.GetConversationHistoryContext(ctx, &slack.GetConversationHistoryParameters{
			ChannelID: r.Channel, Latest: ts, Oldest: ts, Inclusive: true, Limit: 1})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("slack: conversations.history: %w", err)
	}
	for i := range hist.Messages {
		if hist.Messages[i].Timestamp == ts {
			return &hist.Messages[i], nil
		}
	}
	// Not in the channel's history: a reply in a thread.
	var msgs []slack.Message
	err = a.call(ctx, r.Tenant, "", func(ctx context.Context) error {
		var err error
		msgs, _, _, err = api.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
			ChannelID: r.Channel, Timestamp: ts, Latest: ts, Oldest: ts, Inclusive: true, Limit: 2}) // the thread's first message, then ts
		return err
	})
	if err != nil && err.Error() != "thread_not_found" {
		return nil, fmt.Errorf("slack: conversations.replies: %w", err)
	}
	for i := range msgs {
		if msgs[i].Timestamp == ts {
			return &msgs[i], nil
		}
	}
	return nil, nil
}

// latestMessage is the latest message people posted in channel (the
// assistant's "check the message I'm looking at"); nil if there is none.
// The answer stays in the assistant's thread.
func (a *Adapter) latestMessage(ctx context.Context, w *workspace, r *store.Request, channel string) (*slack.Message, error) {
	api := w.client()
	var hist *slack.GetConversationHistoryResponse
	err := a.call(ctx, r.Tenant, "", func(ctx context.Context) error {
		var err error
		hist, err = api.GetConversationHistoryContext(ctx, &slack.GetConversationHistoryParameters{ChannelID: channel, Limit: 10})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("slack: conversations.history: %w", err)
	}
	for i := range hist.Messages {
		m := &hist.Messages[i]
		person := m.SubType == "" || m.SubType == "file_share" || m.SubType == "thread_broadcast"
		if person && m.BotID == "" && m.User != "" && m.User != a.botUserOf(w) {
			return m, nil
		}
	}
	return nil, nil
}

// Download implements bot.MessageReader: a file's url_private_download,
// with the workspace's bot token, from Slack's file host only.
func (a *Adapter) Download(ctx context.Context, r *store.Request, f bot.Attachment, max int64) ([]byte, error) {
	w, err := a.ws.of(ctx, r)
	if err != nil {
		return nil, err
	}
	h := http.Header{"Authorization": {"Bearer " + a.tokenOf(w)}}
	b, err := download.Get(ctx, a.hc, download.Request{URL: f.URL, Origins: a.fileOrigins(), Header: h, Max: max})
	if errors.Is(err, download.ErrTooLarge) {
		return nil, bot.ErrTooLarge
	}
	return b, err
}

// fileOrigins are where the bot token may be sent for a file: Slack's
// file host, or SLACK_API_URL's origin when it is set.
func (a *Adapter) fileOrigins() []string {
	if a.cfg.APIURL == "" {
		return []string{filesHost}
	}
	u, err := url.Parse(a.cfg.APIURL)
	if err != nil {
		return nil
	}
	return []string{download.Origin(u)}
}

// tokenOf is the bot token of workspace w.
func (a *Adapter) tokenOf(w *workspace) string {
	if w == a.ws.single {
		return a.cfg.BotToken
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.inst.BotToken
}
