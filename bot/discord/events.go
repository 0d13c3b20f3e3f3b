package discord

import (
	"context"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/store"
)

// ack tracks an interaction's acknowledgement so that answers wait for it.
type ack struct {
	done     chan struct{}
	ok       bool // a (deferred) response exists: @original can be edited
	notified bool // the refusal was shown in the acknowledgement itself
}

// logEvent ends the handling of every gateway or HTTP event with one debug
// line saying what became of it.
func logEvent(log *slog.Logger, key, outcome string) {
	log.Debug("event handled", "key", key, "outcome", outcome)
}

// ---- messages (mentions) ----

func (a *Adapter) onMessageCreate(_ *discordgo.Session, m *discordgo.MessageCreate) {
	key := "discord:message:" + m.ID
	r := a.mentionRequest(m.Message)
	if r == nil {
		logEvent(a.log, key, "ignored")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r.Visibility = a.chans.messageVisibility(ctx, m.Message)
	a.aboutMessage(ctx, m.Message, r)
	res, err := a.core.Submit(ctx, r)
	if err != nil {
		a.log.Error("store mention", "key", key, "err", err)
		logEvent(a.log, key, "not stored")
		return
	}
	logEvent(a.log, key, res.Status.String())
}

// mentionRequest turns a message into a request if it mentions the bot (or
// is a direct message), and is not from a bot.
func (a *Adapter) mentionRequest(m *discordgo.Message) *store.Request {
	if m == nil || m.Author == nil || m.Author.Bot || m.Author.System || m.WebhookID != "" {
		return nil
	}
	self := a.self()
	if self == "" || m.Author.ID == self {
		return nil
	}
	mention1, mention2 := "<@"+self+">", "<@!"+self+">"
	dm := m.GuildID == ""
	if !dm && !strings.Contains(m.Content, mention1) && !strings.Contains(m.Content, mention2) {
		return nil // a reply ping or a role mention is not a request
	}
	text := withoutMention(m.Content, self)
	// "@factbot" alone in reply to a message checks that message.
	if text == "" && m.ReferencedMessage != nil {
		text = m.ReferencedMessage.Content
	}
	return &store.Request{
		Key: "discord:message:" + m.ID, Tenant: tenant(m.GuildID, m.Author.ID), Platform: Name,
		Kind: bot.KindMention, Channel: m.ChannelID, Thread: m.ID, Link: messageLink(m.GuildID, m.ChannelID, m.ID),
		User: m.Author.ID, Text: messageText(text),
		// Discord user ids are global: one person, one limit, in every server.
		Meta: map[string]string{metaGuild: m.GuildID, bot.MetaPerson: m.Author.ID},
	}
}

// withoutMention is a message's text without the bot's mentions.
func withoutMention(content, self string) string {
	return strings.TrimSpace(strings.NewReplacer("<@"+self+">", " ", "<@!"+self+">", " ").Replace(content))
}

// reBareLink is a link written <https://…> (no preview in Discord).
var reBareLink = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^<(https?://[^\s<>]+)>$`) })

// messageText is the text a user asked about: a message that is only a
// link written <https://…> becomes the plain URL, so the core and the
// engine never see Discord's markup.
func messageText(s string) string {
	s = strings.TrimSpace(s)
	if g := reBareLink().FindStringSubmatch(s); g != nil {
		return g[1]
	}
	return s
}

func tenant(guildID, userID string) string {
	if guildID != "" {
		return guildID
	}
	return "dm:" + userID
}

func messageLink(guildID, channelID, messageID string) string {
	g := guildID
	if g == "" {
		g = "@me"
	}
	return "https://discord.com/channels/" + g + "/" + channelID + "/" + messageID
}

// ---- interactions ----

// interactions is the part that answers interactions, from the gateway or
// over HTTP: application commands, buttons and the feedback form become
// requests of the core, acknowledged once stored.
type interactions struct {
	cfg     Config
	core    bot.Core
	log     *slog.Logger
	chans   *channels // where an interaction comes from (visibility.go)
	acks    *ackTable
	appID   func() string      // the application's id, when the interaction has none
	observe func(t0 time.Time) // one acknowledgement's latency
}

// responder sends the interaction response: a REST callback for gateway
// interactions, the HTTP response body for HTTP ones.
type responder func(*discordgo.InteractionResponse) error

func (a *Adapter) onInteractionCreate(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	i := ic.Interaction
	a.ix.handle(context.Background(), i, func(resp *discordgo.InteractionResponse) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		select {
		case a.callbacks <- struct{}{}:
			defer func() { <-a.callbacks }()
		case <-ctx.Done():
			return ctx.Err()
		}
		return a.rest.do(ctx, func(o ...discordgo.RequestOption) error {
			return a.s.InteractionRespond(i, resp, o...)
		})
	})
}

func interactionUser(i *discordgo.Interaction) *discordgo.User {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User
	}
	if i.User != nil {
		return i.User
	}
	return &discordgo.User{}
}

