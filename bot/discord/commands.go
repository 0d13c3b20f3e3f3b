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

// Commands returns the application commands factbot registers, their
// descriptions and the verdict choices in English and localized for every
// Discord locale that has a catalog (bot.LangFor).
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
	return []*discordgo.ApplicationCommand{
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
