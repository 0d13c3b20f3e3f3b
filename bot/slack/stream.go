package slack

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// A check asked in the assistant is answered by a streamed message
// (chat.startStream, chat.appendStream, chat.stopStream): a task card per
// claim, in progress then complete with its sources, then the report. Its
// reply handle is streamPrefix + the request's key; the stream lives in the
// adapter's memory while the check runs.
const streamPrefix = "stream:"

// Bounds of what a task card shows.
const (
	maxTaskSources = 8
	maxTaskTitle   = 200
	maxStatus      = 60 // a status line's query or site
)

// stream is the streamed answer to one assistant request. The engine's
// progress (Track) only changes its state and wakes its loop, which sends
// what changed: at most one appendStream and one setStatus per turn, each
// paced per channel by Adapter.call (1/s by default), so a burst of
// searches and reads is coalesced into one append.
type stream struct {
	cv   *conversations
	api  API
	r    *store.Request
	lang bot.Lang

	mu         sync.Mutex
	ts         string // the streamed message, once started
	appended   bool   // the report's text is in it (finish): a second finish only stops it
	tasks      []*task
	status     string // the status to show; sent is what was
	sentStatus string
	wake       chan struct{}
	cancel     context.CancelFunc
	done       chan struct{}
}

// task is one claim's task card.
type task struct {
	title   string
	status  slack.TaskCardStatus
	output  string
	sources []slack.TaskCardSource
	dirty   bool
}

func (cv *conversations) newStream(api API, r *store.Request, l bot.Lang) *stream {
	ctx, cancel := context.WithCancel(context.Background())
	checking := l.Text(words.StatusChecking, nil) // set by postAssistant
	s := &stream{cv: cv, api: api, r: r, lang: l, status: checking, sentStatus: checking,
		wake: make(chan struct{}, 1), cancel: cancel, done: make(chan struct{})}
	go s.loop(ctx)
	return s
}

