package slack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/store"
)

// router is the part that turns what Slack sends (events over Socket
// Mode or HTTP, slash commands, shortcuts and buttons) into requests of
// the core, and acknowledges them once stored. It needs of the adapter
// only what routerServices says.
type router struct {
	svc   routerServices
	core  bot.Core
	cfg   Config
	log   *slog.Logger
	ws    *workspaces
	convo *conversations
	acks  bot.AckObserver // nil if the core does not record ack latency
}

// routerServices is what the router needs of the adapter: who asks and
// where, the bot's own user, a note to the asker, a reaction's request.
type routerServices interface {
	lookupAsker(ctx context.Context, w *workspace, user string) func(*store.Request)
	visibility(ctx context.Context, w *workspace, channel string, hint store.Visibility) store.Visibility
	botUserOf(w *workspace) string
	Notify(ctx context.Context, r *store.Request, text string) error
	reactionRequest(ctx context.Context, w *workspace, team, enterprise string, e *slackevents.ReactionAddedEvent) *store.Request
}

// CallbackShortcut is the message shortcut's callback id (see the manifest).
const CallbackShortcut = "factcheck_message"

var (
	reMention = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<@([UW][A-Z0-9]+)(?:\|[^>]*)?>`) })
	reChannel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<#[A-Z0-9]+\|([^>]*)>`) })
	reSpecial = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<!([a-z]+)(?:\^[^|>]*)?(?:\|[^>]*)?>`) })
	reLink    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>`) })
	unescaper = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&")
)

// plainText turns Slack message markup into the plain text a user meant:
// the bot's own mention removed, other mentions and links spelt out,
// entities decoded.
func plainText(s, botUser string) string {
	s = reMention().ReplaceAllStringFunc(s, func(m string) string {
		id := reMention().FindStringSubmatch(m)[1]
		if id == botUser {
			return ""
		}
		return "@" + id
	})
	s = reChannel().ReplaceAllString(s, "#$1")
	s = reSpecial().ReplaceAllString(s, "@$1")
	s = reLink().ReplaceAllStringFunc(s, func(m string) string {
		g := reLink().FindStringSubmatch(m)
		if g[2] == "" || g[2] == g[1] || "http://"+g[2] == g[1] || "https://"+g[2] == g[1] {
			return g[1]
		}
		return g[2] + " (" + g[1] + ")"
	})
	return strings.TrimSpace(unescaper.Replace(s))
}

// messageText is the plain text of a message the user asked about. A
// message that is only a link becomes its URL, whatever its label, so that
// the core and the engine see a link and never Slack's <url|label> markup.
func messageText(s, botUser string) string {
	t := strings.TrimSpace(reMention().ReplaceAllStringFunc(s, func(m string) string {
		if reMention().FindStringSubmatch(m)[1] == botUser {
			return ""
		}
		return m
	}))
	if g := reLink().FindStringSubmatch(t); g != nil && g[0] == t {
		return unescaper.Replace(g[1])
	}
	return plainText(s, botUser)
}

// handleEvent translates an Events API event. It returns an error only when
// the request could not be stored (the event must not be acknowledged).
func (rt *router) handleEvent(ctx context.Context, ev slackevents.EventsAPIEvent) error {
	cb, ok := ev.Data.(*slackevents.EventsAPICallbackEvent)
	if !ok {
		return nil
	}
	team := firstNonEmpty(cb.TeamID, ev.TeamID)
	enterprise := firstNonEmpty(cb.EnterpriseID, ev.EnterpriseID)
	switch e := ev.InnerEvent.Data.(type) {
	case *slackevents.AppUninstalledEvent:
		return rt.ws.uninstall(ctx, team, enterprise, "app uninstalled")
	case *slackevents.TokensRevokedEvent:
		if len(e.Tokens.Bot) == 0 {
			return nil // only user tokens, which factbot does not keep
		}
		return rt.ws.uninstall(ctx, team, enterprise, "bot token revoked")
	}
	w, err := rt.eventWorkspace(ctx, team, enterprise)
	if w == nil {
		return err
	}
	if ok, err := rt.convo.assistantEvent(ctx, w, team, enterprise, cb, ev.InnerEvent.Data); ok {
		return err
	}
	if e, ok := ev.InnerEvent.Data.(*slackevents.ReactionAddedEvent); ok {
		if r := rt.svc.reactionRequest(ctx, w, team, enterprise, e); r != nil {
			_, err = rt.core.Submit(ctx, r)
		}
		return err
	}
	m, ok := ev.InnerEvent.Data.(*slackevents.AppMentionEvent)
	if !ok {
		return nil
	}
	botUser := rt.svc.botUserOf(w)
	if m.BotID != "" || m.User == "" || m.User == botUser {
		return nil // our own or another bot's message
	}
	thread := m.ThreadTimeStamp
	if thread == "" {
		thread = m.TimeStamp
	}
	text := messageText(m.Text, botUser)
	setAsker := rt.svc.lookupAsker(ctx, w, m.User)
	r := &store.Request{
		Key: "slack:event:" + cb.EventID, Tenant: team, Platform: Name,
		Kind: bot.KindMention, Channel: m.Channel, Thread: thread, User: m.User,
		Text: text,
		// app_mention carries no channel_type: D-ids are DMs, the rest is
		// asked of conversations.info.
		Visibility: rt.svc.visibility(ctx, w, m.Channel, store.VisibilityUnknown),
		Meta:       withMessage(rt.ws.meta(enterprise, team, m.User), messageOf(m, text)),
	}
	setAsker(r)
	_, err = rt.core.Submit(ctx, r)
	return err
}

