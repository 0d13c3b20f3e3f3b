package main

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/discord"
)

// The Discord adapter runs under `factbot serve` when DISCORD_BOT_TOKEN is
// set. DISCORD_APP_ID (default: from the gateway's READY), DISCORD_GUILD_ID
// (register commands in one server), DISCORD_PUBLIC_KEY (also accept
// interactions at POST /discord/interactions) and DISCORD_API_URL (REST base
// URL, tests) are optional.
func init() {
	registerAdapter(adapterSpec{
		name:       "discord",
		vars:       "DISCORD_BOT_TOKEN",
		configured: func(getenv func(string) string) bool { return getenv("DISCORD_BOT_TOKEN") != "" },
		build: func(ctx context.Context, a *app, svc *bot.Service, mux *http.ServeMux) (chatAdapter, error) {
			ad, err := buildDiscord(a.getenv, svc, mux, serveLogger(a))
			if err != nil {
				return nil, err // not a typed nil in the interface
			}
			return ad, nil
		},
	})
}

// discordConfig reads the Discord variables.
func discordConfig(getenv func(string) string) discord.Config {
	return discord.Config{
		Token:     getenv("DISCORD_BOT_TOKEN"),
		AppID:     getenv("DISCORD_APP_ID"),
		PublicKey: getenv("DISCORD_PUBLIC_KEY"),
		GuildID:   getenv("DISCORD_GUILD_ID"),
		APIURL:    getenv("DISCORD_API_URL"),
	}
}

// buildDiscord makes the adapter and, with a public key, adds the HTTP
// interactions route to mux. The gateway connects when serve calls Run.
func buildDiscord(getenv func(string) string, svc bot.Core, mux *http.ServeMux, log *slog.Logger) (*discord.Adapter, error) {
	cfg := discordConfig(getenv)
	cfg.Logger = log
	ad, err := discord.New(cfg, svc)
	if err != nil {
		return nil, err
	}
	if ad.Routes(mux) {
		log.Info("discord: HTTP interactions enabled", "path", discord.InteractionsPath)
	}
	return ad, nil
}