// track records a progress event and wakes the loop; it never blocks.
func (s *stream) track(e factcheck.Event) {
	s.mu.Lock()
	switch e.Kind {
	case factcheck.EventClaims:
		s.tasks = nil
		for i, c := range e.Claims {
			s.tasks = append(s.tasks, &task{title: s.taskTitle(i, c.Claim), status: slack.TaskCardStatusInProgress, dirty: true})
		}
	case factcheck.EventSearch:
		s.status = s.lang.Text(words.StatusSearching, map[string]any{"Query": cut(bot.InertMentions(e.Text), maxStatus)})
	case factcheck.EventRead:
		s.status = s.lang.Text(words.StatusReading, map[string]any{"Site": cut(host(e.Text), maxStatus)})
		if t := s.task(e.Claim); t != nil {
			t.addSource(e.Text)
		}
	case factcheck.EventVerdict:
		if t := s.task(e.Claim); t != nil && e.Verdict != nil {
			t.complete(s.lang, e.Verdict)
		}
	default:
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *stream) taskTitle(i int, claim string) string {
	return cut(s.lang.Text(words.TaskClaim, map[string]any{"N": i + 1, "Claim": bot.InertMentions(claim)}), maxTaskTitle)
}

// task is claim i's task card; nil for an event about no known claim.
func (s *stream) task(i int) *task {
	if i < 0 || i >= len(s.tasks) {
		return nil
	}
	return s.tasks[i]
}

// addSource adds a page read (a URL a search returned or the asker wrote).
func (t *task) addSource(u string) {
	if len(t.sources) >= maxTaskSources || !isWeb(u) {
		return
	}
	for _, src := range t.sources {
		if src.URL == u {
			return
		}
	}
	t.sources = append(t.sources, slack.NewTaskCardSource(u, host(u)))
	t.dirty = true
}

// complete marks the card done with its verdict and the sources it cites.
func (t *task) complete(l bot.Lang, v *factcheck.Verdict) {
	t.status, t.dirty = slack.TaskCardStatusComplete, true
	if v.Error != "" {
		t.status = slack.TaskCardStatusError
	}
	t.output = l.Label(v.Verdict)
	var cited []slack.TaskCardSource
	for _, e := range v.Evidence {
		if len(cited) < maxTaskSources && isWeb(e.SourceURL) {
			cited = append(cited, slack.NewTaskCardSource(e.SourceURL, cut(bot.InertMentions(firstNonEmpty(e.SourceTitle, host(e.SourceURL))), 100)))
		}
	}
	if len(cited) > 0 {
		t.sources = cited
	}
}

func (t *task) chunk(id int) slack.TaskUpdateChunk {
	c := slack.NewTaskUpdateChunk("claim-"+strconv.Itoa(id+1), t.title)
	c.Status, c.Output, c.Sources = t.status, t.output, t.sources
	return c
}

// changes are the chunks of the cards changed since the last call, and
// the status if it changed.
func (s *stream) changes() (chunks []slack.StreamChunk, status string, statusChanged bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, t := range s.tasks {
		if t.dirty {
			chunks = append(chunks, t.chunk(i))
			t.dirty = false
		}
	}
	if s.status != s.sentStatus {
		s.sentStatus = s.status
		return chunks, s.status, true
	}
	return chunks, "", false
}

func (s *stream) loop(ctx context.Context) {
	defer close(s.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		chunks, status, ok := s.changes()
		if ok {
			s.cv.setStatus(ctx, s.api, s.r, status, nil)
		}
		if len(chunks) > 0 {
			if err := s.send(ctx, chunks...); err != nil && ctx.Err() == nil {
				s.cv.log.Debug("slack: stream append", "key", s.r.Key, "err", err)
			}
		}
	}
}

// send starts the stream with chunks, or appends them to it.
func (s *stream) send(ctx context.Context, chunks ...slack.StreamChunk) error {
	r := s.r
	s.mu.Lock()
	ts := s.ts
	s.mu.Unlock()
	return s.cv.svc.call(ctx, r.Tenant, r.Channel, func(ctx context.Context) error {
		if ts != "" {
			_, _, err := s.api.AppendStreamContext(ctx, r.Channel, ts, slack.MsgOptionChunks(chunks...))
			return err
		}
		_, nts, err := s.api.StartStreamContext(ctx, r.Channel, slack.MsgOptionTS(r.Thread),
			slack.MsgOptionRecipientUserID(r.User), slack.MsgOptionRecipientTeamID(r.Tenant),
			slack.MsgOptionTaskDisplayMode(slack.TaskDisplayModePlan), slack.MsgOptionChunks(chunks...))
		if err == nil {
			s.mu.Lock()
			s.ts = nts
			s.mu.Unlock()
		}
		return err
	})
}

// finish ends the stream with the final message m: the cards still open
// closed from m's claims, the report's headline and summary as markdown,
// and the report's blocks with the feedback buttons under them.
func (s *stream) finish(ctx context.Context, m *bot.Message) error {
	s.cancel()
	select { // an append in flight: wait for it, never longer than a call
	case <-s.done:
	case <-time.After(s.cv.cfg.CallTimeout):
	}
	s.mu.Lock()
	for i, c := range m.Claims {
		if i >= len(s.tasks) {
			s.tasks = append(s.tasks, &task{title: s.taskTitle(i, c.Claim)})
		}
		if t := s.tasks[i]; t.status != slack.TaskCardStatusComplete && t.status != slack.TaskCardStatusError {
			t.status, t.dirty = slack.TaskCardStatusComplete, true
			if c.Label != "" {
				t.output = m.Lang.Label(c.Label)
			}
			if c.Error != "" {
				t.status = slack.TaskCardStatusError
			}
		}
	}
	for _, t := range s.tasks {
		if t.status == slack.TaskCardStatusInProgress { // m says nothing of it (an error)
			t.status = slack.TaskCardStatusError
		}
		t.dirty = true // every card's last state, in case an append was cut short
	}
	appended := s.appended
	s.mu.Unlock()
	if !appended {
		chunks, _, _ := s.changes()
		chunks = append(chunks, slack.NewMarkdownTextChunk(markdownOf(m)))
		if err := s.send(ctx, chunks...); err != nil {
			s.mu.Lock()
			started := s.ts != ""
			s.mu.Unlock()
			if !started { // no message in the thread: the report is posted instead
				return fmt.Errorf("slack: chat.startStream: %w: %w", bot.ErrReplyGone, err)
			}
			return fmt.Errorf("slack: chat.appendStream: %w", err)
		}
	}
	s.mu.Lock()
	s.appended = true
	ts := s.ts
	s.mu.Unlock()
	blocks, _ := Render(assistantMessage(m))
	if m.CheckID != "" {
		blocks = append(blocks, feedbackBlock(m.Lang, m.CheckID))
	}
	r := s.r
	err := s.cv.svc.call(ctx, r.Tenant, r.Channel, func(ctx context.Context) error {
		_, _, err := s.api.StopStreamContext(ctx, r.Channel, ts, slack.MsgOptionBlocks(blocks...))
		return err
	})
	if err != nil {
		return fmt.Errorf("slack: chat.stopStream: %w", err)
	}
	s.cv.setStatus(ctx, s.api, r, "", nil)
	return nil
}

// markdownOf is the streamed text of m: its headline, then its notice or
// error and its summary, each escaped for markdown.
func markdownOf(m *bot.Message) string {
	parts := []string{"**" + mdEscape(m.Title) + "**"}
	for _, s := range []string{m.Error, m.Notice, m.Summary} {
		if s != "" {
			parts = append(parts, mdEscape(s))
		}
	}
	return strings.Join(parts, "\n\n")
}

var mdEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"(", `\(`, ")", `\)`, "#", `\#`, "!", `\!`, "|", `\|`, "~", `\~`, "<", "&lt;", ">", "&gt;", "&", "&amp;")

// mdEscape makes s inert in markdown: no link, emphasis or mention.
func mdEscape(s string) string { return mdEscaper.Replace(bot.InertMentions(s)) }

func host(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return u
	}
	return strings.TrimPrefix(p.Host, "www.")
}

func isWeb(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != ""
}
