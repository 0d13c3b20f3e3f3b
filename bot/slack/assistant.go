package slack

import (
	"context"
	"errors"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// Slack's assistant (Agents & AI Apps): the split view where a person
// talks to factbot beside any channel (features.assistant_view), or, for
// apps created since mid-2026, its agent messaging experience in the
// Messages tab (features.agent_view, agent.go). assistant_thread_started
// and assistant_thread_context_changed get suggested prompts; a DM (in an
// assistant thread, or top-level in the Messages tab, or a reply in its
// thread) is a request like a mention, answered in its thread with a
// status line while it runs and a streamed message (see stream.go) ending
// with Slack's feedback buttons.

// Meta keys of an assistant request.
const (
	// metaAssistant marks a request asked in a DM: assistantThread in a
	// thread (the assistant's, or a reply in the Messages tab), assistantTop
	// top-level (answered in its own thread).
	metaAssistant   = "slack_assistant"
	assistantThread = "1"
	assistantTop    = "dm"
)

// latestPrefix, then a channel id, is the bot.MetaMessage of the prompt
// "check the message I'm looking at": the latest message people posted in
// that channel, read when the request runs (and again by "Check again").
const latestPrefix = "latest:"

// The feedback buttons: their action id, the values of their buttons
// (followed by the check id), and the Once of a thumbs-down's note.
const (
	actionFeedback = "factbot_feedback"
	feedbackGood   = "good:"
	feedbackWrong  = "wrong:"
	onceThumbsDown = "slack_feedback_buttons"
)

var reChannelRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<#([CG][A-Z0-9]+)(?:\|[^>]*)?>`) })

func isAssistant(r *store.Request) bool { return r.Meta[metaAssistant] != "" }

// conversations is the part that talks with people in their DMs with
// factbot (the assistant's threads, the agent's Messages tab): the
// suggested prompts, a DM as a request, its status line, its streamed
// answer (stream.go), and the loading state of channel threads
// (loading.go). It needs of the adapter only what services says.
type conversations struct {
	svc  services
	core bot.Core
	cfg  Config
	log  *slog.Logger
	ws   *workspaces

	mu      sync.Mutex
	streams map[string]*stream // the answers being streamed, by reply
	viewers viewers            // the agent experience's people (agent.go)
}

// services is what the conversations need of the adapter: paced Web API
// calls, who asks and where, the bot's own user, a note to the asker.
type services interface {
	call(ctx context.Context, team, channel string, fn func(ctx context.Context) error) error
	lookupAsker(ctx context.Context, w *workspace, user string) func(*store.Request)
	visibility(ctx context.Context, w *workspace, channel string, hint store.Visibility) store.Visibility
	botUserOf(w *workspace) string
	Notify(ctx context.Context, r *store.Request, text string) error
}

// assistantEvent handles the assistant's and the agent's events; false for
// any other event.
func (cv *conversations) assistantEvent(ctx context.Context, w *workspace, team, enterprise string, cb *slackevents.EventsAPICallbackEvent, data any) (bool, error) {
	if cv.agentEvent(w, team, cb, data) {
		return true, nil
	}
	eventID := cb.EventID
	switch e := data.(type) {
	case *slackevents.AssistantThreadStartedEvent:
		cv.suggestLater(w, team, threadTarget(e.AssistantThread))
	case *slackevents.AssistantThreadContextChangedEvent:
		cv.suggestLater(w, team, threadTarget(e.AssistantThread)) // the prompt names the channel now in view
	case *slackevents.MessageEvent:
		if r := cv.assistantRequest(ctx, w, team, enterprise, eventID, e); r != nil {
			_, err := cv.core.Submit(ctx, r)
			return true, err
		}
	default:
		return false, nil
	}
	return true, nil
}

// assistantRequest is the request of a person's DM to factbot: in an
// assistant thread, top-level (the agent experience's Messages tab:
// answered in its own thread) or a reply in such a thread; nil for any
// other message (in a channel, an edit, a deletion, a bot's).
func (cv *conversations) assistantRequest(ctx context.Context, w *workspace, team, enterprise, eventID string, e *slackevents.MessageEvent) *store.Request {
	botUser := cv.svc.botUserOf(w)
	if !e.IsIM() || e.TimeStamp == "" || (e.SubType != "" && e.SubType != "file_share") ||
		e.BotID != "" || e.User == "" || e.User == botUser {
		return nil
	}
	text := messageText(e.Text, botUser)
	setAsker := cv.svc.lookupAsker(ctx, w, e.User)
	thread, where := e.ThreadTimeStamp, assistantThread
	if thread == "" {
		thread, where = e.TimeStamp, assistantTop
	}
	r := &store.Request{
		Key: "slack:event:" + eventID, Tenant: team, Platform: Name, Kind: bot.KindMention,
		Channel: e.Channel, Thread: thread, User: e.User, Text: text,
		Visibility: cv.svc.visibility(ctx, w, e.Channel, store.VisibilityDM),
		Meta:       cv.ws.meta(enterprise, team, e.User),
	}
	r.Meta[metaAssistant] = where
	if e.Message != nil && len(e.Message.Files) > 0 {
		r.Meta[bot.MetaMessage] = e.TimeStamp
	}
	setAsker(r)
	if ch := cv.lookPrompt(r, e.Text); ch != "" { // the prompt "check the message I'm looking at"
		r.Text, r.Meta[bot.MetaMessage] = "", latestPrefix+ch
	}
	return r
}

// lookPrompt is the channel of the prompt "Check the latest message in
// #channel" when text is that prompt in the asker's language or English.
func (cv *conversations) lookPrompt(r *store.Request, text string) string {
	g := reChannelRef().FindStringSubmatch(text)
	if g == nil {
		return ""
	}
	ref := "<#" + g[1] + ">"
	norm := strings.TrimSpace(strings.Replace(text, g[0], ref, 1))
	for _, l := range []bot.Lang{bot.RequestLang(r, "", ""), bot.LangFor("en")} {
		if norm == l.Text(words.PromptLookMessage, map[string]any{"Channel": ref}) {
			return g[1]
		}
	}
	return ""
}

// promptTarget is where suggested prompts go and for whom: an assistant
// thread (thread set), or a DM in the agent experience (thread "": an
// agent app's prompts are the channel's).
type promptTarget struct{ channel, thread, user, viewing string }

func threadTarget(t slackevents.AssistantThread) promptTarget {
	return promptTarget{channel: t.ChannelID, thread: t.ThreadTimeStamp, user: t.UserID, viewing: t.Context.ChannelID}
}

// suggestLater sets the suggested prompts after the ack.
func (cv *conversations) suggestLater(w *workspace, team string, t promptTarget) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := cv.suggest(ctx, w, team, t); err != nil {
			cv.log.Warn("slack: assistant.threads.setSuggestedPrompts", "err", err)
		}
	}()
}

