package bot

import "github.com/nicksnyder/go-i18n/v2/i18n"

// The words of the reports, in English. Every other language's catalog
// (locales/*.json) translates each of these ids; TestCatalogsComplete
// holds them to it. Text in {{…}} is filled in by the code.
var (
	wLabelSupported    = &i18n.Message{ID: "LabelSupported", Other: "Supported"}
	wLabelContradicted = &i18n.Message{ID: "LabelContradicted", Other: "Contradicted"}
	wLabelContested    = &i18n.Message{ID: "LabelContested", Other: "Contested"}
	wLabelUnverifiable = &i18n.Message{ID: "LabelUnverifiable", Other: "Unverifiable"}
	wLabelChecking     = &i18n.Message{ID: "LabelChecking", Other: "Checking…"}

	wConfidenceHigh   = &i18n.Message{ID: "ConfidenceHigh", Other: "high confidence"}
	wConfidenceMedium = &i18n.Message{ID: "ConfidenceMedium", Other: "medium confidence"}
	wConfidenceLow    = &i18n.Message{ID: "ConfidenceLow", Other: "low confidence"}

	wStanceSupports = &i18n.Message{ID: "StanceSupports", Other: "supports"}
	wStanceRefutes  = &i18n.Message{ID: "StanceRefutes", Other: "refutes"}
	wStanceContext  = &i18n.Message{ID: "StanceContext", Other: "context"}

	// Where a quote was found (QuoteNote), in plain words.
	wQuoteOnPage    = &i18n.Message{ID: "QuoteOnPage", Other: "quote found on the page"}
	wQuoteOnPDFPage = &i18n.Message{ID: "QuoteOnPDFPage", Other: "quote found on page {{.Page}} of the PDF"}
	wQuoteInPDF     = &i18n.Message{ID: "QuoteInPDF", Other: "quote found in the PDF"}
	wQuoteSnippet   = &i18n.Message{ID: "QuoteSnippet", Other: "quote seen only in the search result's preview, not on the page itself"}
	wQuoteTitle     = &i18n.Message{ID: "QuoteTitle", Other: "quote seen only in the page's title"}
	wQuoteTitleOnly = &i18n.Message{ID: "QuoteTitleOnly", Other: "seen only in the page's title, which carries no stance"}
	wQuoteSummary   = &i18n.Message{ID: "QuoteSummary", Other: "a search summary written by a model, not the source's own words"}
	wQuoteRetrieved = &i18n.Message{ID: "QuoteRetrieved", Other: "quote found in the text that was read"} // a record older than places
	wQuoteNotFound  = &i18n.Message{ID: "QuoteNotFound", Other: "quote not found in what was read"}

	wCachedOn = &i18n.Message{ID: "CachedOn", Other: "cached, checked {{.Date}}"}
	// Budgets that ended a run (StoppedText).
	wStoppedSteps    = &i18n.Message{ID: "StoppedSteps", Other: "stopped early: the step limit was reached"}
	wStoppedSearches = &i18n.Message{ID: "StoppedSearches", Other: "stopped early: the search limit was reached"}
	wStoppedReads    = &i18n.Message{ID: "StoppedReads", Other: "stopped early: the page-reading limit was reached"}
	wStoppedTokens   = &i18n.Message{ID: "StoppedTokens", Other: "stopped early: the text limit was reached"}
	wStoppedTime     = &i18n.Message{ID: "StoppedTime", Other: "stopped early: the time limit was reached"}
	wStoppedOther    = &i18n.Message{ID: "StoppedOther", Other: "stopped early: the {{.Budget}} limit was reached"}

	wMoreSources        = &i18n.Message{ID: "MoreSources", One: "+{{.Count}} more source", Other: "+{{.Count}} more sources"}
	wMoreClaims         = &i18n.Message{ID: "MoreClaims", One: "+{{.Count}} more claim", Other: "+{{.Count}} more claims"}
	wMoreClaimsInReport = &i18n.Message{ID: "MoreClaimsInReport", One: "+{{.Count}} more claim in the full report", Other: "+{{.Count}} more claims in the full report"}
	wSourcesInReport    = &i18n.Message{ID: "SourcesInReport", Other: "in the full report"}
	wSourcesNotShown    = &i18n.Message{ID: "SourcesNotShown", Other: "not shown here"}
	wSourceLink         = &i18n.Message{ID: "SourceLink", Other: "source"}

	wTitleClaims    = &i18n.Message{ID: "TitleClaims", One: "Fact-check: {{.Count}} claim", Other: "Fact-check: {{.Count}} claims"}
	wTitleNoClaims  = &i18n.Message{ID: "TitleNoClaims", Other: "Fact-check: no checkable claims found"}
	wNoticeNoClaims = &i18n.Message{ID: "NoticeNoClaims", Other: "I found no factual claim to check in that text. Try a concrete statement, e.g. \"The Eiffel Tower is 330 m tall.\""}
	wTitleChecking  = &i18n.Message{ID: "TitleChecking", Other: "Checking…"}
	wTitleProgress  = &i18n.Message{ID: "TitleProgress", One: "Checking {{.Count}} claim… ({{.Done}} done)", Other: "Checking {{.Count}} claims… ({{.Done}} done)"}
	wTitleFailed    = &i18n.Message{ID: "TitleFailed", Other: "Fact-check failed"}
	wClaimPending   = &i18n.Message{ID: "ClaimPending", Other: "Claim {{.N}} — checking…"}
	wClaimFailed    = &i18n.Message{ID: "ClaimFailed", Other: "This claim could not be checked."}
	// Why (factcheck.Verdict.Failed).
	wClaimFailedModel       = &i18n.Message{ID: "ClaimFailedModel", Other: "This claim could not be checked: the model could not be reached."}
	wClaimFailedRateLimited = &i18n.Message{ID: "ClaimFailedRateLimited", Other: "This claim could not be checked: the model's rate limit was reached."}
	wClaimFailedCancelled   = &i18n.Message{ID: "ClaimFailedCancelled", Other: "This claim could not be checked: the check was cancelled."}
	wFromPicture            = &i18n.Message{ID: "FromPicture", Other: "(read from picture {{.N}})"}

	// The notification text of a report of several claims (Summary).
	wSummary           = &i18n.Message{ID: "Summary", One: "{{.Count}} claim: {{.Counts}}", Other: "{{.Count}} claims: {{.Counts}}"}
	wCountSupported    = &i18n.Message{ID: "CountSupported", One: "{{.Count}} supported", Other: "{{.Count}} supported"}
	wCountContradicted = &i18n.Message{ID: "CountContradicted", One: "{{.Count}} contradicted", Other: "{{.Count}} contradicted"}
	wCountContested    = &i18n.Message{ID: "CountContested", One: "{{.Count}} contested", Other: "{{.Count}} contested"}
	wCountUnverifiable = &i18n.Message{ID: "CountUnverifiable", One: "{{.Count}} unverifiable", Other: "{{.Count}} unverifiable"}
	wListSeparator     = &i18n.Message{ID: "ListSeparator", Other: ", "}

	wAskedBy      = &i18n.Message{ID: "AskedBy", Other: "Asked by {{.User}}"}
	wNotCheckable = &i18n.Message{ID: "NotCheckable", Other: "Not checked"}
	wCheckRef     = &i18n.Message{ID: "CheckRef", Other: "Check {{.ID}}"}

	wButtonRecheck     = &i18n.Message{ID: "ButtonRecheck", Other: "Check again"}
	wButtonWrong       = &i18n.Message{ID: "ButtonWrong", Other: "Wrong verdict?"}
	wButtonFullReport  = &i18n.Message{ID: "ButtonFullReport", Other: "Full report"}
	wButtonOpenHistory = &i18n.Message{ID: "ButtonOpenHistory", Other: "Open history"}

	// Why a check failed (checkMessage).
	wCheckInternal    = &i18n.Message{ID: "CheckInternal", Other: "Sorry, the check failed because of an internal error. It has been logged; please try again later."}
	wCheckTimeout     = &i18n.Message{ID: "CheckTimeout", Other: "Sorry, the check took too long and was stopped. Try a shorter text, or try again later."}
	wCheckRateLimited = &i18n.Message{ID: "CheckRateLimited", Other: "Sorry, the model or search service is rate limiting factbot right now. Try again in a few minutes."}
	wCheckGivenUp     = &i18n.Message{ID: "CheckGivenUp", Other: "Sorry, this check failed repeatedly and was given up. Please try again."}
	wRecheckNotFound  = &i18n.Message{ID: "RecheckNotFound", Other: "I could not find that earlier check to repeat it."}
	wBusy             = &i18n.Message{ID: "Busy", Other: "Sorry, factbot has too many checks waiting right now. Please try again in a few minutes."}

	// The notes that acknowledge a command, and the feedback form.
	wAckPrivate       = &i18n.Message{ID: "AckPrivate", Other: "Checking… only you will see the report."}
	wAckChannel       = &i18n.Message{ID: "AckChannel", Other: "Checking… the report will appear in this channel."}
	wAckReply         = &i18n.Message{ID: "AckReply", Other: "Checking that message… the report will appear as a reply to it."}
	wFeedbackQuestion = &i18n.Message{ID: "FeedbackQuestion", Other: "What is wrong? (optional)"}
	wFeedbackExample  = &i18n.Message{ID: "FeedbackExample", Other: "e.g. the second source says the opposite"}

	// History answers (HistoryTitle, HistoryEmpty); Where names the tenant.
	wHistoryLatest  = &i18n.Message{ID: "HistoryLatest", Other: "Latest checks in {{.Where}}"}
	wHistoryYours   = &i18n.Message{ID: "HistoryYours", Other: "Your latest checks in {{.Where}}"}
	wHistoryEmpty   = &i18n.Message{ID: "HistoryEmpty", Other: "No checks yet in {{.Where}}."}
	wHistoryCached  = &i18n.Message{ID: "HistoryCached", Other: "(cached)"}
	wWhereWorkspace = &i18n.Message{ID: "WhereWorkspace", Other: "this workspace"}
	wWhereServer    = &i18n.Message{ID: "WhereServer", Other: "this server"}
	wWhereDMs       = &i18n.Message{ID: "WhereDMs", Other: "our direct messages"}

	// The refusals of the limits (admission.go): {{.Window}} is a
	// WindowHours or WindowMinutes, {{.Time}} the next time one is allowed.
	wUserLimit     = &i18n.Message{ID: "UserLimit", Other: "You have reached your limit of checks ({{.Count}} per {{.Window}}). Try again after {{.Time}} UTC."}
	wTenantLimit   = &i18n.Message{ID: "TenantLimit", Other: "Sorry, this workspace or server has reached its limit of checks ({{.Count}} per {{.Window}}, for everyone together). Try again after {{.Time}} UTC."}
	wWindowHours   = &i18n.Message{ID: "WindowHours", One: "hour", Other: "{{.Count}} hours"}
	wWindowMinutes = &i18n.Message{ID: "WindowMinutes", One: "minute", Other: "{{.Count}} minutes"}

	// The answers to a "Wrong verdict?" (Service.Feedback).
	wFeedbackThanks   = &i18n.Message{ID: "FeedbackThanks", Other: "Thank you — your feedback was recorded with check {{.ID}}."}
	wFeedbackFull     = &i18n.Message{ID: "FeedbackFull", Other: "Thank you — this check already has all the feedback it can take from you."}
	wFeedbackLimit    = &i18n.Message{ID: "FeedbackLimit", Other: "Thank you, but you have sent a lot of feedback lately, so this one was not recorded. Please try again later."}
	wFeedbackNotFound = &i18n.Message{ID: "FeedbackNotFound", Other: "I could not find that check any more, so the feedback was not recorded."}
	wFeedbackFailed   = &i18n.Message{ID: "FeedbackFailed", Other: "Sorry, I could not record your feedback right now. Please try again."}

	// Apologies and refusals (Lang.UserMessage): a request not stored, an
	// internal error, history, the message asked about, a check not saved.
	wNotStored         = &i18n.Message{ID: "NotStored", Other: MsgNotStored}
	wInternal          = &i18n.Message{ID: "Internal", Other: MsgInternal}
	wHistoryFailed     = &i18n.Message{ID: "HistoryFailed", Other: "Sorry, I could not load the history right now."}
	wHistoryArgs       = &i18n.Message{ID: "HistoryArgs", Other: "I did not understand {{.Word}}. History takes {{.Usage}}."}
	wUnknownVerdict    = &i18n.Message{ID: "UnknownVerdict", Other: "Unknown verdict {{.Verdict}}; use supported, contradicted, contested or unverifiable."}
	wUnknownCommand    = &i18n.Message{ID: "UnknownCommand", Other: "Unknown command."}
	wMessageUnreadable = &i18n.Message{ID: "MessageUnreadable", Other: "I could not read that message: it may have been deleted, or I cannot see its channel."}
	wMessageNotFound   = &i18n.Message{ID: "MessageNotFound", Other: "I could not find that message: it may have been deleted, or I cannot see it."}
	wOwnMessage        = &i18n.Message{ID: "OwnMessage", Other: "That is one of my own messages: I check what people post."}
	wNotSaved          = &i18n.Message{ID: "NotSaved", Other: "factbot could not save this check yet (its storage is failing) and keeps trying; once saved, this answer gets its full-report link and shows in history."}

	// Attachments not read: by the core (attachments.go), by the engine
	// (factcheck.Attachment.NoteCode).
	wAttachmentType         = &i18n.Message{ID: "AttachmentType", Other: "{{.Name}} was not read: only PNG, JPEG, WebP and GIF pictures and PDFs are."}
	wAttachmentSize         = &i18n.Message{ID: "AttachmentSize", Other: "{{.Name}} was not read: it is over {{.Max}} MB."}
	wAttachmentCount        = &i18n.Message{ID: "AttachmentCount", Other: "{{.Name}} was not read: at most {{.Max}} attachments are read per message."}
	wAttachmentFailed       = &i18n.Message{ID: "AttachmentFailed", Other: "{{.Name}} could not be downloaded."}
	wAttachmentNoPictures   = &i18n.Message{ID: "AttachmentNoPictures", Other: "{{.Name}}: the model does not read pictures"}
	wAttachmentPDFUnread    = &i18n.Message{ID: "AttachmentPDFUnread", Other: "{{.Name}}: the PDF could not be read"}
	wAttachmentNotPictOrPDF = &i18n.Message{ID: "AttachmentNotPictureOrPDF", Other: "{{.Name}}: not a picture or a PDF"}

	// Input the engine refuses (factcheck.InputError).
	wInputEmpty          = &i18n.Message{ID: "InputEmpty", Other: "There is nothing to check: send a statement, e.g. \"The Great Wall of China is visible from space\"."}
	wInputTooLong        = &i18n.Message{ID: "InputTooLong", Other: "The text is too long to check ({{.Chars}} characters; the limit is {{.Max}}). Send the part you want checked."}
	wInputUnreadable     = &i18n.Message{ID: "InputUnreadable", Other: "There is nothing to check: the message has no text, and its attachments could not be read ({{.Notes}})."}
	wInputLinkNoReader   = &i18n.Message{ID: "InputLinkNoReader", Other: "The message is only a link, and page reading is not configured. Paste the claim's text instead."}
	wInputLinkUnreadable = &i18n.Message{ID: "InputLinkUnreadable", Other: "The message is only a link, and the page could not be read ({{.Why}}). Paste the claim's text instead."}
	wInputLinkEmpty      = &i18n.Message{ID: "InputLinkEmpty", Other: "The message is only a link, and the page has no readable text. Paste the claim's text instead."}

	// The engine's notices (factcheck.Note) and the reasons it writes for
	// sentences not checked (factcheck.NotCheckable.Code).
	wNoteLinkOnly       = &i18n.Message{ID: "NoteLinkOnly", Other: "The message was only a link, so the claims of that page were checked: {{.Title}}"}
	wNoteClaimsOver     = &i18n.Message{ID: "NoteClaimsOverLimit", Other: "Only the first {{.Max}} of {{.Total}} claims were checked; send the rest separately."}
	wNotePicturesUnread = &i18n.Message{ID: "NotePicturesUnread", One: "{{.Count}} picture was not read: the model {{.Model}} does not read pictures.", Other: "{{.Count}} pictures were not read: the model {{.Model}} does not read pictures."}
	wReasonOverLimit    = &i18n.Message{ID: "ReasonOverLimit", Other: "not checked: at most {{.Max}} claims are checked per request"}
	wReasonNotFact      = &i18n.Message{ID: "ReasonNotFact", Other: "not a checkable statement of fact"}

	// Help: Slack's /factcheck help, Discord's command descriptions.
	wHelpSlack = &i18n.Message{ID: "HelpSlack", Other: "*factbot checks facts.*\n" +
		"• Mention me with a claim: `@factbot The Eiffel Tower is 330 m tall` — I answer in the thread.\n" +
		"• `{{.Command}} <text>` — check a paragraph; the report appears in this channel.\n" +
		"• `{{.Command}} private <text>` — only you see the report.\n" +
		"• `{{.Command}} history {{.Usage}}` — this workspace's latest checks (yours with `mine`), visible to you only.\n" +
		"• Message menu → *Fact-check this message* — the report in that message's thread.\n" +
		"Under each report: *Check again* ignores the cache; *Wrong verdict?* tells the maintainers."}
	wCommandFactcheck = &i18n.Message{ID: "CommandFactcheck", Other: "Fact-check a claim or a paragraph"}
	wCommandMessage   = &i18n.Message{ID: "CommandMessage", Other: "Fact-check"} // the message command's name (1-32 characters)
	wCommandText      = &i18n.Message{ID: "CommandText", Other: "The claim or paragraph to check"}
	wCommandPrivate   = &i18n.Message{ID: "CommandPrivate", Other: "Show the answer to you only"}
	wCommandHistory   = &i18n.Message{ID: "CommandHistory", Other: "This server's latest fact-checks (shown to you only)"}
	wCommandCount     = &i18n.Message{ID: "CommandCount", Other: "How many (1-{{.Max}}, default {{.Default}})"}
	wCommandVerdict   = &i18n.Message{ID: "CommandVerdict", Other: "Only checks with this verdict"}
	wCommandMine      = &i18n.Message{ID: "CommandMine", Other: "Only your own checks"}
)