// handle answers one interaction.
func (x *interactions) handle(ctx context.Context, i *discordgo.Interaction, respond responder) {
	outcome := "ignored"
	switch {
	case interactionUser(i).Bot:
	case i.Type == discordgo.InteractionPing:
		respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		outcome = "pong"
	case i.Type == discordgo.InteractionApplicationCommand:
		outcome = x.command(ctx, i, respond)
	case i.Type == discordgo.InteractionMessageComponent:
		outcome = x.component(ctx, i, respond)
	case i.Type == discordgo.InteractionModalSubmit:
		outcome = x.feedback(ctx, i, respond)
	}
	logEvent(x.log, "discord:interaction:"+i.ID, outcome)
}

// command translates the application commands.
func (x *interactions) command(ctx context.Context, i *discordgo.Interaction, respond responder) string {
	d := i.ApplicationCommandData()
	switch d.Name {
	case CommandFactcheck:
		r := &store.Request{Kind: bot.KindCommand}
		for _, o := range d.Options {
			switch o.Name {
			case "text":
				r.Text = o.StringValue()
			case "private":
				r.Private = o.BoolValue()
			}
		}
		return x.submit(ctx, i, r, respond)
	case CommandHistory:
		return x.history(ctx, i, d, respond)
	case CommandMessage:
		r := &store.Request{Kind: bot.KindShortcut, Thread: d.TargetID, Link: messageLink(i.GuildID, i.ChannelID, d.TargetID)}
		if d.Resolved != nil {
			if target := d.Resolved.Messages[d.TargetID]; target != nil {
				r.Text = messageText(target.Content)
				switch {
				case len(target.Attachments) == 0:
				case interactionOnly(i): // read as the interaction carries it, not over REST
					r.Meta = map[string]string{bot.MetaMessage: carriedMessage(target)}
				default:
					r.Meta = map[string]string{bot.MetaMessage: messageRef(i.ChannelID, target.ID)}
				}
			}
		}
		return x.submit(ctx, i, r, respond)
	}
	respondEphemeral(respond, bot.LangFor(string(i.Locale)).UnknownCommand())
	return "unknown command"
}

// component translates the report's buttons.
func (x *interactions) component(ctx context.Context, i *discordgo.Interaction, respond responder) string {
	action, checkID, _ := strings.Cut(i.MessageComponentData().CustomID, ":")
	switch action {
	case bot.ActionRecheck:
		r := &store.Request{Kind: bot.KindRecheck, Meta: map[string]string{bot.MetaCheckID: checkID},
			Private: i.Message != nil && i.Message.Flags&discordgo.MessageFlagsEphemeral != 0}
		return x.submit(ctx, i, r, respond)
	case bot.ActionWrong:
		respond(feedbackModal(checkID, bot.LangFor(string(i.Locale))))
		return "feedback form"
	}
	return "ignored"
}