// suggest sets the prompts of an assistant thread or an agent's DM, in its
// person's language: check a claim (an example) and, when they are viewing
// a channel, check its latest message.
func (cv *conversations) suggest(ctx context.Context, w *workspace, team string, t promptTarget) error {
	if t.channel == "" {
		return nil
	}
	r := &store.Request{}
	cv.svc.lookupAsker(ctx, w, t.user)(r)
	l := bot.RequestLang(r, "", "")
	p := slack.AssistantThreadsSetSuggestedPromptsParameters{Title: l.Text(words.AssistantPrompts, nil), ChannelID: t.channel, ThreadTS: t.thread}
	p.AddPrompt(l.Text(words.PromptClaimTitle, nil), l.Text(words.PromptClaimMessage, nil))
	if ch := promptChannel(t.viewing); ch != "" {
		p.AddPrompt(l.Text(words.PromptLookTitle, nil), l.Text(words.PromptLookMessage, map[string]any{"Channel": "<#" + ch + ">"}))
	}
	api := w.client()
	return cv.svc.call(ctx, team, t.channel, func(ctx context.Context) error {
		return api.SetAssistantThreadsSuggestedPromptsContext(ctx, p)
	})
}

// setStatus sets (or with "" clears) an assistant thread's status line;
// a failure is only logged.
func (cv *conversations) setStatus(ctx context.Context, api API, r *store.Request, status string, loading []string) {
	err := cv.svc.call(ctx, r.Tenant, r.Channel, func(ctx context.Context) error {
		return api.SetAssistantThreadsStatusContext(ctx, slack.AssistantThreadsSetStatusParameters{
			ChannelID: r.Channel, ThreadTS: r.Thread, Status: status, LoadingMessages: loading})
	})
	if err != nil && ctx.Err() == nil {
		cv.log.Debug("slack: assistant.threads.setStatus", "key", r.Key, "err", err)
	}
}

