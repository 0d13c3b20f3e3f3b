package discord_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/discord/discordtest"
	"github.com/factbot-dev/factbot/store"
)

const (
	restrictedChannel = "300000000000000010"
	privateThread     = "300000000000000011"
	publicThread      = "300000000000000012"
	restrictedThread  = "300000000000000013"
	lateChannel       = "300000000000000014" // added after the adapter connected: only over REST
	unknownChannel    = "300000000000000015" // unknown to Discord's API as the bot sees it
	lobbyChannel      = "300000000000000020"
	groupDM           = "320000000000000002"
	otherMember       = "399999999999999999"
)

// hidden denies @everyone the View Channel permission.
func hidden() []*discordgo.PermissionOverwrite {
	return []*discordgo.PermissionOverwrite{{ID: guild, Type: discordgo.PermissionOverwriteTypeRole, Deny: discordgo.PermissionViewChannel}}
}

// TestWhatIsPrivateStaysPrivate: requests from private threads, channels
// @everyone cannot view and direct messages are saved as such, and
// another member's /factcheck-history in another channel does not list
// them; checks from channels everyone can read are listed.
func TestWhatIsPrivateStaysPrivate(t *testing.T) {
	fake := discordtest.New(t)
	for _, c := range []*discordgo.Channel{
		{ID: restrictedChannel, GuildID: guild, Name: "staff", Type: discordgo.ChannelTypeGuildText, PermissionOverwrites: hidden()},
		{ID: privateThread, GuildID: guild, ParentID: channel, Name: "secret", Type: discordgo.ChannelTypeGuildPrivateThread},
		{ID: publicThread, GuildID: guild, ParentID: channel, Name: "open", Type: discordgo.ChannelTypeGuildPublicThread},
		{ID: restrictedThread, GuildID: guild, ParentID: restrictedChannel, Name: "staff thread", Type: discordgo.ChannelTypeGuildPublicThread},
		{ID: lobbyChannel, GuildID: guild, Name: "lobby", Type: discordgo.ChannelTypeGuildText},
		{ID: groupDM, Name: "friends", Type: discordgo.ChannelTypeGroupDM},
	} {
		fake.AddChannel(c)
	}
	s := startStack(t, fake, openDB(t, filepath.Join(t.TempDir(), "factbot.db")), &bottest.Checker{Func: labelByText})
	fake.AddChannel(&discordgo.Channel{ID: lateChannel, GuildID: guild, Name: "late", Type: discordgo.ChannelTypeGuildText, PermissionOverwrites: hidden()})

	dm := "dm:" + asker
	slashIn := func(id, guildID, channelID string, ctx discordgo.InteractionContextType) *discordgo.Interaction {
		i := slash(id, "Claim of "+id+".", false)
		i.GuildID, i.ChannelID, i.Context = guildID, channelID, ctx
		if guildID == "" {
			i.User, i.Member = user(asker), nil
		}
		return i
	}
	tests := []struct {
		name    string
		tenant  string
		key     string
		deliver func() error
		want    store.Visibility
	}{
		{"mention in a text channel", guild, "discord:message:410000000000000101",
			func() error {
				return fake.MessageCreate(mentionIn(fake, guild, channel, "410000000000000101", "Public claim."))
			},
			store.VisibilityPublic},
		{"mention in a private thread", guild, "discord:message:410000000000000102",
			func() error {
				return fake.MessageCreate(mentionIn(fake, guild, privateThread, "410000000000000102", "Private thread claim."))
			},
			store.VisibilityPrivate},
		{"mention in a public thread", guild, "discord:message:410000000000000103",
			func() error {
				return fake.MessageCreate(mentionIn(fake, guild, publicThread, "410000000000000103", "Public thread claim."))
			},
			store.VisibilityPublic},
		{"/factcheck in a channel @everyone cannot view", guild, "discord:interaction:510000000000000104",
			func() error {
				return fake.InteractionCreate(slashIn("510000000000000104", guild, restrictedChannel, 0))
			},
			store.VisibilityPrivate},
		{"mention in a public thread of a hidden channel", guild, "discord:message:410000000000000105",
			func() error {
				return fake.MessageCreate(mentionIn(fake, guild, restrictedThread, "410000000000000105", "Staff thread claim."))
			},
			store.VisibilityPrivate},
		{"/factcheck in a hidden channel read over REST", guild, "discord:interaction:510000000000000106",
			func() error { return fake.InteractionCreate(slashIn("510000000000000106", guild, lateChannel, 0)) },
			store.VisibilityPrivate},
		{"mention in a channel that cannot be read", guild, "discord:message:410000000000000107",
			func() error {
				return fake.MessageCreate(mentionIn(fake, guild, unknownChannel, "410000000000000107", "Unknown claim."))
			},
			store.VisibilityUnknown},
		{"mention in a DM", dm, "discord:message:410000000000000108",
			func() error {
				return fake.MessageCreate(mentionIn(fake, "", dmChannel, "410000000000000108", "DM claim."))
			},
			store.VisibilityDM},
		{"/factcheck in a DM", dm, "discord:interaction:510000000000000109",
			func() error {
				return fake.InteractionCreate(slashIn("510000000000000109", "", dmChannel, discordgo.InteractionContextBotDM))
			},
			store.VisibilityDM},
		{"/factcheck in a group DM", dm, "discord:interaction:510000000000000110",
			func() error {
				return fake.InteractionCreate(slashIn("510000000000000110", "", groupDM, discordgo.InteractionContextPrivateChannel))
			},
			store.VisibilityGroup},
	}
	var public, private []string // check ids in this guild, oldest first
	for _, tt := range tests {
		if err := tt.deliver(); err != nil {
			t.Fatal(err)
		}
		r := s.waitDone(tt.tenant, tt.key)
		if r.State != store.RequestDone || r.CheckID == "" {
			t.Fatalf("%s: request = %+v", tt.name, r)
		}
		c, err := s.db.Check(s.ctx(), tt.tenant, r.CheckID)
		if err != nil {
			t.Fatal(err)
		}
		if c.Visibility != tt.want {
			t.Errorf("%s: saved visibility %q, want %q", tt.name, c.Visibility, tt.want)
		}
		if tt.tenant != guild {
			continue
		}
		if tt.want == store.VisibilityPublic {
			public = append(public, r.CheckID)
		} else {
			private = append(private, r.CheckID)
		}
	}
	// The state cache answered for the channels known at connection; the
	// others were read once each.
	var reads []string
	for _, q := range fake.Matching("GET", "/channels/") {
		reads = append(reads, q.Path)
	}
	if diff := cmp.Diff([]string{"/channels/" + lateChannel, "/channels/" + unknownChannel, "/channels/" + groupDM}, reads); diff != "" {
		t.Errorf("channel reads (-want +got):\n%s", diff)
	}

	// Another member asks for the server's history in another channel.
	h := historyCmd("510000000000000111", guild, lobbyChannel, 25, "")
	h.Member = &discordgo.Member{User: user(otherMember)}
	if err := fake.InteractionCreate(h); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(public)
	if diff := cmp.Diff(public, historyIDs(t, responseOf(t, s.callback(h)))); diff != "" {
		t.Errorf("another member's history lists (-want +got):\n%s", diff)
	}
	// The asker, there too, finds all of their checks in this server.
	mine := historyCmd("510000000000000112", guild, lobbyChannel, 25, "")
	got := historyIDs(t, responseOf(t, s.callback(deliver(t, fake, mine))))
	for _, id := range append(public, private...) {
		if !slices.Contains(got, id) {
			t.Errorf("the asker's history lacks %s: %v", id, got)
		}
	}
	// Another member's DMs with the bot are another tenant: nothing there.
	other := historyCmd("510000000000000113", "", dmChannel, 25, "")
	other.User = user(otherMember)
	resp := responseOf(t, s.callback(deliver(t, fake, other)))
	if resp.Data == nil || len(resp.Data.Embeds) != 0 {
		t.Errorf("another member's DM history = %+v, want no checks", resp.Data)
	}
}

