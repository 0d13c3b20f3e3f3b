package discord

import (
	"fmt"

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

// Commands returns the application commands factbot registers.
func Commands() []*discordgo.ApplicationCommand {
	minCount := float64(1)
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, l := range factcheck.Labels {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: string(l), Value: string(l)})
	}
	return []*discordgo.ApplicationCommand{
		{
			Name:        CommandFactcheck,
			Type:        discordgo.ChatApplicationCommand,
			Description: "Fact-check a claim or a paragraph",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "text", Description: "The claim or paragraph to check", Required: true, MaxLength: 6000},
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "private", Description: "Show the answer to you only"},
			},
		},
		{
			Name:        CommandHistory,
			Type:        discordgo.ChatApplicationCommand,
			Description: "This server's latest fact-checks (shown to you only)",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "count", Description: fmt.Sprintf("How many (1-%d, default %d)", bot.MaxHistory, bot.DefaultHistory),
					MinValue: &minCount, MaxValue: bot.MaxHistory},
				{Type: discordgo.ApplicationCommandOptionString, Name: "verdict", Description: "Only checks with this verdict", Choices: choices},
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "mine", Description: "Only your own checks"},
			},
		},
		{
			Name: CommandMessage,
			Type: discordgo.MessageApplicationCommand,
		},
	}
}