// postAssistant answers an assistant request: the placeholder names the
// thread after the claim, shows the status line and opens the stream the
// check's progress goes to (Track); a final message without a stream (an
// answer from before a restart) is posted whole.
func (cv *conversations) postAssistant(ctx context.Context, r *store.Request, m *bot.Message) (string, error) {
	w, err := cv.ws.of(ctx, r)
	if err != nil {
		return "", err
	}
	api := w.client()
	if m.Final {
		return cv.postAssistantFinal(ctx, api, r, m)
	}
	l := m.Lang
	// An assistant thread is named after its claim; a top-level DM's
	// thread is the person's own message, which names it already.
	if t := strings.TrimSpace(r.Text); t != "" && r.Meta[metaAssistant] != assistantTop {
		err := cv.svc.call(ctx, r.Tenant, r.Channel, func(ctx context.Context) error {
			return api.SetAssistantThreadsTitleContext(ctx, slack.AssistantThreadsSetTitleParameters{
				ChannelID: r.Channel, ThreadTS: r.Thread, Title: cut(bot.InertMentions(t), 100)})
		})
		if err != nil {
			cv.log.Debug("slack: assistant.threads.setTitle", "key", r.Key, "err", err)
		}
	}
	cv.setStatus(ctx, api, r, l.Text(words.StatusChecking, nil), []string{
		l.Text(words.LoadingClaims, nil), l.Text(words.LoadingSources, nil), l.Text(words.LoadingWeighing, nil)})
	reply := streamPrefix + r.Key
	s := cv.newStream(api, r, l)
	cv.mu.Lock()
	if cv.streams == nil {
		cv.streams = map[string]*stream{}
	}
	if old := cv.streams[reply]; old != nil {
		old.cancel()
	}
	cv.streams[reply] = s
	cv.mu.Unlock()
	return reply, nil
}

// postAssistantFinal posts m in the thread, with the feedback buttons.
func (cv *conversations) postAssistantFinal(ctx context.Context, api API, r *store.Request, m *bot.Message) (string, error) {
	blocks, text := Render(assistantMessage(m))
	if m.CheckID != "" {
		blocks = append(blocks, feedbackBlock(m.Lang, m.CheckID))
	}
	var ts string
	err := cv.svc.call(ctx, r.Tenant, r.Channel, func(ctx context.Context) error {
		var err error
		_, ts, err = api.PostMessageContext(ctx, r.Channel, slack.MsgOptionText(text, false), slack.MsgOptionBlocks(blocks...), slack.MsgOptionTS(r.Thread))
		return err
	})
	if err != nil {
		return "", err
	}
	cv.setStatus(ctx, api, r, "", nil)
	return ts, nil
}

// Track implements bot.Tracker: the progress of an assistant request's
// check goes to its stream.
func (a *Adapter) Track(r *store.Request, reply string, e factcheck.Event) {
	if s := a.convo.stream(reply); s != nil {
		s.track(e)
	}
}

func (cv *conversations) stream(reply string) *stream {
	cv.mu.Lock()
	defer cv.mu.Unlock()
	return cv.streams[reply]
}

// updateAssistant ends the stream with the final message; progress goes
// through Track, so other updates do nothing. Without the stream (lost in
// a restart) it fails, and the core posts the answer anew.
func (cv *conversations) updateAssistant(ctx context.Context, r *store.Request, reply string, m *bot.Message) error {
	if !m.Final {
		return nil
	}
	s := cv.stream(reply)
	if s == nil {
		return errStreamGone
	}
	err := s.finish(ctx, m)
	if err == nil || errors.Is(err, bot.ErrReplyGone) {
		cv.mu.Lock()
		delete(cv.streams, reply)
		cv.mu.Unlock()
	}
	// Else (an append or the stop that failed: a timeout, no turn) the
	// stream stays, and the core's next attempt finishes it: the report is
	// never posted beside a stream already begun.
	return err
}

