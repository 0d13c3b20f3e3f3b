package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
)

// LabelOpenHistory is the English label of the link to the history's web
// page (Lang.OpenHistory in other languages).
const LabelOpenHistory = "Open history"

// checkMessage is the short, honest error shown for a failed check.
func (l Lang) checkMessage(err error) string {
	if msg, ok := l.Shown(err); ok {
		return msg
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return l.Text(words.CheckTimeout, nil)
	}
	if errors.Is(err, factcheck.ErrRateLimited) {
		return l.Text(words.CheckRateLimited, nil)
	}
	return l.Text(words.CheckInternal, nil)
}

// History limits: chat lists DefaultHistory checks unless asked for more,
// and at most MaxHistory (what both platforms' answers can show).
const (
	DefaultHistory = 10
	MaxHistory     = 25
)

// HistoryArgs is what a user asked of the history, from a text command
// (ParseHistoryArgs) or a platform's command options.
type HistoryArgs struct {
	// Count is how many checks to list: 0 means DefaultHistory; more than
	// MaxHistory lists MaxHistory.
	Count int
	// Verdict keeps checks with a claim of this verdict (any case); empty
	// keeps all.
	Verdict string
	// Mine keeps the viewer's own checks.
	Mine bool
}

// HistoryUsage describes the history arguments, for help texts.
const HistoryUsage = "[N] [mine] [supported|contradicted|contested|unverifiable]"

// ParseHistoryArgs parses "history" arguments written in a chat: a count,
// "mine" and a verdict, in any order, e.g. "20 mine contradicted".
func ParseHistoryArgs(s string) (HistoryArgs, error) {
	var a HistoryArgs
	for _, f := range strings.Fields(s) {
		if n, err := strconv.Atoi(f); err == nil && n > 0 {
			a.Count = n
		} else if strings.EqualFold(f, "mine") {
			a.Mine = true
		} else if l := factcheck.Label(strings.ToLower(f)); l.Valid() {
			a.Verdict = string(l)
		} else {
			return HistoryArgs{}, words.Said(words.HistoryArgs, map[string]any{"Word": strconv.Quote(f), "Usage": HistoryUsage}, nil)
		}
	}
	return a, nil
}

// History is a history answer.
type History struct {
	Verdict factcheck.Label // the filter asked, if any
	Mine    bool            // only the viewer's checks
	Lines   []HistoryLine
	// URL is the signed link to the history's web page, as the viewer
	// asking in the channel may see it ("Open history"); "" when the web
	// view is off.
	URL string
	// Lang is the language of the answer's words; adapters set it from the
	// viewer's locale (the zero Lang is English).
	Lang Lang
}

// Audience is who sees checks in chat: the person, asking in channel. It
// is the one audience of history and of the buttons on a report, so that a
// button acts only on a check its clicker could find in history: their own
// checks, checks made in that channel, and checks made in public channels
// (store.Check.VisibleTo is the rule). Answers meant for the asker alone
// stay theirs.
func Audience(user, channel string) *store.Audience {
	return &store.Audience{User: user, Channel: channel, TenantWide: true}
}

// History lists the tenant's latest checks, newest first, as viewer asking
// in channel may see them (Audience).
func (s *Service) History(ctx context.Context, tenant, viewer, channel string, args HistoryArgs) (*History, error) {
	q := store.HistoryQuery{Audience: Audience(viewer, channel), Limit: DefaultHistory}
	if args.Count > 0 {
		q.Limit = min(args.Count, MaxHistory)
	}
	if args.Verdict != "" {
		q.Verdict = factcheck.Label(strings.ToLower(args.Verdict))
		if !q.Verdict.Valid() {
			return nil, words.Said(words.UnknownVerdict, map[string]any{"Verdict": strconv.Quote(args.Verdict)}, nil)
		}
	}
	if args.Mine {
		q.User = viewer
	}
	sums, err := s.store.History(ctx, tenant, q)
	if err != nil {
		s.log.Error("history", "tenant", tenant, "err", err)
		return nil, words.Said(words.HistoryFailed, nil, fmt.Errorf("bot: history of %s: %w", tenant, err))
	}
	h := &History{Verdict: q.Verdict, Mine: args.Mine, Lines: HistoryLines(sums)}
	if s.opts.Links != nil {
		h.URL = s.opts.Links.HistoryURL(tenant, viewer, channel)
	}
	return h, nil
}

// Feedback records a user's "Wrong verdict?" on a check (an empty note is
// recorded as "wrong verdict") and returns the thank-you to show. A check
// the user may not see (Audience) is answered as unknown; errors wrap
// store.ErrNotFound then. by is who sends it, for the per-person feedback
// limit; over it, nothing is recorded and the error says so. The answers
// are in by's language (Person.Locale), else English.
func (s *Service) Feedback(ctx context.Context, tenant, channel, checkID string, by Person, f store.Feedback) (string, error) {
	lang := LangFor(by.Locale)
	if c, err := s.store.Check(ctx, tenant, checkID); err != nil || !c.VisibleTo(Audience(f.User, channel)) {
		if err == nil {
			err = store.ErrNotFound
		}
		err = fmt.Errorf("bot: feedback on %s by %s: %w", checkID, f.User, err)
		if errors.Is(err, store.ErrNotFound) {
			return "", &usererr.Error{Msg: lang.Text(words.FeedbackNotFound, nil), Err: err}
		}
		s.log.Error("feedback", "tenant", tenant, "check", checkID, "err", err)
		return "", &usererr.Error{Msg: lang.Text(words.FeedbackFailed, nil), Err: err}
	}
	if f.At.IsZero() {
		f.At = s.opts.Now()
	}
	if !s.admitFeedback(ctx, by, tenant, f.User, s.opts.Now()) {
		return "", &usererr.Error{Msg: lang.Text(words.FeedbackLimit, nil), Err: fmt.Errorf("bot: feedback on %s: %w", checkID, ErrFeedbackLimit)}
	}
	f.Note = strings.TrimSpace(f.Note)
	if f.Note == "" {
		f.Note = "wrong verdict"
	}
	if err := s.store.AddFeedback(ctx, tenant, checkID, f); err != nil {
		err = fmt.Errorf("bot: feedback on %s: %w", checkID, err)
		if errors.Is(err, store.ErrNotFound) {
			return "", &usererr.Error{Msg: lang.Text(words.FeedbackNotFound, nil), Err: err}
		}
		if errors.Is(err, store.ErrFeedbackLimit) {
			return "", &usererr.Error{Msg: lang.Text(words.FeedbackFull, nil), Err: err}
		}
		s.log.Error("feedback", "tenant", tenant, "check", checkID, "err", err)
		return "", &usererr.Error{Msg: lang.Text(words.FeedbackFailed, nil), Err: err}
	}
	return lang.Text(words.FeedbackThanks, map[string]any{"ID": checkID}), nil
}