// eventWorkspace is the workspace an event comes from. It returns a nil
// workspace for an event to ignore (the workspace is not installed: nil
// error) or to refuse (the store failed: its error).
func (rt *router) eventWorkspace(ctx context.Context, team, enterprise string) (*workspace, error) {
	w, err := rt.ws.get(ctx, team, enterprise)
	if errors.Is(err, errNotInstalled) {
		rt.log.Debug("slack: event of a workspace not installed; ignored", "team", team, "enterprise", enterprise)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return w, nil
}

// meta is a new request's Meta: the person, and in multi-workspace mode
// the organisation, to find an org-wide install when answering.
func (ws *workspaces) meta(enterprise, team, user string) map[string]string {
	m := map[string]string{bot.MetaPerson: person(enterprise, team, user)}
	if ws.multi() && enterprise != "" {
		m[metaEnterprise] = enterprise
	}
	return m
}

// person names a Slack user for the per-person limits: user ids are per
// workspace, except in an Enterprise Grid organisation, where one id is
// the person in every workspace of the organisation.
func person(enterprise, team, user string) string {
	return firstNonEmpty(enterprise, team) + ":" + user
}

func ephemeral(text string) map[string]any {
	return map[string]any{"response_type": "ephemeral", "text": text}
}

// handleCommand translates /factcheck. It returns the acknowledgement's
// payload.
func (rt *router) handleCommand(ctx context.Context, c slack.SlashCommand) (any, error) {
	w, err := rt.eventWorkspace(ctx, c.TeamID, c.EnterpriseID)
	if w == nil {
		return nil, err
	}
	text := plainText(c.Text, "")
	word, rest, _ := strings.Cut(text, " ")
	switch strings.ToLower(word) {
	case "", "help", "history":
		r := &store.Request{}
		rt.svc.lookupAsker(ctx, w, c.UserID)(r)
		l := bot.RequestLang(r, "", "")
		if strings.EqualFold(word, "history") {
			return rt.history(ctx, c.TeamID, c.UserID, c.ChannelID, rest, l), nil
		}
		return ephemeral(l.SlackHelp(rt.cfg.Command)), nil
	}
	setAsker := rt.svc.lookupAsker(ctx, w, c.UserID)
	r := &store.Request{
		Key: "slack:command:" + firstNonEmpty(c.TriggerID, c.ChannelID+":"+c.UserID+":"+c.Text), Tenant: c.TeamID,
		Platform: Name, Kind: bot.KindCommand, Channel: c.ChannelID, User: c.UserID, Text: text,
		Visibility: rt.svc.visibility(ctx, w, c.ChannelID, visibilityOfName(c.ChannelID, c.ChannelName)),
		Meta:       rt.ws.meta(c.EnterpriseID, c.TeamID, c.UserID),
	}
	if strings.EqualFold(word, "private") {
		r.Private, r.Text = true, strings.TrimSpace(rest)
	}
	if c.ResponseURL != "" {
		r.Meta[metaResponseURL] = c.ResponseURL
	}
	if c.UserName != "" { // users.info's display name replaces it when it has one
		r.Meta[bot.MetaUserName] = c.UserName
	}
	setAsker(r)
	res, err := rt.core.Submit(ctx, r)
	l := bot.RequestLang(r, "", r.Text)
	if err != nil {
		return ephemeral(l.UserMessage(err)), err // shown over HTTP; Socket Mode has Slack deliver it again
	}
	switch res.Status {
	case bot.Accepted:
		if r.Private {
			return ephemeral(l.AckPrivate()), nil
		}
		return ephemeral(l.AckChannel()), nil
	}
	return nil, nil // duplicates: nothing; refusals: the core notifies
}

// history is the ephemeral answer to "history": the lines, and an "Open
// history" link when the web view is on.
func (rt *router) history(ctx context.Context, tenant, viewer, channel, args string, l bot.Lang) map[string]any {
	q, err := bot.ParseHistoryArgs(args)
	if err != nil {
		return ephemeral(l.UserMessage(err))
	}
	h, err := rt.core.History(ctx, tenant, viewer, channel, q)
	if err != nil {
		return ephemeral(l.UserMessage(err))
	}
	h.Lang = l
	return historyReply(h)
}

// handleInteraction translates shortcuts and buttons. It returns the
// acknowledgement's payload (nil for an empty ack).
func (rt *router) handleInteraction(ctx context.Context, cb slack.InteractionCallback) (any, error) {
	w, err := rt.eventWorkspace(ctx, cb.Team.ID, cb.Enterprise.ID)
	if w == nil {
		return nil, err
	}
	switch cb.Type {
	case slack.InteractionTypeMessageAction:
		if cb.CallbackID != CallbackShortcut {
			return nil, nil
		}
		thread := firstNonEmpty(cb.Message.ThreadTimestamp, cb.Message.Timestamp, cb.MessageTs)
		setAsker := rt.svc.lookupAsker(ctx, w, cb.User.ID)
		r := &store.Request{
			Key: "slack:shortcut:" + cb.TriggerID, Tenant: cb.Team.ID, Platform: Name, Kind: bot.KindShortcut,
			Channel: cb.Channel.ID, Thread: thread, User: cb.User.ID, Text: messageText(cb.Message.Text, rt.svc.botUserOf(w)),
			Visibility: rt.svc.visibility(ctx, w, cb.Channel.ID, visibilityOfName(cb.Channel.ID, cb.Channel.Name)),
			Meta:       rt.ws.meta(cb.Enterprise.ID, cb.Team.ID, cb.User.ID),
		}
		if len(cb.Message.Files) > 0 {
			r.Meta[bot.MetaMessage] = firstNonEmpty(cb.Message.Timestamp, cb.MessageTs)
		}
		if cb.ResponseURL != "" {
			r.Meta[metaResponseURL] = cb.ResponseURL
		}
		if cb.User.Name != "" { // users.info's display name replaces it when it has one
			r.Meta[bot.MetaUserName] = cb.User.Name
		}
		setAsker(r)
		_, err := rt.core.Submit(ctx, r)
		return nil, err
	case slack.InteractionTypeBlockActions:
		for _, act := range cb.ActionCallback.BlockActions {
			if err := rt.handleAction(ctx, w, cb, act); err != nil {
				return nil, err
			}
		}
	}
	return nil, nil
}

// buttonVisibility is what a button's payload tells of its conversation:
// its channel's name counts only when it names the same channel.
func buttonVisibility(cb slack.InteractionCallback, channel string) store.Visibility {
	if cb.Channel.ID != "" && cb.Channel.ID != channel {
		return visibilityOfName(channel, "")
	}
	return visibilityOfName(channel, cb.Channel.Name)
}

func (rt *router) handleAction(ctx context.Context, w *workspace, cb slack.InteractionCallback, act *slack.BlockAction) error {
	channel := firstNonEmpty(cb.Container.ChannelID, cb.Channel.ID)
	thread := firstNonEmpty(cb.Container.ThreadTs, cb.Message.ThreadTimestamp, cb.Container.MessageTs)
	r := &store.Request{
		Key: "slack:action:" + firstNonEmpty(cb.TriggerID, act.ActionTs+":"+cb.User.ID), Tenant: cb.Team.ID,
		Platform: Name, Channel: channel, Thread: thread, User: cb.User.ID,
		Private: cb.Container.IsEphemeral, Meta: rt.ws.meta(cb.Enterprise.ID, cb.Team.ID, cb.User.ID),
	}
	if cb.ResponseURL != "" {
		r.Meta[metaResponseURL] = cb.ResponseURL
	}
	switch act.ActionID {
	case bot.ActionRecheck:
		r.Kind = bot.KindRecheck
		r.Meta[bot.MetaCheckID] = act.Value
		setAsker := rt.svc.lookupAsker(ctx, w, cb.User.ID)
		r.Visibility = rt.svc.visibility(ctx, w, channel, buttonVisibility(cb, channel))
		setAsker(r)
		_, err := rt.core.Submit(ctx, r)
		return err
	case bot.ActionReport, actionOpenHistory:
		// Link buttons: Slack opens the page and tells of the click too;
		// there is nothing to do.
	case bot.ActionWrong, actionFeedback:
		rt.feedback(ctx, w, r, act)
	}
	return nil
}

// ---- Socket Mode ----

// Run connects with Socket Mode when an app token is configured and
// handles events until ctx ends. Without an app token (HTTP mode) it only
// initialises and waits for ctx.
func (a *Adapter) Run(ctx context.Context) error {
	defer a.convo.stopStreams()
	if err := a.Init(ctx); err != nil {
		a.conn.Down(err)
		if ctx.Err() != nil {
			return nil // stopped while starting
		}
		return err
	}
	if a.cfg.AppToken == "" || a.client == nil {
		a.conn.Up() // HTTP mode: Slack connects to us
		<-ctx.Done()
		return nil
	}
	sm := socketmode.New(a.client)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- sm.RunContext(ctx) }()
	// Envelopes are handled concurrently (up to maxConcurrentAcks at once)
	// so that the requests of a burst are stored in shared commits (the
	// store's group commit) instead of one fsync after another.
	sem := make(chan struct{}, maxConcurrentAcks)
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-errc:
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("slack: socket mode: %w", err)
		case evt := <-sm.Events:
			t0 := time.Now() // the decoded event is in hand
			a.noteConnection(evt.Type)
			if bad, ok := evt.Data.(*socketmode.ErrorBadMessage); ok && evt.Type == socketmode.EventTypeErrorBadMessage {
				sem <- struct{}{}
				go func() {
					defer func() { <-sem }()
					a.router.handleUnparsedEnvelope(ctx, sm, bad.Message)
				}()
				continue
			}
			if evt.Request == nil || evt.Request.EnvelopeID == "" {
				if evt.Type == socketmode.EventTypeInvalidAuth {
					return errors.New("slack: socket mode: invalid auth (check SLACK_APP_TOKEN, xapp-…, with connections:write)")
				}
				continue
			}
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				a.router.handleSocket(ctx, sm, evt, t0)
			}()
		}
	}
}