// stopStreams stops the streams' loops (the adapter stops): their
// checks are resumed after a restart, their reports posted anew.
func (cv *conversations) stopStreams() {
	cv.mu.Lock()
	defer cv.mu.Unlock()
	for _, s := range cv.streams {
		s.cancel()
	}
}

type streamError string

func (e streamError) Error() string { return string(e) }

const errStreamGone = streamError("slack: the assistant's stream is gone (restarted)")

// notifyAssistant shows a note in the assistant thread: a message there
// (the thread is the asker's own).
func (cv *conversations) notifyAssistant(ctx context.Context, r *store.Request, text string) error {
	w, err := cv.ws.of(ctx, r)
	if err != nil {
		return err
	}
	m := &bot.Message{Final: true, Title: text}
	_, err = cv.postAssistantFinal(ctx, w.client(), r, m)
	return err
}

// assistantMessage is m without its "Wrong verdict?" button, which the
// feedback buttons replace.
func assistantMessage(m *bot.Message) *bot.Message {
	c := *m
	c.Actions = nil
	for _, act := range m.Actions {
		if act.ID != bot.ActionWrong {
			c.Actions = append(c.Actions, act)
		}
	}
	return &c
}

// feedbackBlock is Slack's feedback buttons (thumbs up, thumbs down) for
// the check checkID.
func feedbackBlock(l bot.Lang, checkID string) slack.Block {
	good := slack.NewFeedbackButton(slack.NewTextBlockObject(slack.PlainTextType, l.Text(words.FeedbackGood, nil), false, false), feedbackGood+checkID).
		WithAccessibilityLabel(l.Text(words.FeedbackGood, nil))
	bad := slack.NewFeedbackButton(slack.NewTextBlockObject(slack.PlainTextType, l.Text(words.FeedbackBad, nil), false, false), feedbackWrong+checkID).
		WithAccessibilityLabel(l.Text(words.FeedbackBad, nil))
	return slack.NewContextActionsBlock("factbot_feedback_"+checkID, slack.NewFeedbackButtonsBlockElement(actionFeedback, good, bad))
}

// feedback records a "Wrong verdict?" click, or a press of the
// assistant's feedback buttons: a thumbs-down is recorded the same way,
// once (Feedback.Once) however often it is pressed; a thumbs-up records
// nothing. The thank-you is shown to the asker after the ack.
func (rt *router) feedback(ctx context.Context, w *workspace, r *store.Request, act *slack.BlockAction) {
	f, id := store.Feedback{User: r.User, Claim: -1}, act.Value
	if act.ActionID == actionFeedback {
		var wrong bool
		if id, wrong = feedbackPressed(act.Value); !wrong {
			return
		}
		f.Once = onceThumbsDown
	}
	rt.svc.lookupAsker(ctx, w, r.User)(r) // the thank-you in the asker's language
	by := bot.Person{Platform: Name, ID: r.Meta[bot.MetaPerson], Locale: r.Meta[bot.MetaLocale]}
	note, err := rt.core.Feedback(ctx, r.Tenant, r.Channel, id, by, f)
	if err != nil {
		note = bot.LangFor(by.Locale).UserMessage(err)
	}
	go func() { // after the ack
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := rt.svc.Notify(ctx, r, note); err != nil {
			rt.log.Warn("slack: feedback note", "err", err)
		}
	}()
}

// feedbackPressed is a press of the feedback buttons: a thumbs-down is a
// "Wrong verdict?" recorded once (Feedback.Once), however often pressed;
// a thumbs-up records nothing.
func feedbackPressed(value string) (checkID string, wrong bool) {
	if id, ok := strings.CutPrefix(value, feedbackWrong); ok {
		return id, true
	}
	return "", false
}
