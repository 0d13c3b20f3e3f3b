package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// Start starts the workers and queues every pending request of the
// registered platforms (resume after a restart). Then, every Lease/2, it
// queues the pending requests whose lease is free or has run out: those
// of a replica sharing the database that died.
func (s *Service) Start(ctx context.Context) error {
	s.mu.Lock()
	if s.started || s.closed {
		s.mu.Unlock()
		return errors.New("bot: Start called twice or after Close")
	}
	s.started = true
	s.mu.Unlock()
	for range s.opts.Workers {
		s.wg.Add(1)
		go s.worker()
	}
	if err := s.Resume(ctx); err != nil {
		return err
	}
	s.wg.Add(1)
	go s.pickUp()
	return nil
}

// pickUp resumes, every Lease/2, the requests no one holds, until Close.
func (s *Service) pickUp() {
	defer s.wg.Done()
	t := time.NewTicker(s.opts.Lease / 2)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		if err := s.Resume(s.ctx); err != nil && s.ctx.Err() == nil {
			s.log.Warn("pick up unfinished requests", "err", err)
		}
	}
}

// Resume claims and queues the pending requests of registered platforms
// that no one else holds, tenant by tenant (a request of a platform not
// registered here is released again, for a replica that has it). Start
// calls it, and then calls it periodically; it is safe to call again
// (queued keys are skipped). A worker claims each request again before it
// runs it.
func (s *Service) Resume(ctx context.Context) error {
	tenants, err := s.store.Tenants(ctx)
	if err != nil {
		return fmt.Errorf("bot: resume: %w", err)
	}
	n := 0
	for _, t := range tenants {
		reqs, err := s.store.ClaimPending(ctx, t, s.opts.Owner, s.opts.Lease)
		if err != nil {
			return fmt.Errorf("bot: resume tenant %s: %w", t, err)
		}
		for _, r := range reqs {
			s.mu.Lock()
			_, ok := s.platforms[r.Platform]
			submitting := s.submitting[r.Key]
			s.mu.Unlock()
			if submitting {
				continue // Submit queues or refuses it
			}
			if !ok {
				s.release(r)
				continue
			}
			if r.Notice != "" { // refused: its note is told again, never run
				if s.resumeNote(r) {
					n++
				}
				continue
			}
			if s.enqueue(r) {
				n++
			}
		}
	}
	if n > 0 {
		s.log.Info("resuming unfinished requests", "count", n)
	}
	return nil
}

func (s *Service) enqueue(r *store.Request) bool {
	s.mu.Lock()
	if s.queued[r.Key] {
		s.mu.Unlock()
		return false
	}
	s.queued[r.Key] = true
	s.queue = append(s.queue, r)
	s.metrics.Queued.Set(float64(len(s.queue)))
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return true
}

func (s *Service) next() *store.Request {
	for {
		s.mu.Lock()
		if len(s.queue) > 0 {
			r := s.queue[0]
			s.queue[0] = nil
			s.queue = s.queue[1:]
			s.metrics.Queued.Set(float64(len(s.queue)))
			more := len(s.queue) > 0
			s.mu.Unlock()
			if more { // pass the wake-up on to another worker
				select {
				case s.wake <- struct{}{}:
				default:
				}
			}
			return r
		}
		s.mu.Unlock()
		select {
		case <-s.wake:
		case <-s.ctx.Done():
			return nil
		}
	}
}

func (s *Service) worker() {
	defer s.wg.Done()
	for {
		r := s.next()
		if r == nil {
			return
		}
		s.run(r)
		s.mu.Lock()
		delete(s.queued, r.Key)
		s.mu.Unlock()
	}
}

// run claims the request's lease and, if this service got it, processes
// the request as stored while renewing the lease, and releases it after.
// A request another replica holds, or finished, is skipped.
func (s *Service) run(queued *store.Request) {
	r, err := s.store.ClaimRequest(s.ctx, queued.Tenant, queued.Key, s.opts.Owner, s.opts.Lease)
	if err != nil {
		if s.ctx.Err() != nil {
			s.release(queued) // closing: another replica, or the next start, takes it at once
			return
		}
		s.metrics.Errors.WithLabelValues("store").Inc()
		s.log.Error("claim request; it stays pending", "key", queued.Key, "err", err)
		return
	}
	if r == nil {
		return // another replica's, or finished
	}
	ctx, cancel := context.WithCancel(s.ctx)
	held := s.holdLease(ctx, cancel, r)
	s.process(ctx, r)
	cancel()
	<-held
	s.release(r)
}