// maxConcurrentAcks bounds the Socket Mode envelopes handled at once.
const maxConcurrentAcks = 128

// handleSocket stores the envelope's request and acknowledges it; t0 is
// when the adapter received the decoded envelope (for factbot_ack_seconds).
func (rt *router) handleSocket(ctx context.Context, sm *socketmode.Client, evt socketmode.Event, t0 time.Time) {
	var payload any
	var err error
	switch evt.Type {
	case socketmode.EventTypeEventsAPI:
		ev, ok := evt.Data.(slackevents.EventsAPIEvent)
		if ok {
			err = rt.handleEvent(ctx, ev)
		}
	case socketmode.EventTypeSlashCommand:
		c, ok := evt.Data.(slack.SlashCommand)
		if ok {
			payload, err = rt.handleCommand(ctx, c)
		}
	case socketmode.EventTypeInteractive:
		cb, ok := evt.Data.(slack.InteractionCallback)
		if ok {
			payload, err = rt.handleInteraction(ctx, cb)
		}
	default:
		return
	}
	if err != nil {
		// Not stored: no ack, so Slack delivers it again.
		rt.log.Error("slack: request not stored; not acknowledged", "envelope", evt.Request.EnvelopeID, "err", err)
		return
	}
	if payload != nil {
		err = sm.AckCtx(ctx, evt.Request.EnvelopeID, payload)
	} else {
		err = sm.AckCtx(ctx, evt.Request.EnvelopeID, nil)
	}
	if err != nil {
		if ctx.Err() == nil {
			rt.log.Warn("slack: ack", "envelope", evt.Request.EnvelopeID, "err", err)
		}
		return
	}
	rt.observeAck(t0)
}