// feedback translates the "Wrong verdict?" form.
func (x *interactions) feedback(ctx context.Context, i *discordgo.Interaction, respond responder) string {
	d := i.ModalSubmitData()
	action, checkID, _ := strings.Cut(d.CustomID, ":")
	if action != bot.ActionWrong {
		return "ignored"
	}
	note := ""
	for _, c := range d.Components {
		if row, ok := c.(*discordgo.ActionsRow); ok {
			for _, rc := range row.Components {
				if ti, ok := rc.(*discordgo.TextInput); ok && ti.CustomID == "note" {
					note = ti.Value
				}
			}
		}
	}
	user := interactionUser(i)
	sctx, cancel := context.WithTimeout(ctx, x.cfg.SubmitTimeout)
	answer, err := x.core.Feedback(sctx, tenant(i.GuildID, user.ID), i.ChannelID, checkID, bot.Person{Platform: Name, ID: user.ID, Locale: string(i.Locale)},
		store.Feedback{User: user.ID, Claim: -1, Note: note})
	cancel()
	if err != nil {
		answer = bot.LangFor(string(i.Locale)).UserMessage(err)
	}
	respondEphemeral(respond, answer)
	return "feedback"
}

// feedbackModal is the "Wrong verdict?" form, in the clicker's language.
func feedbackModal(checkID string, l bot.Lang) *discordgo.InteractionResponse {
	title, question, example := l.WrongVerdict()
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseModal,
		Data: &discordgo.InteractionResponseData{
			CustomID: bot.ActionWrong + ":" + safeID(checkID),
			Title:    bot.Truncate(title, 45),
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.TextInput{CustomID: "note", Label: bot.Truncate(question, 45), Style: discordgo.TextInputParagraph,
					Required: false, MaxLength: 1000, Placeholder: bot.Truncate(example, 100)},
			}}},
		},
	}
}

func respondEphemeral(respond responder, text string) error {
	return respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: bot.Truncate(Escape(text), maxContent),
			Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()},
	})
}

// submit completes r (Kind, Text, Private, Thread, Link and Meta
// set by the caller) from the interaction, stores it, then acknowledges
// the interaction: a deferred response (ephemeral when private) for answers
// that replace the original response, an ephemeral note for the message
// command (whose report is a reply to the target message), the refusal
// itself when the core refused. It returns what became of the request.
func (x *interactions) submit(ctx context.Context, i *discordgo.Interaction, r *store.Request, respond responder) string {
	t0 := time.Now() // the decoded interaction is in hand
	x.fill(r, i)
	ak := x.acks.start(r.Key)
	if ak == nil {
		return "in flight" // the same interaction, delivered twice at once
	}
	sctx, cancel := context.WithTimeout(ctx, x.cfg.SubmitTimeout)
	// Reading the channel (rarely needed: the state cache has it) takes at
	// most half of the time before the acknowledgement.
	vctx, vcancel := context.WithTimeout(sctx, x.cfg.SubmitTimeout/2)
	r.Visibility = x.chans.interactionVisibility(vctx, i)
	vcancel()
	res, err := x.core.Submit(sctx, r)
	cancel()
	if err != nil {
		x.acks.end(r.Key, ak, true)
		x.log.Error("store interaction", "key", r.Key, "err", err)
		// Discord does not redeliver interactions: say so rather than fail silently.
		respondEphemeral(respond, bot.RequestLang(r, "", r.Text).UserMessage(err))
		return "not stored"
	}
	switch res.Status {
	case bot.Duplicate:
		x.acks.end(r.Key, ak, true)
		return res.Status.String()
	case bot.Refused:
		ak.notified = respondEphemeral(respond, res.Notice) == nil
		x.acks.end(r.Key, ak, false)
		if ak.notified {
			x.observe(t0)
		}
		return res.Status.String()
	}
	err = respond(acknowledgement(r))
	ak.ok = err == nil
	x.acks.end(r.Key, ak, false)
	if err != nil {
		x.log.Warn("acknowledge interaction", "key", r.Key, "err", err)
		return "not acknowledged"
	}
	x.observe(t0)
	return res.Status.String()
}