func deliver(t *testing.T, fake *discordtest.Server, i *discordgo.Interaction) *discordgo.Interaction {
	t.Helper()
	if err := fake.InteractionCreate(i); err != nil {
		t.Fatal(err)
	}
	return i
}

// TestGatedServerChannelsArePrivate: in a server whose @everyone role
// cannot view channels (members see them through roles), a channel counts
// as public only when its @everyone overwrite allows View Channel.
func TestGatedServerChannelsArePrivate(t *testing.T) {
	const (
		gated       = "330000000000000001"
		membersOnly = "330000000000000002"
		welcome     = "330000000000000003"
	)
	fake := discordtest.New(t)
	fake.SetEveryone(gated, discordgo.PermissionUseApplicationCommands)
	fake.AddChannel(&discordgo.Channel{ID: membersOnly, GuildID: gated, Name: "members", Type: discordgo.ChannelTypeGuildText})
	fake.AddChannel(&discordgo.Channel{ID: welcome, GuildID: gated, Name: "welcome", Type: discordgo.ChannelTypeGuildText,
		PermissionOverwrites: []*discordgo.PermissionOverwrite{{ID: gated, Type: discordgo.PermissionOverwriteTypeRole, Allow: discordgo.PermissionViewChannel}}})
	s := startStack(t, fake, openDB(t, filepath.Join(t.TempDir(), "factbot.db")), &bottest.Checker{Func: labelByText})
	for _, tt := range []struct {
		id, channel string
		want        store.Visibility
	}{
		{"410000000000000201", membersOnly, store.VisibilityPrivate},
		{"410000000000000202", welcome, store.VisibilityPublic},
	} {
		if err := fake.MessageCreate(mentionIn(fake, gated, tt.channel, tt.id, "A claim.")); err != nil {
			t.Fatal(err)
		}
		r := s.waitDone(gated, "discord:message:"+tt.id)
		if r.Visibility != tt.want {
			t.Errorf("mention in %s: visibility %q, want %q", tt.channel, r.Visibility, tt.want)
		}
	}
}
