package words

import "github.com/nicksnyder/go-i18n/v2/i18n"

// The words of the pages of Slack's install flow ("Add to Slack",
// bot/slack/oauth.go), in English; the catalogs translate them like every
// other word, and the pages take them by id (Lang.Word) in the installer's
// browser's language.
var installWords = []*i18n.Message{
	{ID: "InstallExpired", Other: "This install link has expired"},
	{ID: "InstallExpiredText", Other: "The installation was started more than {{.Minutes}} minutes ago, so it was not completed and nothing was stored."},
	{ID: "InstallUnverified", Other: "This install request could not be verified"},
	{ID: "InstallTamperedText", Other: "Its state parameter was not issued by this factbot (tampered with, or from another installation), so nothing was stored."},
	{ID: "InstallOtherBrowserText", Other: "It did not come back to the browser that started it, so nothing was stored."},
	{ID: "InstallUsed", Other: "This install link was already used"},
	{ID: "InstallUsedText", Other: "Each install link completes one installation, so nothing was stored."},
	{ID: "InstallFailed", Other: "factbot was not installed"},
	{ID: "InstallSlackSaid", Other: "Slack said: {{.Error}}. Nothing was stored."},
	{ID: "InstallNoCode", Other: "Slack sent no code. Nothing was stored."},
	{ID: "InstallRefused", Other: "Slack did not accept the installation ({{.Error}}). Nothing was stored."},
	{ID: "InstallNoWorkspace", Other: "Slack's answer named no workspace. Nothing was stored."},
	{ID: "InstallNotStored", Other: "The workspace's token could not be stored. Try again; if it persists, the operator should look at factbot's log."},
	{ID: "InstallNotRecorded", Other: "The install could not be recorded, so nothing was stored. Try again; if it persists, the operator should look at factbot's log."},
	{ID: "Installed", Other: "factbot is installed"},
	{ID: "InstalledIn", Other: "factbot is installed in {{.Team}}."},
	{ID: "InstalledEverywhere", Other: "factbot is installed in every workspace of {{.Team}}."},
	{ID: "InstallNext", Other: "What to do next:"},
	{ID: "InstallNextIn", Other: "What to do next in {{.Team}}:"},
	{ID: "InstallInvite", Other: "Invite factbot to a channel:"},
	{ID: "InstallMention", Other: "Mention it with a claim:"},
	{ID: "InstallMentionExample", Other: "The Eiffel Tower is 330 m tall"},
	{ID: "InstallHelp", Other: "See everything it does:"},
	{ID: "InstallAgain", Other: "Start the installation again"},
}
