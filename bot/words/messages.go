package words

import "github.com/nicksnyder/go-i18n/v2/i18n"

// The English wording of the apologies any part may show as they are;
// every language's is in the catalogs.
const (
	// MsgNotStored answers a request that could not be stored.
	MsgNotStored = "Sorry, I could not take this request right now. Please try again in a moment."
	// MsgInternal is the fixed apology for any failure whose text is not
	// safe to show.
	MsgInternal = "Sorry, something went wrong on factbot's side. It has been logged; please try again later."
)

// The words of the reports, in English. Every other language's catalog
// (locales/*.json) translates each of these ids (and webWords'); TestCatalogsComplete
// holds them to it. Text in {{…}} is filled in by the code.
var (
	LabelSupported    = &i18n.Message{ID: "LabelSupported", Other: "Supported"}
	LabelContradicted = &i18n.Message{ID: "LabelContradicted", Other: "Contradicted"}
	LabelContested    = &i18n.Message{ID: "LabelContested", Other: "Contested"}
	LabelUnverifiable = &i18n.Message{ID: "LabelUnverifiable", Other: "Unverifiable"}
	LabelChecking     = &i18n.Message{ID: "LabelChecking", Other: "Checking…"}

	ConfidenceHigh   = &i18n.Message{ID: "ConfidenceHigh", Other: "high confidence"}
	ConfidenceMedium = &i18n.Message{ID: "ConfidenceMedium", Other: "medium confidence"}
	ConfidenceLow    = &i18n.Message{ID: "ConfidenceLow", Other: "low confidence"}

	StanceSupports = &i18n.Message{ID: "StanceSupports", Other: "supports"}
	StanceRefutes  = &i18n.Message{ID: "StanceRefutes", Other: "refutes"}
	StanceContext  = &i18n.Message{ID: "StanceContext", Other: "context"}

	// Where a quote was found (QuoteNote), in plain words.
	QuoteOnPage    = &i18n.Message{ID: "QuoteOnPage", Other: "quote found on the page"}
	QuoteOnPDFPage = &i18n.Message{ID: "QuoteOnPDFPage", Other: "quote found on page {{.Page}} of the PDF"}
	QuoteInPDF     = &i18n.Message{ID: "QuoteInPDF", Other: "quote found in the PDF"}
	QuoteSnippet   = &i18n.Message{ID: "QuoteSnippet", Other: "quote seen only in the search result's preview, not on the page itself"}
	QuoteTitle     = &i18n.Message{ID: "QuoteTitle", Other: "quote seen only in the page's title"}
	QuoteTitleOnly = &i18n.Message{ID: "QuoteTitleOnly", Other: "seen only in the page's title, which carries no stance"}
	QuoteSummary   = &i18n.Message{ID: "QuoteSummary", Other: "a search summary written by a model, not the source's own words"}
	QuoteRetrieved = &i18n.Message{ID: "QuoteRetrieved", Other: "quote found in the text that was read"} // a record older than places
	QuoteNotFound  = &i18n.Message{ID: "QuoteNotFound", Other: "quote not found in what was read"}

	CachedOn = &i18n.Message{ID: "CachedOn", Other: "cached, checked {{.Date}}"}
	// MatchedOn says a claim was answered from an earlier check of the
	// same claim in other words (claim matching): when, and its words.
	MatchedOn = &i18n.Message{ID: "MatchedOn", Other: "checked before, on {{.Date}}, as “{{.Claim}}”"}
	// Budgets that ended a run (Lang.Stopped).
	StoppedSteps    = &i18n.Message{ID: "StoppedSteps", Other: "stopped early: the step limit was reached"}
	StoppedSearches = &i18n.Message{ID: "StoppedSearches", Other: "stopped early: the search limit was reached"}
	StoppedReads    = &i18n.Message{ID: "StoppedReads", Other: "stopped early: the page-reading limit was reached"}
	StoppedTokens   = &i18n.Message{ID: "StoppedTokens", Other: "stopped early: the text limit was reached"}
	StoppedTime     = &i18n.Message{ID: "StoppedTime", Other: "stopped early: the time limit was reached"}
	StoppedOther    = &i18n.Message{ID: "StoppedOther", Other: "stopped early: the {{.Budget}} limit was reached"}

	MoreSources        = &i18n.Message{ID: "MoreSources", One: "+{{.Count}} more source", Other: "+{{.Count}} more sources"}
	MoreClaims         = &i18n.Message{ID: "MoreClaims", One: "+{{.Count}} more claim", Other: "+{{.Count}} more claims"}
	MoreClaimsInReport = &i18n.Message{ID: "MoreClaimsInReport", One: "+{{.Count}} more claim in the full report", Other: "+{{.Count}} more claims in the full report"}
	SourcesInReport    = &i18n.Message{ID: "SourcesInReport", Other: "in the full report"}
	SourcesNotShown    = &i18n.Message{ID: "SourcesNotShown", Other: "not shown here"}
	SourceLink         = &i18n.Message{ID: "SourceLink", Other: "source"}

	TitleClaims    = &i18n.Message{ID: "TitleClaims", One: "Fact-check: {{.Count}} claim", Other: "Fact-check: {{.Count}} claims"}
	TitleNoClaims  = &i18n.Message{ID: "TitleNoClaims", Other: "Fact-check: no checkable claims found"}
	NoticeNoClaims = &i18n.Message{ID: "NoticeNoClaims", Other: "I found no factual claim to check in that text. Try a concrete statement, e.g. \"The Eiffel Tower is 330 m tall.\""}
	TitleChecking  = &i18n.Message{ID: "TitleChecking", Other: "Checking…"}
	TitleProgress  = &i18n.Message{ID: "TitleProgress", One: "Checking {{.Count}} claim… ({{.Done}} done)", Other: "Checking {{.Count}} claims… ({{.Done}} done)"}
	TitleFailed    = &i18n.Message{ID: "TitleFailed", Other: "Fact-check failed"}
	ClaimPending   = &i18n.Message{ID: "ClaimPending", Other: "Claim {{.N}} — checking…"}
	ClaimFailed    = &i18n.Message{ID: "ClaimFailed", Other: "This claim could not be checked."}
	// Why (factcheck.Verdict.Failed).
	ClaimFailedModel       = &i18n.Message{ID: "ClaimFailedModel", Other: "This claim could not be checked: the model could not be reached."}
	ClaimFailedRateLimited = &i18n.Message{ID: "ClaimFailedRateLimited", Other: "This claim could not be checked: the model's rate limit was reached."}
	ClaimFailedCancelled   = &i18n.Message{ID: "ClaimFailedCancelled", Other: "This claim could not be checked: the check was cancelled."}
	FromPicture            = &i18n.Message{ID: "FromPicture", Other: "(read from picture {{.N}})"}

	// The notification text of a report of several claims (Summary).
	Summary           = &i18n.Message{ID: "Summary", One: "{{.Count}} claim: {{.Counts}}", Other: "{{.Count}} claims: {{.Counts}}"}
	CountSupported    = &i18n.Message{ID: "CountSupported", One: "{{.Count}} supported", Other: "{{.Count}} supported"}
	CountContradicted = &i18n.Message{ID: "CountContradicted", One: "{{.Count}} contradicted", Other: "{{.Count}} contradicted"}
	CountContested    = &i18n.Message{ID: "CountContested", One: "{{.Count}} contested", Other: "{{.Count}} contested"}
	CountUnverifiable = &i18n.Message{ID: "CountUnverifiable", One: "{{.Count}} unverifiable", Other: "{{.Count}} unverifiable"}
	ListSeparator     = &i18n.Message{ID: "ListSeparator", Other: ", "}

	AskedBy      = &i18n.Message{ID: "AskedBy", Other: "Asked by {{.User}}"}
	NotCheckable = &i18n.Message{ID: "NotCheckable", Other: "Not checked"}
	CheckRef     = &i18n.Message{ID: "CheckRef", Other: "Check {{.ID}}"}

	ButtonRecheck     = &i18n.Message{ID: "ButtonRecheck", Other: "Check again"}
	ButtonWrong       = &i18n.Message{ID: "ButtonWrong", Other: "Wrong verdict?"}
	ButtonFullReport  = &i18n.Message{ID: "ButtonFullReport", Other: "Full report"}
	ButtonOpenHistory = &i18n.Message{ID: "ButtonOpenHistory", Other: "Open history"}

	// Why a check failed (checkMessage).
	CheckInternal    = &i18n.Message{ID: "CheckInternal", Other: "Sorry, the check failed because of an internal error. It has been logged; please try again later."}
	CheckTimeout     = &i18n.Message{ID: "CheckTimeout", Other: "Sorry, the check took too long and was stopped. Try a shorter text, or try again later."}
	CheckRateLimited = &i18n.Message{ID: "CheckRateLimited", Other: "Sorry, the model or search service is rate limiting factbot right now. Try again in a few minutes."}
	CheckGivenUp     = &i18n.Message{ID: "CheckGivenUp", Other: "Sorry, this check failed repeatedly and was given up. Please try again."}
	RecheckNotFound  = &i18n.Message{ID: "RecheckNotFound", Other: "I could not find that earlier check to repeat it."}
	// Busy and BusyWait refuse a request when the queue is full: {{.Waiting}}
	// checks wait in it; BusyWait says about how long they take
	// ({{.Count}} minutes), when the checks so far tell.
	Busy     = &i18n.Message{ID: "Busy", Other: "Sorry, factbot has too many checks waiting right now ({{.Waiting}} in the queue). Please try again in a few minutes."}
	BusyWait = &i18n.Message{ID: "BusyWait", One: "Sorry, factbot has too many checks waiting right now ({{.Waiting}} in the queue, about a minute of work). Please try again in a minute.", Other: "Sorry, factbot has too many checks waiting right now ({{.Waiting}} in the queue, about {{.Count}} minutes of work). Please try again in {{.Count}} minutes."}

	// The notes that acknowledge a command, and the feedback form.
	AckPrivate       = &i18n.Message{ID: "AckPrivate", Other: "Checking… only you will see the report."}
	AckChannel       = &i18n.Message{ID: "AckChannel", Other: "Checking… the report will appear in this channel."}
	AckReply         = &i18n.Message{ID: "AckReply", Other: "Checking that message… the report will appear as a reply to it."}
	FeedbackQuestion = &i18n.Message{ID: "FeedbackQuestion", Other: "What is wrong? (optional)"}
	FeedbackExample  = &i18n.Message{ID: "FeedbackExample", Other: "e.g. the second source says the opposite"}

	// History answers (HistoryTitle, HistoryEmpty); Where names the tenant.
	HistoryLatest  = &i18n.Message{ID: "HistoryLatest", Other: "Latest checks in {{.Where}}"}
	HistoryYours   = &i18n.Message{ID: "HistoryYours", Other: "Your latest checks in {{.Where}}"}
	HistoryEmpty   = &i18n.Message{ID: "HistoryEmpty", Other: "No checks yet in {{.Where}}."}
	HistoryCached  = &i18n.Message{ID: "HistoryCached", Other: "(cached)"}
	WhereWorkspace = &i18n.Message{ID: "WhereWorkspace", Other: "this workspace"}
	WhereServer    = &i18n.Message{ID: "WhereServer", Other: "this server"}
	WhereDMs       = &i18n.Message{ID: "WhereDMs", Other: "our direct messages"}

	// The refusals of the limits (admission.go): {{.Window}} is a
	// WindowHours or WindowMinutes, {{.Time}} the next time one is allowed.
	UserLimit     = &i18n.Message{ID: "UserLimit", Other: "You have reached your limit of checks ({{.Count}} per {{.Window}}). Try again after {{.Time}} UTC."}
	TenantLimit   = &i18n.Message{ID: "TenantLimit", Other: "Sorry, this workspace or server has reached its limit of checks ({{.Count}} per {{.Window}}, for everyone together). Try again after {{.Time}} UTC."}
	WindowHours   = &i18n.Message{ID: "WindowHours", One: "hour", Other: "{{.Count}} hours"}
	WindowMinutes = &i18n.Message{ID: "WindowMinutes", One: "minute", Other: "{{.Count}} minutes"}

	// The answers to a "Wrong verdict?" (Service.Feedback).
	FeedbackThanks   = &i18n.Message{ID: "FeedbackThanks", Other: "Thank you — your feedback was recorded with check {{.ID}}."}
	FeedbackFull     = &i18n.Message{ID: "FeedbackFull", Other: "Thank you — this check already has all the feedback it can take from you."}
	FeedbackLimit    = &i18n.Message{ID: "FeedbackLimit", Other: "Thank you, but you have sent a lot of feedback lately, so this one was not recorded. Please try again later."}
	FeedbackNotFound = &i18n.Message{ID: "FeedbackNotFound", Other: "I could not find that check any more, so the feedback was not recorded."}
	FeedbackFailed   = &i18n.Message{ID: "FeedbackFailed", Other: "Sorry, I could not record your feedback right now. Please try again."}

	// Apologies and refusals (Lang.UserMessage): a request not stored, an
	// internal error, history, the message asked about, a check not saved.
	NotStored         = &i18n.Message{ID: "NotStored", Other: MsgNotStored}
	Internal          = &i18n.Message{ID: "Internal", Other: MsgInternal}
	HistoryFailed     = &i18n.Message{ID: "HistoryFailed", Other: "Sorry, I could not load the history right now."}
	HistoryArgs       = &i18n.Message{ID: "HistoryArgs", Other: "I did not understand {{.Word}}. History takes {{.Usage}}."}
	UnknownVerdict    = &i18n.Message{ID: "UnknownVerdict", Other: "Unknown verdict {{.Verdict}}; use supported, contradicted, contested or unverifiable."}
	UnknownCommand    = &i18n.Message{ID: "UnknownCommand", Other: "Unknown command."}
	MessageUnreadable = &i18n.Message{ID: "MessageUnreadable", Other: "I could not read that message: it may have been deleted, or I cannot see its channel."}
	MessageNotFound   = &i18n.Message{ID: "MessageNotFound", Other: "I could not find that message: it may have been deleted, or I cannot see it."}
	OwnMessage        = &i18n.Message{ID: "OwnMessage", Other: "That is one of my own messages: I check what people post."}
	NotSaved          = &i18n.Message{ID: "NotSaved", Other: "factbot could not save this check yet (its storage is failing) and keeps trying; once saved, this answer gets its full-report link and shows in history."}

	// Attachments not read: by the core (attachments.go), by the engine
	// (factcheck.Attachment.NoteCode).
	AttachmentType         = &i18n.Message{ID: "AttachmentType", Other: "{{.Name}} was not read: only PNG, JPEG, WebP and GIF pictures and PDFs are."}
	AttachmentSize         = &i18n.Message{ID: "AttachmentSize", Other: "{{.Name}} was not read: it is over {{.Max}} MB."}
	AttachmentCount        = &i18n.Message{ID: "AttachmentCount", Other: "{{.Name}} was not read: at most {{.Max}} attachments are read per message."}
	AttachmentFailed       = &i18n.Message{ID: "AttachmentFailed", Other: "{{.Name}} could not be downloaded."}
	AttachmentNoPictures   = &i18n.Message{ID: "AttachmentNoPictures", Other: "{{.Name}}: the model does not read pictures"}
	AttachmentPDFUnread    = &i18n.Message{ID: "AttachmentPDFUnread", Other: "{{.Name}}: the PDF could not be read"}
	AttachmentNotPictOrPDF = &i18n.Message{ID: "AttachmentNotPictureOrPDF", Other: "{{.Name}}: not a picture or a PDF"}

	// Input the engine refuses (factcheck.InputError).
	InputEmpty          = &i18n.Message{ID: "InputEmpty", Other: "There is nothing to check: send a statement, e.g. \"The Great Wall of China is visible from space\"."}
	InputTooLong        = &i18n.Message{ID: "InputTooLong", Other: "The text is too long to check ({{.Chars}} characters; the limit is {{.Max}}). Send the part you want checked."}
	InputUnreadable     = &i18n.Message{ID: "InputUnreadable", Other: "There is nothing to check: the message has no text, and its attachments could not be read ({{.Notes}})."}
	InputLinkNoReader   = &i18n.Message{ID: "InputLinkNoReader", Other: "The message is only a link, and page reading is not configured. Paste the claim's text instead."}
	InputLinkUnreadable = &i18n.Message{ID: "InputLinkUnreadable", Other: "The message is only a link, and the page could not be read ({{.Why}}). Paste the claim's text instead."}
	InputLinkEmpty      = &i18n.Message{ID: "InputLinkEmpty", Other: "The message is only a link, and the page has no readable text. Paste the claim's text instead."}

	// The engine's notices (factcheck.Note) and the reasons it writes for
	// sentences not checked (factcheck.NotCheckable.Code).
	NoteLinkOnly       = &i18n.Message{ID: "NoteLinkOnly", Other: "The message was only a link, so the claims of that page were checked: {{.Title}}"}
	NoteClaimsOver     = &i18n.Message{ID: "NoteClaimsOverLimit", Other: "Only the first {{.Max}} of {{.Total}} claims were checked; send the rest separately."}
	NotePicturesUnread = &i18n.Message{ID: "NotePicturesUnread", One: "{{.Count}} picture was not read: the model {{.Model}} does not read pictures.", Other: "{{.Count}} pictures were not read: the model {{.Model}} does not read pictures."}
	ReasonOverLimit    = &i18n.Message{ID: "ReasonOverLimit", Other: "not checked: at most {{.Max}} claims are checked per request"}
	ReasonNotFact      = &i18n.Message{ID: "ReasonNotFact", Other: "not a checkable statement of fact"}

	// Help: Slack's /factcheck help, Discord's command descriptions.
	HelpSlack = &i18n.Message{ID: "HelpSlack", Other: "*factbot checks facts.*\n" +
		"• Mention me with a claim: `@factbot The Eiffel Tower is 330 m tall` — I answer in the thread.\n" +
		"• `{{.Command}} <text>` — check a paragraph; the report appears in this channel.\n" +
		"• `{{.Command}} private <text>` — only you see the report.\n" +
		"• `{{.Command}} history {{.Usage}}` — this workspace's latest checks (yours with `mine`), visible to you only.\n" +
		"• Message menu → *Fact-check this message* — the report in that message's thread.\n" +
		"Under each report: *Check again* ignores the cache; *Wrong verdict?* tells the maintainers."}
	CommandFactcheck = &i18n.Message{ID: "CommandFactcheck", Other: "Fact-check a claim or a paragraph"}
	CommandMessage   = &i18n.Message{ID: "CommandMessage", Other: "Fact-check"} // the message command's name (1-32 characters)
	CommandText      = &i18n.Message{ID: "CommandText", Other: "The claim or paragraph to check"}
	CommandPrivate   = &i18n.Message{ID: "CommandPrivate", Other: "Show the answer to you only"}
	CommandHistory   = &i18n.Message{ID: "CommandHistory", Other: "This server's latest fact-checks (shown to you only)"}
	CommandCount     = &i18n.Message{ID: "CommandCount", Other: "How many (1-{{.Max}}, default {{.Default}})"}
	CommandVerdict   = &i18n.Message{ID: "CommandVerdict", Other: "Only checks with this verdict"}
	CommandMine      = &i18n.Message{ID: "CommandMine", Other: "Only your own checks"}
)

