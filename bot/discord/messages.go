package discord

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/internal/download"
	"github.com/factbot-dev/factbot/store"
)

// DefaultReactions are the reactions that ask for a check of the message
// they are added to (🔍 and 🔎), when reactions are on
// (Config.MessageContent).
var DefaultReactions = []string{"mag", "mag_right"}

// reactionEmoji are the Unicode emoji of the reaction names
// FACTBOT_REACTION may give (Slack's names); any other is taken as the
// emoji itself (or a custom emoji's name).
var reactionEmoji = map[string]string{"mag": "🔍", "mag_right": "🔎"}

// cdnOrigins are where Discord serves attachments; nothing is sent with
// their downloads but the request.
var cdnOrigins = []string{"https://cdn.discordapp.com", "https://media.discordapp.net"}

// messageRef names a message for bot.MetaMessage.
func messageRef(channelID, messageID string) string { return channelID + "/" + messageID }

// aboutMessage sets, on a mention's request, the message it is about: its
// own when it has attachments; with no other text, the message it replies
// to, or in a thread the thread's starter message.
func (a *Adapter) aboutMessage(ctx context.Context, m *discordgo.Message, r *store.Request) {
	ref := ""
	switch {
	case len(m.Attachments) > 0:
		ref = messageRef(m.ChannelID, m.ID)
	case withoutMention(m.Content, a.self()) != "":
	case m.ReferencedMessage != nil && m.ReferencedMessage.ID != "":
		ref = messageRef(cmp.Or(m.ReferencedMessage.ChannelID, m.ChannelID), m.ReferencedMessage.ID)
	case m.GuildID != "":
		// A thread's starter message has the thread's id, in the parent
		// channel (or in the thread itself, for a forum post).
		if c := a.chans.channel(ctx, m.ChannelID); c != nil && c.IsThread() && c.ParentID != "" {
			ref = messageRef(c.ParentID, c.ID)
		}
	}
	if ref != "" {
		r.Meta[bot.MetaMessage] = ref
	}
}

// onReactionAdd turns a check reaction into a request to check its
// message, answered as a reply to it; the key is the message's, so that it
// is answered once however many people react.
func (a *Adapter) onReactionAdd(_ *discordgo.Session, e *discordgo.MessageReactionAdd) {
	if e.MessageReaction == nil || e.UserID == "" || e.UserID == a.self() || !slices.Contains(a.reactions(), e.Emoji.Name) {
		return
	}
	if e.Member != nil && e.Member.User != nil && e.Member.User.Bot {
		return
	}
	key := "discord:reaction:" + e.MessageID
	r := &store.Request{
		Key: key, Tenant: tenant(e.GuildID, e.UserID), Platform: Name, Kind: bot.KindReaction,
		Channel: e.ChannelID, Thread: e.MessageID, Link: messageLink(e.GuildID, e.ChannelID, e.MessageID), User: e.UserID,
		Meta: map[string]string{metaGuild: e.GuildID, bot.MetaPerson: e.UserID, bot.MetaMessage: messageRef(e.ChannelID, e.MessageID)},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r.Visibility = store.VisibilityDM
	if e.GuildID != "" {
		r.Visibility = a.chans.guildVisibility(ctx, e.GuildID, e.ChannelID)
	}
	res, err := a.core.Submit(ctx, r)
	if err != nil {
		a.log.Error("store reaction", "key", key, "err", err)
		logEvent(a.log, key, "not stored")
		return
	}
	logEvent(a.log, key, res.Status.String())
}

// reactions are the emoji that ask for a check: none unless the message
// content intent is on.
func (a *Adapter) reactions() []string {
	if !a.cfg.MessageContent {
		return nil
	}
	var out []string
	for _, name := range a.cfg.Reactions {
		if e, ok := reactionEmoji[name]; ok {
			name = e
		}
		out = append(out, name)
	}
	return out
}

// ReadMessage implements bot.MessageReader: GET the message named by
// r.Meta[bot.MetaMessage] ("channel/message"). A thread's starter message
// not found in the parent channel is read in the thread (a forum post's).
// A message carried by a user install's interaction is read from it, with
// no REST call.
func (a *Adapter) ReadMessage(ctx context.Context, r *store.Request) (*bot.Posted, error) {
	if p, ok, err := readCarried(r.Meta[bot.MetaMessage]); ok {
		return p, err
	}
	if userInstall(r) {
		return nil, bot.ErrMessageNotFound(errors.New("discord: a user install cannot read a channel's messages"))
	}
	channel, id, _ := strings.Cut(r.Meta[bot.MetaMessage], "/")
	m, err := a.getMessage(ctx, channel, id)
	if err != nil && isUnknown(err) && channel != id {
		m, err = a.getMessage(ctx, id, id)
	}
	if err != nil {
		if isUnknown(err) {
			return nil, bot.ErrMessageNotFound(err)
		}
		return nil, err
	}
	if m.Author != nil && m.Author.ID == a.self() {
		return nil, bot.ErrOwnMessage()
	}
	p := &bot.Posted{Text: messageText(m.Content)}
	for _, f := range m.Attachments {
		if f != nil {
			p.Files = append(p.Files, bot.Attachment{Name: f.Filename, MIME: f.ContentType, URL: f.URL, Size: int64(f.Size)})
		}
	}
	return p, nil
}

func (a *Adapter) getMessage(ctx context.Context, channel, id string) (*discordgo.Message, error) {
	var m *discordgo.Message
	err := a.rest.do(ctx, func(o ...discordgo.RequestOption) error {
		var err error
		m, err = a.s.ChannelMessage(channel, id, o...)
		return err
	})
	return m, err
}

// isUnknown reports whether Discord answered 404 (an unknown message).
func isUnknown(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusNotFound
}

// Download implements bot.MessageReader: an attachment from Discord's
// CDN (or DISCORD_API_URL's origin when it is set), without the bot token.
func (a *Adapter) Download(ctx context.Context, r *store.Request, f bot.Attachment, max int64) ([]byte, error) {
	origins := cdnOrigins
	if a.cfg.APIURL != "" {
		if u, err := url.Parse(a.cfg.APIURL); err == nil {
			origins = []string{download.Origin(u)}
		}
	}
	hc := a.cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: a.cfg.CallTimeout}
	}
	b, err := download.Get(ctx, hc, download.Request{URL: f.URL, Origins: origins, Max: max})
	if errors.Is(err, download.ErrTooLarge) {
		return nil, bot.ErrTooLarge
	}
	return b, err
}
