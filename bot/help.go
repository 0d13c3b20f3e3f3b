package bot

import "github.com/factbot-dev/factbot/bot/words"

// SlackHelp is the answer to Slack's "/factcheck help", command being the
// slash command's name.
func (l Lang) SlackHelp(command string) string {
	return l.Text(words.HelpSlack, map[string]any{"Command": command, "Usage": HistoryUsage})
}

// CommandWords are the descriptions of Discord's application commands and
// their options, and the message command's name.
type CommandWords struct {
	Factcheck, Text, Private, History, Count, Verdict, Mine string
	Message                                                 string
}

// CommandWords are the command descriptions in l.
func (l Lang) CommandWords() CommandWords {
	return CommandWords{
		Factcheck: l.Text(words.CommandFactcheck, nil), Text: l.Text(words.CommandText, nil), Private: l.Text(words.CommandPrivate, nil),
		History: l.Text(words.CommandHistory, nil), Verdict: l.Text(words.CommandVerdict, nil), Mine: l.Text(words.CommandMine, nil),
		Count:   l.Text(words.CommandCount, map[string]any{"Max": MaxHistory, "Default": DefaultHistory}),
		Message: l.Text(words.CommandMessage, nil),
	}
}
