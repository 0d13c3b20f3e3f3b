package discord

import (
	"slices"

	"github.com/bwmarrin/discordgo"
	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
)

// Command names.
const (
	CommandFactcheck = "factcheck"
	CommandHistory   = "factcheck-history"
	CommandMessage   = "Fact-check" // message command (right-click → Apps)
)

// Where the commands may be installed and used: installed to a server
// (guild install) or to a person's account (user install), and used in a
// server, in a DM with the bot, or in other DMs and group DMs (a user
// install only). Discord takes both for global commands only.
var (
	integrationTypes = []discordgo.ApplicationIntegrationType{
		discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	interactionContexts = []discordgo.InteractionContextType{
		discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
)

// Commands returns the application commands factbot registers, their
// descriptions and the verdict choices in English and localized for every
// Discord locale that has a catalog (bot.LangFor). Each may be used from a
// guild install and a user install, in servers, in the bot's DM and in
// other DMs and group DMs (integration_types and contexts).
func Commands() []*discordgo.ApplicationCommand {
	minCount := float64(1)
	en := bot.English.CommandWords()
	loc := localizations()
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, l := range factcheck.Labels {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: string(l), Value: string(l),
			NameLocalizations: loc(func(lang bot.Lang) string { return lang.Label(l) })})
	}
	desc := func(f func(bot.CommandWords) string) map[discordgo.Locale]string {
		return loc(func(lang bot.Lang) string { return f(lang.CommandWords()) })
	}
	factcheckDesc := desc(func(w bot.CommandWords) string { return w.Factcheck })
	historyDesc := desc(func(w bot.CommandWords) string { return w.History })
	messageName := desc(func(w bot.CommandWords) string { return bot.Truncate(w.Message, maxCommandName) })
	cmds := []*discordgo.ApplicationCommand{
		{
			Name:                     CommandFactcheck,
			Type:                     discordgo.ChatApplicationCommand,
			Description:              en.Factcheck,
			DescriptionLocalizations: &factcheckDesc,
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "text", Description: en.Text, Required: true, MaxLength: 6000,
					DescriptionLocalizations: desc(func(w bot.CommandWords) string { return w.Text })},
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "private", Description: en.Private,
					DescriptionLocalizations: desc(func(w bot.CommandWords) string { return w.Private })},
			},
		},
		{
			Name:                     CommandHistory,
			Type:                     discordgo.ChatApplicationCommand,
			Description:              en.History,
			DescriptionLocalizations: &historyDesc,
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "count", Description: en.Count,
					DescriptionLocalizations: desc(func(w bot.CommandWords) string { return w.Count }),
					MinValue:                 &minCount, MaxValue: bot.MaxHistory},
				{Type: discordgo.ApplicationCommandOptionString, Name: "verdict", Description: en.Verdict, Choices: choices,
					DescriptionLocalizations: desc(func(w bot.CommandWords) string { return w.Verdict })},
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "mine", Description: en.Mine,
					DescriptionLocalizations: desc(func(w bot.CommandWords) string { return w.Mine })},
			},
		},
		{
			Name:              CommandMessage,
			NameLocalizations: &messageName,
			Type:              discordgo.MessageApplicationCommand,
		},
	}
	for _, c := range cmds {
		types, contexts := slices.Clone(integrationTypes), slices.Clone(interactionContexts)
		c.IntegrationTypes, c.Contexts = &types, &contexts
	}
	return cmds
}

// guildCommands are Commands() as registered in one server
// (Config.GuildID): integration_types and contexts are for global commands
// only, so a server's commands are the guild install's alone.
func guildCommands() []*discordgo.ApplicationCommand {
	cmds := Commands()
	for _, c := range cmds {
		c.IntegrationTypes, c.Contexts = nil, nil
	}
	return cmds
}

// Discord's limits on a command's description or a choice's name, and on
// a command's name.
const (
	maxCommandText = 100
	maxCommandName = 32
)

// localizations returns a function giving, for every Discord locale with a
// catalog other than English's, the words f picks in its language.
func localizations() func(f func(bot.Lang) string) map[discordgo.Locale]string {
	var locales []discordgo.Locale
	for l := range discordgo.Locales {
		if l != discordgo.Unknown && bot.LangFor(string(l)).Tag() != bot.English.Tag() {
			locales = append(locales, l)
		}
	}
	slices.Sort(locales)
	return func(f func(bot.Lang) string) map[discordgo.Locale]string {
		m := make(map[discordgo.Locale]string, len(locales))
		for _, l := range locales {
			m[l] = bot.Truncate(f(bot.LangFor(string(l))), maxCommandText)
		}
		return m
	}
}