// words is every message of the catalogs.
var words = []*i18n.Message{
	wLabelSupported, wLabelContradicted, wLabelContested, wLabelUnverifiable, wLabelChecking,
	wConfidenceHigh, wConfidenceMedium, wConfidenceLow, wStanceSupports, wStanceRefutes, wStanceContext,
	wQuoteOnPage, wQuoteOnPDFPage, wQuoteInPDF, wQuoteSnippet, wQuoteTitle, wQuoteTitleOnly, wQuoteSummary,
	wQuoteRetrieved, wQuoteNotFound,
	wCachedOn, wStoppedSteps, wStoppedSearches, wStoppedReads, wStoppedTokens, wStoppedTime, wStoppedOther,
	wMoreSources, wMoreClaims, wMoreClaimsInReport, wSourcesInReport, wSourcesNotShown, wSourceLink,
	wTitleClaims, wTitleNoClaims, wNoticeNoClaims, wTitleChecking, wTitleProgress, wTitleFailed, wClaimPending, wClaimFailed, wFromPicture,
	wSummary, wCountSupported, wCountContradicted, wCountContested, wCountUnverifiable, wListSeparator,
	wAskedBy, wNotCheckable, wCheckRef,
	wButtonRecheck, wButtonWrong, wButtonFullReport, wButtonOpenHistory,
	wCheckInternal, wCheckTimeout, wCheckRateLimited, wCheckGivenUp, wRecheckNotFound, wBusy,
	wAckPrivate, wAckChannel, wAckReply, wFeedbackQuestion, wFeedbackExample,
	wHistoryLatest, wHistoryYours, wHistoryEmpty, wHistoryCached, wWhereWorkspace, wWhereServer, wWhereDMs,
	wUserLimit, wTenantLimit, wWindowHours, wWindowMinutes,
	wFeedbackThanks, wFeedbackFull, wFeedbackLimit, wFeedbackNotFound, wFeedbackFailed,
	wNotStored, wInternal, wHistoryFailed, wHistoryArgs, wUnknownVerdict, wUnknownCommand,
	wMessageUnreadable, wMessageNotFound, wOwnMessage, wNotSaved,
	wAttachmentType, wAttachmentSize, wAttachmentCount, wAttachmentFailed,
	wAttachmentNoPictures, wAttachmentPDFUnread, wAttachmentNotPictOrPDF,
	wInputEmpty, wInputTooLong, wInputUnreadable, wInputLinkNoReader, wInputLinkUnreadable, wInputLinkEmpty,
	wNoteLinkOnly, wNoteClaimsOver, wNotePicturesUnread, wReasonOverLimit, wReasonNotFact,
	wClaimFailedModel, wClaimFailedRateLimited, wClaimFailedCancelled, wCommandMessage,
	wHelpSlack, wCommandFactcheck, wCommandText, wCommandPrivate, wCommandHistory, wCommandCount, wCommandVerdict, wCommandMine,
}
