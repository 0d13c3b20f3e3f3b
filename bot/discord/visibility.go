package discord

import (
	"context"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/internal/memo"
	"github.com/factbot-dev/factbot/store"
)

// Who can read the channel a request comes from decides who may find its
// check later (store.Request.Visibility; bot.Audience). The adapter reads
// the channel from the gateway's state cache, else from GET
// /channels/{id} (cached per channel). A guild channel everyone can view
// is public; one whose @everyone overwrite denies View Channel (or in a
// server whose @everyone role cannot view channels, without an overwrite
// allowing it) is private, and so are private threads; a thread is as
// visible as its parent. Anything it cannot tell is unknown, which the
// core treats as not public.
const (
	// visTTL is how long a channel read over REST is trusted.
	visTTL = 10 * time.Minute
	// visErrTTL is how long a failed read stands before the next request
	// tries again, so that a burst costs one failed call.
	visErrTTL = 30 * time.Second
	// visMax bounds the channels cached.
	visMax = 10000
	// visTimeout bounds one channel read (it runs before the
	// acknowledgement).
	visTimeout = 1500 * time.Millisecond
)

// channels is the part that tells who can read a channel: from the
// gateway's state cache, else read over REST (cached).
type channels struct {
	s     session
	rest  *retrier
	log   *slog.Logger
	cache *memo.Cache[*discordgo.Channel]
}

// messageVisibility is who can read the channel of a gateway message:
// outside a guild the bot only receives direct messages.
func (cs *channels) messageVisibility(ctx context.Context, m *discordgo.Message) store.Visibility {
	if m.GuildID == "" {
		return store.VisibilityDM
	}
	return cs.guildVisibility(ctx, m.GuildID, m.ChannelID)
}

// interactionVisibility is who can read the channel an interaction comes
// from. Outside a guild it is the bot's DM unless Discord says it comes
// from another private channel (a user-installed app in someone's DM or
// group DM), whose type is read. Where only a user install authorized the
// interaction, nothing is read (userInstallVisibility).
func (cs *channels) interactionVisibility(ctx context.Context, i *discordgo.Interaction) store.Visibility {
	if interactionOnly(i) {
		return userInstallVisibility(i)
	}
	if i.GuildID != "" {
		return cs.guildVisibility(ctx, i.GuildID, i.ChannelID)
	}
	if i.Context != discordgo.InteractionContextPrivateChannel {
		return store.VisibilityDM
	}
	switch c := cs.channel(ctx, i.ChannelID); {
	case c == nil:
		return store.VisibilityUnknown
	case c.Type == discordgo.ChannelTypeDM:
		return store.VisibilityDM
	case c.Type == discordgo.ChannelTypeGroupDM:
		return store.VisibilityGroup
	}
	return store.VisibilityUnknown
}

// userInstallVisibility is who can read the place a user install's
// interaction comes from, told without reading the channel (the bot may
// not): the bot's DM is a DM; a server the app is not installed to, or
// another DM or group DM, is unknown (not public).
func userInstallVisibility(i *discordgo.Interaction) store.Visibility {
	if i.GuildID == "" && i.Context == discordgo.InteractionContextBotDM {
		return store.VisibilityDM
	}
	return store.VisibilityUnknown
}

// guildVisibility classifies a guild channel or thread.
func (cs *channels) guildVisibility(ctx context.Context, guildID, channelID string) store.Visibility {
	c := cs.channel(ctx, channelID)
	if c == nil {
		return store.VisibilityUnknown
	}
	switch c.Type {
	case discordgo.ChannelTypeGuildPrivateThread:
		return store.VisibilityPrivate
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildNewsThread:
		// Whoever can view the parent can view its public threads.
		if c.ParentID == "" {
			return store.VisibilityUnknown
		}
		parent := cs.channel(ctx, c.ParentID)
		if parent == nil || !readable(parent.Type) {
			return store.VisibilityUnknown
		}
		c = parent
	default:
		if !readable(c.Type) {
			return store.VisibilityUnknown
		}
	}
	if cs.restricted(guildID, c) {
		return store.VisibilityPrivate
	}
	return store.VisibilityPublic
}

