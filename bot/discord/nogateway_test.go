package discord_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/discord"
	"github.com/factbot-dev/factbot/bot/discord/discordtest"
	"github.com/factbot-dev/factbot/store"
)

// With NoGateway the adapter opens no gateway connection, registers its
// commands over REST, and answers HTTP interactions: replicas behind a load
// balancer need no shards.
func TestHTTPInteractionsWithoutGateway(t *testing.T) {
	h := newHarness(t, func(c *discord.Config, _ *bot.Options, _ *bottest.Checker) { c.NoGateway = true })
	if id := h.fake.Identify(); id != nil {
		t.Errorf("the adapter identified on the gateway: %s", id)
	}
	if err := h.fake.WaitConnections(h.ctx(), 0); err != nil {
		t.Fatal(err)
	}
	if cmds, err := h.fake.WaitRequests(h.ctx(), 1, func(r discordtest.Request) bool {
		return r.Method == http.MethodPut && strings.Contains(r.Path, "/commands")
	}); err != nil || len(cmds) == 0 {
		t.Fatalf("commands not registered over REST: %v", err)
	}

	mux := http.NewServeMux()
	if !h.a.Routes(mux) {
		t.Fatal("Routes: HTTP interactions not enabled")
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	i := slash("710000000000000001", "Mount Everest is 8,849 m tall.", false)
	status, body, err := h.fake.DeliverInteraction(h.ctx(), srv.URL+discord.InteractionsPath, h.key, i)
	var resp discordgo.InteractionResponse
	if err != nil || status != http.StatusOK || json.Unmarshal(body, &resp) != nil ||
		resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("/factcheck over HTTP → %d %s %v, want a deferred response", status, body, err)
	}
	if r := h.waitDone(guild, "discord:interaction:"+i.ID); r.State != store.RequestDone {
		t.Fatalf("state = %s", r.State)
	}
	if o := h.fake.Original(i.Token); o == nil || len(o.Embeds) != 1 {
		t.Errorf("original = %+v, want the report", o)
	}
}

func TestNoGatewayNeedsPublicKeyAndAppID(t *testing.T) {
	_, err := discord.New(discord.Config{Token: "t", NoGateway: true}, nil)
	if err == nil || !strings.Contains(err.Error(), "FACTBOT_DISCORD_GATEWAY") {
		t.Errorf("New without public key and app id = %v, want a FACTBOT_DISCORD_GATEWAY configuration error", err)
	}
}
