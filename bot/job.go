package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// process runs one request to its final answer. If ctx ends meanwhile
// (the service closes, or the lease was lost) the request stays pending.
func (s *Service) process(ctx context.Context, r *store.Request) {
	p := s.platform(r.Platform)
	if p == nil {
		return
	}
	s.metrics.InFlight.Inc()
	defer s.metrics.InFlight.Dec()
	j := &job{s: s, ctx: ctx, p: p, r: r, reply: r.Reply, log: s.log.With("key", r.Key, "tenant", r.Tenant, "platform", r.Platform),
		lang: RequestLang(r, "", r.Text)}
	if j.resumeUnsaved() {
		return
	}
	if !j.begin() {
		return
	}
	// A check saved before (a restart, an answer not delivered) is
	// answered from the store.
	var saved *store.Check
	if r.CheckID != "" {
		if c, err := s.store.Check(ctx, r.Tenant, r.CheckID); err == nil && c.Report != nil {
			saved = c
		}
	}
	if r.Attempts > s.opts.MaxAttempts {
		// The last try: the request is finished whether it is delivered or not.
		j.log.Error("giving up after repeated attempts", "attempts", r.Attempts)
		if saved != nil {
			j.answer(s.report(r, saved.Report, saved.ID))
			j.finish(store.RequestDone, saved.ID)
			return
		}
		j.answer(j.lang.RenderError(j.lang.Text(words.CheckGivenUp, nil)))
		j.finish(store.RequestFailed, "")
		return
	}
	if saved != nil {
		j.conclude(s.report(r, saved.Report, saved.ID), store.RequestDone, saved.ID)
		return
	}
	text, ok := j.text()
	if !ok {
		return
	}
	text, files, notes, err := j.read(text)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		j.log.Warn("read the message asked about", "err", err)
		j.conclude(j.lang.RenderError(j.lang.readMessage(err)), store.RequestFailed, "")
		return
	}
	began := time.Now()
	rep, err := j.check(text, files)
	if ctx.Err() != nil {
		return // shutting down: stays pending, resumed on restart
	}
	s.observeCheck(time.Since(began))
	j.logFinished(rep, err, began)
	if err != nil {
		s.metrics.Errors.WithLabelValues("check").Inc()
		s.metrics.Checks.WithLabelValues(r.Platform, "failed").Inc()
		j.keepCacheRefs()
		j.conclude(j.lang.RenderError(j.lang.checkMessage(err)), store.RequestFailed, "")
		return
	}
	s.metrics.observeReport(rep)
	for _, n := range notes {
		rep.AddNote(n)
	}
	j.deliver(text, rep)
}

// job is one request being processed.
type job struct {
	s      *Service
	ctx    context.Context
	p      Platform
	r      *store.Request
	log    *slog.Logger
	reply  string               // the handle of the answer posted so far
	lang   Lang                 // of the answer until the report's is known
	caches *store.CacheRecorder // what the check read or wrote in the caches
}

// begin counts the attempt and posts the placeholder unless one was posted
// before a restart. false means the service is closing.
func (j *job) begin() bool {
	ctx, r := j.ctx, j.r
	if err := j.s.store.UpdateRequest(ctx, r.Tenant, r.Key, func(q *store.Request) error {
		q.Attempts++
		r.Attempts = q.Attempts
		if q.Reply != "" {
			r.Reply = q.Reply
		}
		if q.CheckID != "" {
			r.CheckID = q.CheckID
		}
		return nil
	}); err != nil {
		if ctx.Err() != nil {
			return false
		}
		j.s.metrics.Errors.WithLabelValues("store").Inc()
		j.log.Error("update request", "err", err)
	}
	j.reply = r.Reply
	if j.reply != "" {
		return true
	}
	cctx, cancel := j.call()
	reply, err := j.p.Post(cctx, r, j.lang.RenderPlaceholder())
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return false
		}
		j.s.metrics.Errors.WithLabelValues("post").Inc()
		j.log.Warn("post placeholder", "err", err)
		return true
	}
	j.reply, r.Reply = reply, reply
	j.saveReply(reply)
	return true
}

// text returns the text to check: the request's, or for "Check again" the
// earlier check's. false means the request was answered or the service is
// closing.
func (j *job) text() (string, bool) {
	r := j.r
	if r.Text != "" || r.Kind != KindRecheck {
		return r.Text, true
	}
	c, err := j.s.store.Check(j.ctx, r.Tenant, r.Meta[MetaCheckID])
	if err == nil && !c.VisibleTo(Audience(r.User, r.Channel)) {
		err = fmt.Errorf("check %s is not visible to %s in %s: %w", c.ID, r.User, r.Channel, store.ErrNotFound)
	}
	if err != nil {
		if j.ctx.Err() != nil {
			return "", false
		}
		j.log.Warn("recheck: load check", "check", r.Meta[MetaCheckID], "err", err)
		j.conclude(j.lang.RenderError(j.lang.Text(words.RecheckNotFound, nil)), store.RequestFailed, "")
		return "", false
	}
	if c.Message != "" { // its attachments are read again
		r.Meta[MetaMessage] = c.Message
	}
	return c.Text, true
}

// check runs the engine on text and files, showing its progress.
func (j *job) check(text string, files []factcheck.File) (*factcheck.Report, error) {
	r := j.r
	prog := j.s.startProgress(j.ctx, j.p, r, j.reply, text)
	cctx, cancel := context.WithTimeout(j.ctx, j.s.opts.CheckTimeout)
	// Every cache entry the check reads or writes is recorded with it, so
	// that forgetting the asker forgets what their request caused.
	j.caches = store.NewCacheRecorder()
	rep, err := j.s.checker.Check(cctx, factcheck.Input{Tenant: r.Tenant, Text: text, Files: files, Fresh: r.Fresh, Progress: prog.event, Recorder: j.caches,
		Earlier: j.s.earlier(r)})
	cancel()
	prog.stop()
	if err == nil && rep == nil {
		err = errors.New("checker returned no report")
	}
	return rep, err
}

