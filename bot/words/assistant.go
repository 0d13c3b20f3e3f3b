package words

import "github.com/nicksnyder/go-i18n/v2/i18n"

// The words of Slack's assistant (bot/slack/assistant.go): the suggested
// prompts, the status line while a check runs, the feedback buttons.
var (
	AssistantPrompts = &i18n.Message{ID: "AssistantPrompts", Other: "What should I check?"}
	// PromptClaim's message is sent as the person's message when they
	// click it: an example claim, checked like any other.
	PromptClaimTitle   = &i18n.Message{ID: "PromptClaimTitle", Other: "Check a claim"}
	PromptClaimMessage = &i18n.Message{ID: "PromptClaimMessage", Other: "The Great Wall of China is visible from space with the naked eye."}
	// PromptLook's message names the channel the person is viewing
	// ({{.Channel}} is Slack's <#C…> reference); the adapter recognises it.
	PromptLookTitle   = &i18n.Message{ID: "PromptLookTitle", Other: "Check the message I'm looking at"}
	PromptLookMessage = &i18n.Message{ID: "PromptLookMessage", Other: "Check the latest message in {{.Channel}}"}
	// The status line: what the research is doing.
	StatusChecking  = &i18n.Message{ID: "StatusChecking", Other: "is checking…"}
	StatusSearching = &i18n.Message{ID: "StatusSearching", Other: "is searching “{{.Query}}”…"}
	StatusReading   = &i18n.Message{ID: "StatusReading", Other: "is reading {{.Site}}…"}
	LoadingClaims   = &i18n.Message{ID: "LoadingClaims", Other: "Finding the claims…"}
	LoadingSources  = &i18n.Message{ID: "LoadingSources", Other: "Looking for sources…"}
	LoadingWeighing = &i18n.Message{ID: "LoadingWeighing", Other: "Weighing the evidence…"}
	// A task card's title: one claim.
	TaskClaim = &i18n.Message{ID: "TaskClaim", Other: "Claim {{.N}}: {{.Claim}}"}
	// The feedback buttons' labels (shown on hover, read by screen readers).
	FeedbackGood = &i18n.Message{ID: "FeedbackGood", Other: "Good verdict"}
	FeedbackBad  = &i18n.Message{ID: "FeedbackBad", Other: "Wrong verdict"}
)

// assistantWords are the assistant's messages, in every catalog.
var assistantWords = []*i18n.Message{
	AssistantPrompts, PromptClaimTitle, PromptClaimMessage, PromptLookTitle, PromptLookMessage,
	StatusChecking, StatusSearching, StatusReading, LoadingClaims, LoadingSources, LoadingWeighing,
	TaskClaim, FeedbackGood, FeedbackBad,
}
