package bot

import (
	"context"
	"errors"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// This file tells refused requests' askers why (a full queue, a limit,
// input too long): the refusal is stored with the request (its Notice),
// which stays pending, without its text, until the note is delivered, and
// is then kept only as a refusal (store.DB.RefuseRequest). A note that
// could not be sent is tried again with the pending requests (every
// Lease/2, and after a restart), never run as a check, at most
// MaxNoteAttempts times. Notes go apart from the workers and the queue,
// at the pace the platform allows for them (on Slack, chat.postEphemeral's,
// not the channel's messages'); the notes to one person in one channel
// that say the same while one is being sent are told once.

// MaxNoteAttempts bounds how often a refusal's note is tried.
const MaxNoteAttempts = 10

// noteTimeout bounds one attempt at a note, Close included: the note is
// stored, and a later attempt (or the next start) tells it.
const noteTimeout = time.Minute

// Why a request was refused (factbot_refusals_total's reason).
const (
	reasonInput  = "input"  // empty or too long
	reasonUser   = "user"   // the per-person limit
	reasonTenant = "tenant" // the per-tenant limit
	reasonBusy   = "busy"   // the queue is full
)

var errNoPlatform = errors.New("bot: the request's platform is not registered")

// noteGroup is the refused requests told by one note being sent.
type noteGroup struct {
	reqs []*store.Request
}

// noteKey is who a note goes to, where, and what it says.
func noteKey(r *store.Request) string {
	return r.Tenant + "\x00" + r.Platform + "\x00" + r.Channel + "\x00" + r.User + "\x00" + r.Notice
}

// refuse records that r is refused with notice and tells the asker, in
// the background (tellRefusal).
func (s *Service) refuse(r *store.Request, notice, reason string) {
	s.mu.Lock()
	if s.closed {
		delete(s.submitting, r.Key)
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	s.metrics.Refusals.WithLabelValues(r.Platform, reason).Inc()
	go func() {
		defer s.wg.Done()
		// Not s.ctx: Close cancels it, and the refusal must still be
		// recorded (Close waits for this, at most noteTimeout).
		ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), noteTimeout)
		defer cancel()
		r.Notice, r.Text = notice, ""
		if err := s.store.UpdateRequest(ctx, r.Tenant, r.Key, func(q *store.Request) error {
			q.Notice, q.Text = notice, ""
			return nil
		}); err != nil {
			s.metrics.Errors.WithLabelValues("store").Inc()
			s.log.Error("record refusal", "key", r.Key, "err", err)
		}
		s.mu.Lock()
		s.queued[r.Key] = true
		delete(s.submitting, r.Key)
		s.mu.Unlock()
		s.tellRefusal(ctx, r)
	}()
}

// resumeNote tells the pending refusal r again, in the background, unless
// it is being told.
func (s *Service) resumeNote(r *store.Request) bool {
	s.mu.Lock()
	if s.closed || s.queued[r.Key] {
		s.mu.Unlock()
		return false
	}
	s.queued[r.Key] = true
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(s.ctx, noteTimeout)
		defer cancel()
		s.tellRefusal(ctx, r)
	}()
	return true
}

// tellRefusal sends r's note, or joins the same note to the same person
// being sent, and then finishes (or keeps pending) every request it told.
// The caller has marked r queued; tellRefusal unmarks it and releases its
// lease.
func (s *Service) tellRefusal(ctx context.Context, r *store.Request) {
	k := noteKey(r)
	s.mu.Lock()
	if g := s.notes[k]; g != nil {
		g.reqs = append(g.reqs, r) // told by the note being sent
		s.mu.Unlock()
		s.metrics.Notes.WithLabelValues(r.Platform, "collapsed").Inc()
		return
	}
	g := &noteGroup{reqs: []*store.Request{r}}
	s.notes[k] = g
	s.mu.Unlock()
	err := s.sendNote(ctx, r)
	s.mu.Lock()
	delete(s.notes, k)
	reqs := g.reqs
	s.mu.Unlock()
	for _, q := range reqs {
		s.noteSent(ctx, q, err)
		s.mu.Lock()
		delete(s.queued, q.Key)
		s.mu.Unlock()
		s.release(q)
	}
}

// sendNote shows r's notice to its asker.
func (s *Service) sendNote(ctx context.Context, r *store.Request) error {
	p := s.platform(r.Platform)
	if p == nil {
		return errNoPlatform
	}
	nctx, cancel := context.WithTimeout(ctx, s.opts.CallTimeout)
	defer cancel()
	if err := p.Notify(nctx, r, r.Notice); err != nil {
		s.metrics.Errors.WithLabelValues("post").Inc()
		return err
	}
	return nil
}

// noteSent finishes r once its note is told (err nil), or after
// MaxNoteAttempts; otherwise it stays pending, to be told again.
func (s *Service) noteSent(ctx context.Context, r *store.Request, err error) {
	if err == nil {
		s.metrics.Notes.WithLabelValues(r.Platform, "sent").Inc()
		if err := s.store.RefuseRequest(ctx, r.Tenant, r.Key); err != nil {
			s.log.Error("finish refused request", "key", r.Key, "err", err)
		}
		return
	}
	attempts := r.Attempts + 1
	if uerr := s.store.UpdateRequest(ctx, r.Tenant, r.Key, func(q *store.Request) error {
		q.Attempts++
		attempts = q.Attempts
		return nil
	}); uerr != nil {
		s.log.Warn("count a note's attempt", "key", r.Key, "err", uerr)
	}
	r.Attempts = attempts
	if attempts < MaxNoteAttempts {
		s.metrics.Notes.WithLabelValues(r.Platform, "retry").Inc()
		s.log.Warn("notify refusal; it stays pending and is tried again", "key", r.Key, "attempts", attempts, "err", err)
		return
	}
	s.metrics.Notes.WithLabelValues(r.Platform, "lost").Inc()
	s.log.Error("notify refusal: giving up", "key", r.Key, "attempts", attempts, "err", err)
	if err := s.store.RefuseRequest(ctx, r.Tenant, r.Key); err != nil {
		s.log.Error("finish refused request", "key", r.Key, "err", err)
	}
}
