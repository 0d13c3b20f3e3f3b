package discord_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/discord"
	"github.com/factbot-dev/factbot/bot/discord/discordtest"
	"github.com/factbot-dev/factbot/store"
)

// A signed interaction whose X-Signature-Timestamp is over 5 minutes old,
// or over a minute ahead, is refused: a captured request cannot be
// replayed once its dedupe key is forgotten.
func TestHTTPInteractionReplayRefused(t *testing.T) {
	h := newHarness(t)
	mux := http.NewServeMux()
	h.a.Routes(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	url := srv.URL + discord.InteractionsPath
	ping := &discordgo.Interaction{ID: "710000000000000001", AppID: h.fake.AppID, Type: discordgo.InteractionPing, Token: "p", Version: 1}
	raw, _ := json.Marshal(ping)
	now := time.Now()
	tests := []struct {
		name string
		at   time.Time
		want int
	}{
		{"4 minutes old", now.Add(-4 * time.Minute), http.StatusOK},
		{"6 minutes old", now.Add(-6 * time.Minute), http.StatusUnauthorized},
		{"a day old", now.Add(-24 * time.Hour), http.StatusUnauthorized},
		{"30 s ahead", now.Add(30 * time.Second), http.StatusOK},
		{"2 minutes ahead", now.Add(2 * time.Minute), http.StatusUnauthorized},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("POST", url, bytes.NewReader(raw))
		discordtest.SignInteraction(req.Header, h.key, strconv.FormatInt(tt.at.Unix(), 10), raw)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, resp.StatusCode, tt.want)
		}
	}
}

// Unsigned or stale requests are refused before their body is read: a
// body that never ends gets its 401 at once.
func TestUnsignedInteractionRefusedBeforeItsBody(t *testing.T) {
	h := newHarness(t)
	mux := http.NewServeMux()
	h.a.Routes(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	stale := http.Header{}
	discordtest.SignInteraction(stale, h.key, strconv.FormatInt(time.Now().Add(-time.Hour).Unix(), 10), []byte("{}"))
	for name, hd := range map[string]http.Header{"unsigned": {}, "stale": stale} {
		pr, pw := io.Pipe()
		go pw.Write([]byte(`{"type":1,` + strings.Repeat(" ", 100)))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // hang guard only
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+discord.InteractionsPath, pr)
		req.Header = hd.Clone()
		resp, err := http.DefaultClient.Do(req)
		cancel()
		pw.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: %d, want 401", name, resp.StatusCode)
		}
	}
}

// A Discord user has one limit across every server and direct messages:
// user ids are global.
func TestUserLimitAcrossServers(t *testing.T) {
	h := newHarness(t, func(_ *discord.Config, o *bot.Options, _ *bottest.Checker) {
		o.NoUserLimit, o.UserLimit = false, bot.Limit{N: 1, Window: time.Hour}
	})
	first := h.mention("410000000000000001", "Water is wet.")
	second := h.mention("410000000000000002", "Fire is hot.")
	second.GuildID = "300000000000000099"
	for _, m := range []*discordgo.Message{first, second} {
		if err := h.fake.MessageCreate(m); err != nil {
			t.Fatal(err)
		}
	}
	// The gateway's events are handled concurrently: either may come first.
	states := map[string]int{}
	states[h.waitDone(guild, "discord:message:"+first.ID).State]++
	states[h.waitDone(second.GuildID, "discord:message:"+second.ID).State]++
	if states[store.RequestDone] != 1 || states[store.RequestFailed] != 1 {
		t.Errorf("states = %v, want one done and one refused (failed)", states)
	}
	if n := len(h.checker.Calls()); n != 1 {
		t.Errorf("checked %d times, want 1", n)
	}
}