// messages is every message of the catalogs but the web view's.
var messages = []*i18n.Message{
	LabelSupported, LabelContradicted, LabelContested, LabelUnverifiable, LabelChecking,
	ConfidenceHigh, ConfidenceMedium, ConfidenceLow, StanceSupports, StanceRefutes, StanceContext,
	QuoteOnPage, QuoteOnPDFPage, QuoteInPDF, QuoteSnippet, QuoteTitle, QuoteTitleOnly, QuoteSummary,
	QuoteRetrieved, QuoteNotFound,
	CachedOn, MatchedOn, StoppedSteps, StoppedSearches, StoppedReads, StoppedTokens, StoppedTime, StoppedOther,
	MoreSources, MoreClaims, MoreClaimsInReport, SourcesInReport, SourcesNotShown, SourceLink,
	TitleClaims, TitleNoClaims, NoticeNoClaims, TitleChecking, TitleProgress, TitleFailed, ClaimPending, ClaimFailed, FromPicture,
	Summary, CountSupported, CountContradicted, CountContested, CountUnverifiable, ListSeparator,
	AskedBy, NotCheckable, CheckRef,
	ButtonRecheck, ButtonWrong, ButtonFullReport, ButtonOpenHistory,
	CheckInternal, CheckTimeout, CheckRateLimited, CheckGivenUp, RecheckNotFound, Busy, BusyWait,
	AckPrivate, AckChannel, AckReply, FeedbackQuestion, FeedbackExample,
	HistoryLatest, HistoryYours, HistoryEmpty, HistoryCached, WhereWorkspace, WhereServer, WhereDMs,
	UserLimit, TenantLimit, WindowHours, WindowMinutes,
	FeedbackThanks, FeedbackFull, FeedbackLimit, FeedbackNotFound, FeedbackFailed,
	NotStored, Internal, HistoryFailed, HistoryArgs, UnknownVerdict, UnknownCommand,
	MessageUnreadable, MessageNotFound, OwnMessage, NotSaved,
	AttachmentType, AttachmentSize, AttachmentCount, AttachmentFailed,
	AttachmentNoPictures, AttachmentPDFUnread, AttachmentNotPictOrPDF,
	InputEmpty, InputTooLong, InputUnreadable, InputLinkNoReader, InputLinkUnreadable, InputLinkEmpty,
	NoteLinkOnly, NoteClaimsOver, NotePicturesUnread, ReasonOverLimit, ReasonNotFact,
	ClaimFailedModel, ClaimFailedRateLimited, ClaimFailedCancelled, CommandMessage,
	HelpSlack, CommandFactcheck, CommandText, CommandPrivate, CommandHistory, CommandCount, CommandVerdict, CommandMine,
}