// readable reports whether t is a guild channel whose messages those who
// can view it read: text, announcement, forum and media channels, and the
// text chat of voice and stage channels.
func readable(t discordgo.ChannelType) bool {
	switch t {
	case discordgo.ChannelTypeGuildText, discordgo.ChannelTypeGuildNews, discordgo.ChannelTypeGuildForum,
		discordgo.ChannelTypeGuildMedia, discordgo.ChannelTypeGuildVoice, discordgo.ChannelTypeGuildStageVoice:
		return true
	}
	return false
}

// restricted reports whether @everyone cannot view c: its @everyone
// overwrite (the role whose id is the guild's) denies View Channel, or the
// @everyone role itself lacks it (when the state cache knows the role) and
// no overwrite allows it.
func (cs *channels) restricted(guildID string, c *discordgo.Channel) bool {
	allowed := false
	for _, o := range c.PermissionOverwrites {
		if o == nil || o.Type != discordgo.PermissionOverwriteTypeRole || o.ID != guildID {
			continue
		}
		if o.Deny&discordgo.PermissionViewChannel != 0 {
			return true
		}
		allowed = o.Allow&discordgo.PermissionViewChannel != 0
	}
	if allowed {
		return false
	}
	perms, ok := cs.s.everyonePermissions(guildID)
	return ok && perms&(discordgo.PermissionViewChannel|discordgo.PermissionAdministrator) == 0
}

// channel returns the channel from the state cache, else read over REST
// once per channel and visTTL (concurrent requests wait for the read in
// flight); nil if it cannot be had.
func (cs *channels) channel(ctx context.Context, id string) *discordgo.Channel {
	if id == "" {
		return nil
	}
	if c, ok := cs.s.cachedChannel(id); ok {
		return c
	}
	c, _ := cs.cache.Get(ctx, id, func(ctx context.Context) (*discordgo.Channel, error) {
		cctx, cancel := context.WithTimeout(ctx, visTimeout)
		defer cancel()
		var c *discordgo.Channel
		err := cs.rest.do(cctx, func(o ...discordgo.RequestOption) error {
			var err error
			c, err = cs.s.Channel(id, o...)
			return err
		})
		if err != nil {
			cs.log.Warn("read channel failed; the request's visibility is unknown (not public)", "channel", id, "err", err)
		}
		return c, err
	})
	return c
}

// newChannelCache is the cache of channels read over REST.
func newChannelCache(now func() time.Time) *memo.Cache[*discordgo.Channel] {
	return &memo.Cache[*discordgo.Channel]{TTL: visTTL, ErrTTL: visErrTTL, Max: visMax, Now: now}
}

// cachedChannel returns a copy of the channel from the state cache.
func (g gateway) cachedChannel(id string) (*discordgo.Channel, bool) {
	st := g.State
	if st == nil {
		return nil, false
	}
	c, err := st.Channel(id)
	if err != nil || c == nil {
		return nil, false
	}
	st.RLock()
	defer st.RUnlock()
	cp := *c
	cp.PermissionOverwrites = nil
	for _, o := range c.PermissionOverwrites {
		if o != nil {
			o := *o
			cp.PermissionOverwrites = append(cp.PermissionOverwrites, &o)
		}
	}
	return &cp, true
}

// everyonePermissions returns the permissions of the guild's @everyone
// role (whose id is the guild's) if the state cache has it.
func (g gateway) everyonePermissions(guildID string) (int64, bool) {
	st := g.State
	if st == nil {
		return 0, false
	}
	r, err := st.Role(guildID, guildID)
	if err != nil || r == nil {
		return 0, false
	}
	st.RLock()
	defer st.RUnlock()
	return r.Permissions, true
}
