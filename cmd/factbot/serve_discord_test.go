package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/discord"
	"github.com/factbot-dev/factbot/bot/discord/discordtest"
	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store/storetest"
)

func TestDiscordConfigErrors(t *testing.T) {
	svc := bot.New(storetest.NewMemory(), &bottest.Checker{}, bot.Options{})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for name, env := range map[string]map[string]string{
		"no token":         {},
		"bad public key":   {"DISCORD_BOT_TOKEN": "t", "DISCORD_PUBLIC_KEY": "nothex"},
		"short public key": {"DISCORD_BOT_TOKEN": "t", "DISCORD_PUBLIC_KEY": "abcd"},
	} {
		_, err := discordFromEnv(env, svc, http.NewServeMux(), log)
		var ce *usererr.Config
		if !errors.As(err, &ce) || !strings.HasPrefix(ce.Var, "DISCORD_") {
			t.Errorf("%s: err = %v, want a ConfigError naming the variable", name, err)
		}
	}
}

// discordFromEnv reads env as factbot does and builds the adapter as serve
// does: a configuration error may come from either.
func discordFromEnv(env map[string]string, svc bot.Core, mux *http.ServeMux, log *slog.Logger) (*discord.Adapter, error) {
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		return nil, err
	}
	return buildDiscord(cfg.Discord, svc, mux, log)
}

// TestServeDiscordEndToEnd wires the adapter as serve does, against the
// fake Discord: gateway mention, and a signed HTTP interaction on the mux.
func TestServeDiscordEndToEnd(t *testing.T) {
	fake := discordtest.New(t)
	pub, priv, _ := ed25519.GenerateKey(nil)
	env := map[string]string{
		"DISCORD_BOT_TOKEN":  fake.Token,
		"DISCORD_APP_ID":     fake.AppID,
		"DISCORD_PUBLIC_KEY": hex.EncodeToString(pub),
		"DISCORD_GUILD_ID":   "42",
		"DISCORD_API_URL":    fake.APIURL(),
		// This replica is shard 1 of 2.
		"FACTBOT_DISCORD_SHARD":  "1",
		"FACTBOT_DISCORD_SHARDS": "2",
	}
	st := storetest.NewMemory()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := bot.New(st, &bottest.Checker{}, bot.Options{NoUserLimit: true, Logger: log})
	mux := http.NewServeMux()
	ad, err := discordFromEnv(env, svc, mux, log)
	if err != nil {
		t.Fatal(err)
	}
	svc.Register(ad)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- ad.Run(runCtx) }()
	defer func() { stop(); <-done }()
	if err := fake.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	var id struct {
		Shard *[2]int `json:"shard"`
	}
	if err := json.Unmarshal(fake.Identify(), &id); err != nil {
		t.Fatal(err)
	}
	if id.Shard == nil || *id.Shard != [2]int{1, 2} {
		t.Errorf("identify shard = %v, want [1 2] from FACTBOT_DISCORD_SHARD(S)", id.Shard)
	}
	if _, err := fake.WaitRequests(ctx, 1, func(r discordtest.Request) bool {
		return r.Method == "PUT" && r.Path == "/applications/"+fake.AppID+"/guilds/42/commands"
	}); err != nil {
		t.Fatal(err)
	}
	// Connected and started: ready for /readyz.
	for deadline := time.Now().Add(10 * time.Second); ad.Ready() != nil && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if err := ad.Ready(); err != nil {
		t.Errorf("Ready once connected = %v", err)
	}

	srv := httptest.NewServer(mux)
	defer srv.Close()
	i := &discordgo.Interaction{ID: "1001", AppID: fake.AppID, Type: discordgo.InteractionApplicationCommand, GuildID: "42",
		ChannelID: "43", Token: "tok", Member: &discordgo.Member{User: &discordgo.User{ID: "44"}},
		Data: discordgo.ApplicationCommandInteractionData{Name: discord.CommandFactcheck, CommandType: discordgo.ChatApplicationCommand,
			Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "text", Type: discordgo.ApplicationCommandOptionString, Value: "Sky is blue."}}}}
	status, body, err := fake.DeliverInteraction(ctx, srv.URL+discord.InteractionsPath, priv, i)
	if err != nil || status != 200 || !bytes.Contains(body, []byte(`"type":5`)) {
		t.Fatalf("interaction → %d %s %v", status, body, err)
	}
	if _, err := fake.WaitRequests(ctx, 1, func(r discordtest.Request) bool {
		return r.Method == "PATCH" && strings.HasSuffix(r.Path, "/tok/messages/@original") && bytes.Contains(r.Body, []byte(bot.ActionRecheck))
	}); err != nil {
		t.Fatal(err)
	}
}
