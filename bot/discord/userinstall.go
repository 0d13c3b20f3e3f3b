package discord

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/store"
)

// A person can install factbot to their own account (a user install) and
// use its commands in any server, DM or group DM, even where the bot is
// not a member. Such an interaction is answered through the interaction
// alone: the deferred response, edits of it and follow-ups, all with the
// interaction's token. The bot never calls channel endpoints for it (no
// channel message is read, sent or edited, no channel is read), since it
// cannot use them there; its check is private to the asker (an ephemeral
// answer, hidden from everyone else's history). The token lasts
// tokenTTL: a check that outlasts it is saved, and found with
// /factcheck-history, but its answer can no longer be shown.

// metaUserInstall marks, in a request's Meta, a request from a user
// install answered through its interaction alone.
const metaUserInstall = "user_install"

// messagePrefix starts a bot.MetaMessage carried by the interaction itself
// (a user install's message command): the message as Discord resolved it,
// so that it is never read with GET /channels/{id}/messages/{id}.
const messagePrefix = "interaction:"

// errUserInstallExpired is Post's error once a user install's interaction
// token has expired (or its acknowledgement failed): there is nowhere else
// to answer.
var errUserInstallExpired error = userInstallExpired{}

// userInstallExpired is errUserInstallExpired, an error that wraps
// bot.ErrUndeliverable without allocating at start.
type userInstallExpired struct{}

func (userInstallExpired) Error() string {
	return "discord: the interaction can no longer be answered (token expired or not acknowledged), and a user install answers through its interaction only; a saved check is in /factcheck-history: " + bot.ErrUndeliverable.Error()
}

func (userInstallExpired) Unwrap() error { return bot.ErrUndeliverable }

// interactionOnly reports whether i comes from a user install outside a
// server that installed the app: Discord says the user install authorized
// it (authorizing_integration_owners names the user under key 1), and no
// server's guild install did (key 0 absent, or "0": the bot's own DM). In
// a server that installed the bot (its id under key 0), the bot answers
// as for any guild install; so it does everywhere when the user install
// is not named.
func interactionOnly(i *discordgo.Interaction) bool {
	owners := i.AuthorizingIntegrationOwners
	if _, user := owners[discordgo.ApplicationIntegrationUserInstall]; !user {
		return false
	}
	g := owners[discordgo.ApplicationIntegrationGuildInstall]
	return g == "" || g == "0"
}

// userInstall reports whether r came from a user install (interactionOnly).
func userInstall(r *store.Request) bool { return r.Meta[metaUserInstall] != "" }

// resolvedMessage is a message as an interaction carried it.
type resolvedMessage struct {
	Text  string           `json:"text,omitempty"`
	Files []bot.Attachment `json:"files,omitempty"`
}

// carriedMessage is m as a bot.MetaMessage read without a REST call.
func carriedMessage(m *discordgo.Message) string {
	rm := resolvedMessage{Text: messageText(m.Content)}
	for _, f := range m.Attachments {
		if f != nil {
			rm.Files = append(rm.Files, bot.Attachment{Name: f.Filename, MIME: f.ContentType, URL: f.URL, Size: int64(f.Size)})
		}
	}
	b, _ := json.Marshal(rm) // cannot fail: strings and numbers
	return messagePrefix + string(b)
}

// readCarried reads a bot.MetaMessage carried by the interaction; ok is
// false when ref names a message by channel and id instead.
func readCarried(ref string) (p *bot.Posted, ok bool, err error) {
	raw, ok := strings.CutPrefix(ref, messagePrefix)
	if !ok {
		return nil, false, nil
	}
	var rm resolvedMessage
	if err := json.Unmarshal([]byte(raw), &rm); err != nil {
		return nil, true, fmt.Errorf("discord: message carried by the interaction: %w", err)
	}
	return &bot.Posted{Text: rm.Text, Files: rm.Files}, true, nil
}
