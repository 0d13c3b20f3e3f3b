package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/internal/retry"
	"github.com/factbot-dev/factbot/store"
)

// errTokenExpired is returned by Update when the interaction token is too
// old to edit the response; the core then Posts, which sends a normal
// message instead.
var errTokenExpired = errors.New("discord: interaction token expired")

// answersInResponse reports whether r is answered by editing its
// interaction response (slash command, "Check again", anything from a
// user install); mentions and a guild install's message command are
// answered with a reply to the message.
func answersInResponse(r *store.Request) bool {
	return r.Meta[metaToken] != "" && (r.Kind != bot.KindShortcut || userInstall(r))
}

func (a *Adapter) tokenUsable(r *store.Request) bool {
	ms, err := strconv.ParseInt(r.Meta[metaReceived], 10, 64)
	if err != nil || r.Meta[metaToken] == "" {
		return false
	}
	return a.cfg.Now().Sub(time.UnixMilli(ms)) < tokenTTL-tokenMargin
}

func interactionOf(r *store.Request) *discordgo.Interaction {
	return &discordgo.Interaction{ID: r.Meta[metaInteraction], AppID: r.Meta[metaAppID], Token: r.Meta[metaToken]}
}

// Post implements bot.Platform.
func (a *Adapter) Post(ctx context.Context, r *store.Request, m *bot.Message) (string, error) {
	rm := render(m)
	if r.Meta[metaToken] != "" {
		acked, _, err := a.inAck.wait(ctx, r.Key)
		if err != nil {
			return "", err
		}
		if answersInResponse(r) && acked && a.tokenUsable(r) {
			err := a.editOriginal(ctx, r, rm)
			if err == nil {
				return replyOriginal, nil
			}
			if userInstall(r) {
				return "", fmt.Errorf("discord: edit interaction response: %w", err)
			}
			a.log.Warn("edit interaction response; sending a message instead", "key", r.Key, "err", err)
		}
	}
	if userInstall(r) {
		return "", errUserInstallExpired
	}
	return a.postMessage(ctx, r, rm)
}

// postMessage answers with a normal message: a reply to the asked message,
// a plain channel message once an interaction token has expired, or a
// direct message when the answer is private.
func (a *Adapter) postMessage(ctx context.Context, r *store.Request, rm *rendered) (string, error) {
	channel := r.Channel
	var ref *discordgo.MessageReference
	switch {
	case r.Private:
		var ch *discordgo.Channel
		err := a.rest.do(ctx, func(o ...discordgo.RequestOption) error {
			var err error
			ch, err = a.s.UserChannelCreate(r.User, o...)
			return err
		})
		if err != nil {
			return "", fmt.Errorf("discord: open a direct message to deliver a private answer: %w", err)
		}
		channel = ch.ID
	case r.Thread != "":
		ref = &discordgo.MessageReference{MessageID: r.Thread, ChannelID: r.Channel, GuildID: r.Meta[metaGuild], FailIfNotExists: boolPtr(false)}
	}
	if channel == "" {
		return "", errors.New("discord: no channel to answer in")
	}
	send := &discordgo.MessageSend{
		Content: rm.Content, Embeds: rm.Embeds, Components: rm.Components,
		AllowedMentions: noMentions(), Reference: ref,
	}
	var msg *discordgo.Message
	err := a.rest.do(ctx, func(o ...discordgo.RequestOption) error {
		var err error
		msg, err = a.s.ChannelMessageSendComplex(channel, send, o...)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("discord: send message: %w", err)
	}
	return "msg:" + channel + ":" + msg.ID, nil
}

func boolPtr(b bool) *bool { return &b }

// editParts returns rm's embeds and components as an edit sends them:
// empty lists, never nil, where rm has none.
func (rm *rendered) editParts() ([]*discordgo.MessageEmbed, []discordgo.MessageComponent) {
	embeds, comps := rm.Embeds, rm.Components
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	return embeds, comps
}

func (a *Adapter) editOriginal(ctx context.Context, r *store.Request, rm *rendered) error {
	embeds, comps := rm.editParts()
	edit := &discordgo.WebhookEdit{Content: &rm.Content, Embeds: &embeds, Components: &comps, AllowedMentions: noMentions()}
	i := interactionOf(r)
	// An HTTP interaction's response may still be on its way to Discord:
	// "Unknown Message/Webhook" right after it is retried (250 ms, 500 ms).
	p := retry.Policy{Attempts: 3, Base: 250 * time.Millisecond, Sleep: a.cfg.Sleep}
	return retry.Do(ctx, p, responsePending, func(ctx context.Context) error {
		return a.rest.do(ctx, func(o ...discordgo.RequestOption) error {
			_, err := a.s.InteractionResponseEdit(i, edit, o...)
			return err
		})
	})
}

// responsePending retries a 404 from editing an interaction response.
func responsePending(err error) retry.Decision {
	var re *discordgo.RESTError
	return retry.Decision{Retry: errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusNotFound}
}

// Update implements bot.Platform. A reply Discord no longer has (404), or
// an interaction response whose token expired, is gone (bot.ErrReplyGone):
// the core posts the answer anew.
func (a *Adapter) Update(ctx context.Context, r *store.Request, reply string, m *bot.Message) error {
	err := a.update(ctx, r, reply, m)
	if err != nil && (errors.Is(err, errTokenExpired) || isUnknown(err)) {
		return fmt.Errorf("%w: %w", bot.ErrReplyGone, err)
	}
	return err
}

func (a *Adapter) update(ctx context.Context, r *store.Request, reply string, m *bot.Message) error {
	rm := render(m)
	if reply == replyOriginal {
		if !a.tokenUsable(r) {
			if !m.Final {
				return nil // progress cannot be shown any more; the final answer is posted
			}
			return errTokenExpired
		}
		return a.editOriginal(ctx, r, rm)
	}
	if userInstall(r) {
		return fmt.Errorf("discord: a user install's reply is its interaction response, not %q", reply)
	}
	rest, ok := strings.CutPrefix(reply, "msg:")
	channel, id, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return fmt.Errorf("discord: unknown reply handle %q", reply)
	}
	embeds, comps := rm.editParts()
	edit := &discordgo.MessageEdit{ID: id, Channel: channel, Content: &rm.Content, Embeds: &embeds,
		Components: &comps, AllowedMentions: noMentions()}
	return a.rest.do(ctx, func(o ...discordgo.RequestOption) error {
		_, err := a.s.ChannelMessageEditComplex(edit, o...)
		return err
	})
}

// Notify implements bot.Platform: an ephemeral follow-up for interactions
// (unless the acknowledgement already said it), a reply to the message
// otherwise.
func (a *Adapter) Notify(ctx context.Context, r *store.Request, text string) error {
	content := bot.Truncate(Escape(text), maxContent)
	if r.Meta[metaToken] != "" {
		acked, notified, err := a.inAck.wait(ctx, r.Key)
		if err != nil || notified {
			return err
		}
		if acked && a.tokenUsable(r) {
			i := interactionOf(r)
			return a.rest.do(ctx, func(o ...discordgo.RequestOption) error {
				_, err := a.s.FollowupMessageCreate(i, false, &discordgo.WebhookParams{
					Content: content, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
				}, o...)
				return err
			})
		}
	}
	if userInstall(r) || (r.Thread == "" && r.Private) {
		return nil // nowhere (private) left to say it
	}
	_, err := a.postMessage(ctx, r, &rendered{Content: content})
	return err
}