// fill sets the request fields that come from the interaction.
func (x *interactions) fill(r *store.Request, i *discordgo.Interaction) {
	user := interactionUser(i)
	appID := i.AppID
	if appID == "" {
		appID = x.appID()
	}
	if r.Meta == nil {
		r.Meta = map[string]string{}
	}
	r.Meta[metaToken] = i.Token
	r.Meta[metaAppID] = appID
	r.Meta[metaInteraction] = i.ID
	r.Meta[metaGuild] = i.GuildID
	r.Meta[metaReceived] = strconv.FormatInt(x.cfg.Now().UnixMilli(), 10)
	r.Meta[bot.MetaPerson] = user.ID
	if i.Locale != "" { // the asker's client language: the answer's words
		r.Meta[bot.MetaLocale] = string(i.Locale)
	}
	r.Key, r.Tenant, r.Platform = "discord:interaction:"+i.ID, tenant(i.GuildID, user.ID), Name
	r.Channel, r.User = i.ChannelID, user.ID
	if interactionOnly(i) {
		// A user install where the bot cannot see who reads the place:
		// the answer and the check are the asker's alone.
		r.Meta[metaUserInstall] = "1"
		r.Private = true
	}
}

// acknowledgement is the interaction response for an accepted request.
func acknowledgement(r *store.Request) *discordgo.InteractionResponse {
	if r.Kind == bot.KindShortcut && !userInstall(r) {
		return &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Content: bot.RequestLang(r, "", r.Text).AckReply(),
				Flags:   discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
			},
		}
	}
	var flags discordgo.MessageFlags
	if r.Private {
		flags = discordgo.MessageFlagsEphemeral
	}
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: flags, AllowedMentions: noMentions()},
	}
}

// ackTable holds the interactions whose acknowledgement is in flight in
// this process, by request key: the answers wait for it (Post, Notify).
type ackTable struct {
	mu sync.Mutex
	m  map[string]*ack
}

// start registers the interaction's acknowledgement as in flight; nil
// means it already is.
func (t *ackTable) start(key string) *ack {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]*ack{}
	}
	if _, dup := t.m[key]; dup {
		return nil
	}
	ak := &ack{done: make(chan struct{})}
	t.m[key] = ak
	return ak
}

// end releases the answers waiting for the acknowledgement; drop forgets
// it at once (nothing will answer the request).
func (t *ackTable) end(key string, ak *ack, drop bool) {
	if drop {
		t.drop(key)
	}
	close(ak.done)
}

func (t *ackTable) drop(key string) {
	t.mu.Lock()
	delete(t.m, key)
	t.mu.Unlock()
}

// wait waits for the interaction's acknowledgement if it is in flight in
// this process and reports (acked, notified). For requests resumed after a
// restart there is nothing to wait for: the acknowledgement is assumed.
func (t *ackTable) wait(ctx context.Context, key string) (acked, notified bool, err error) {
	t.mu.Lock()
	ak, ok := t.m[key]
	t.mu.Unlock()
	if !ok {
		return true, false, nil
	}
	select {
	case <-ak.done:
	case <-ctx.Done():
		return false, false, ctx.Err()
	}
	t.drop(key)
	return ak.ok, ak.notified, nil
}

// history answers /factcheck-history, to the asker only.
func (x *interactions) history(ctx context.Context, i *discordgo.Interaction, d discordgo.ApplicationCommandInteractionData, respond responder) string {
	user := interactionUser(i)
	var args bot.HistoryArgs
	for _, o := range d.Options {
		switch o.Name {
		case "count":
			args.Count = int(o.IntValue())
		case "verdict":
			args.Verdict = o.StringValue()
		case "mine":
			args.Mine = o.BoolValue()
		}
	}
	sctx, cancel := context.WithTimeout(ctx, x.cfg.SubmitTimeout)
	h, err := x.core.History(sctx, tenant(i.GuildID, user.ID), user.ID, i.ChannelID, args)
	cancel()
	if err != nil {
		respondEphemeral(respond, bot.LangFor(string(i.Locale)).UserMessage(err))
		return "history refused"
	}
	where := bot.WhereServer
	if i.GuildID == "" {
		where = bot.WhereDMs
	}
	h.Lang = bot.LangFor(string(i.Locale))
	rm := renderHistory(h, where)
	respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: rm.Content, Embeds: rm.Embeds, Components: rm.Components,
			Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()},
	})
	return "history"
}