// deliver saves the check and answers with its report (deliverCheck).
func (j *job) deliver(text string, rep *factcheck.Report) {
	s, r := j.s, j.r
	j.deliverCheck(&store.Check{
		Tenant: r.Tenant, Platform: r.Platform, Channel: r.Channel, Thread: r.Thread, Link: r.Link,
		User: r.User, RequestKey: r.Key, Text: text, Report: rep, CreatedAt: s.opts.Now(), Private: r.Private,
		Visibility: r.Visibility, CacheRefs: j.caches.Refs(), Message: r.Meta[MetaMessage],
	})
}

// report renders the final report of the check saved as checkID for r,
// with a "Full report" link to its web page first among its buttons when
// the web view is on. The link is made for the asker; whoever sees the
// report may open it while it lasts, and the web view shows the check as
// the asker sees it in its channel. A check that could not be saved has no
// page, so no link.
func (s *Service) report(r *store.Request, rep *factcheck.Report, checkID string) *Message {
	l := RequestLang(r, rep.Language, rep.Input)
	m := l.RenderReport(rep, checkID)
	m.AskedBy = asker(r)
	if checkID == "" || s.opts.Links == nil {
		return m
	}
	if u := s.opts.Links.CheckURL(r.Tenant, r.User, checkID); u != "" {
		m.Actions = append([]Action{l.ReportLink(u)}, m.Actions...)
	}
	return m
}

// asker is who asked r, for a report everyone in a channel sees; nil for a
// report only the asker sees (private, or in a direct message) and for the
// answer to a mention, which replies to the asker's own message.
func asker(r *store.Request) *Asker {
	if r.Private || r.User == "" || r.Visibility == store.VisibilityDM || r.Kind == KindMention {
		return nil
	}
	return &Asker{ID: r.User, Name: r.Meta[MetaUserName]}
}

// keepCacheRefs records on a failed request the cache entries its check
// caused, since no check is saved to carry them.
func (j *job) keepCacheRefs() {
	refs := j.caches.Refs()
	if len(refs) == 0 {
		return
	}
	if err := j.s.store.UpdateRequest(j.ctx, j.r.Tenant, j.r.Key, func(q *store.Request) error {
		q.CacheRefs = refs
		return nil
	}); err != nil && j.ctx.Err() == nil {
		j.log.Warn("record cache entries", "err", err)
	}
}

// saveReply records the reply posted, even when the service is closing:
// a placeholder not recorded would be posted again by the next attempt
// (an answer split in two).
func (j *job) saveReply(reply string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(j.ctx), 10*time.Second)
	defer cancel()
	if err := j.s.store.UpdateRequest(ctx, j.r.Tenant, j.r.Key, func(q *store.Request) error {
		q.Reply = reply
		return nil
	}); err != nil {
		j.s.metrics.Errors.WithLabelValues("store").Inc()
		j.log.Warn("record reply", "err", err)
	}
}

// call returns the context of one platform call: the job's, bounded by
// Options.CallTimeout, so that a platform that hangs cannot hold the worker.
func (j *job) call() (context.Context, context.CancelFunc) {
	return context.WithTimeout(j.ctx, j.s.opts.CallTimeout)
}

// answer updates the reply with m, or posts m when there is no reply or
// the platform says it is gone (ErrReplyGone). It reports whether m
// reached the platform, or never can (ErrUndeliverable). A reply that
// could not be updated for another reason (a timeout, no turn of the
// channel's pace) is not answered beside it: the caller leaves the request
// pending, to update it again later.
func (j *job) answer(m *Message) bool {
	ctx, r := j.ctx, j.r
	if j.reply != "" {
		cctx, cancel := j.call()
		err := j.p.Update(cctx, r, j.reply, m)
		cancel()
		if err == nil {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		j.s.metrics.Errors.WithLabelValues("update").Inc()
		if !errors.Is(err, ErrReplyGone) {
			j.log.Warn("update reply; the request stays pending and is tried again", "err", err)
			return false
		}
		j.log.Warn("the reply is gone; posting a new one", "err", err)
	}
	cctx, cancel := j.call()
	nr, err := j.p.Post(cctx, r, m)
	cancel()
	if errors.Is(err, ErrUndeliverable) {
		j.log.Warn("the answer has nowhere to go; finishing the request", "err", err)
		return true
	}
	if err != nil {
		if ctx.Err() == nil {
			j.s.metrics.Errors.WithLabelValues("post").Inc()
			j.log.Error("post answer; the request stays pending and is tried again", "err", err)
		}
		return false
	}
	j.reply, r.Reply = nr, nr
	j.saveReply(nr)
	return true
}

// conclude answers with m and finishes the request in state, but only once
// m is delivered: otherwise the request stays pending, tried again (every
// Lease/2, at most MaxAttempts times).
func (j *job) conclude(m *Message, state, checkID string) {
	if j.answer(m) {
		j.finish(state, checkID)
	}
}

func (j *job) finish(state, checkID string) {
	// The answer was delivered: record it even if the service is closing,
	// or the request would be answered again after a restart.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(j.ctx), 10*time.Second)
	defer cancel()
	if err := j.s.store.FinishRequest(ctx, j.r.Tenant, j.r.Key, state, checkID); err != nil && ctx.Err() == nil {
		j.s.metrics.Errors.WithLabelValues("store").Inc()
		j.log.Error("finish request", "err", err)
	}
}
