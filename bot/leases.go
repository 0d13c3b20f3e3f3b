package bot

import (
	"context"
	"errors"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// holdLease renews the lease of r every Lease/3 until ctx ends. When the
// lease is lost (taken over after it ran out, or not renewed for a whole
// Lease), it cancels the request's work: the request stays pending and
// is another replica's. The returned channel is closed when it stops.
func (s *Service) holdLease(ctx context.Context, cancel context.CancelFunc, r *store.Request) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(s.opts.Lease / 3)
		defer t.Stop()
		renewed := s.opts.Now()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			err := s.store.RenewLease(ctx, r.Tenant, r.Key, s.opts.Owner, s.opts.Lease)
			switch {
			case err == nil:
				renewed = s.opts.Now()
				continue
			case ctx.Err() != nil:
				return
			case errors.Is(err, store.ErrLeaseLost):
			case s.opts.Now().Sub(renewed) < s.opts.Lease:
				s.log.Warn("renew lease; trying again", "key", r.Key, "err", err)
				continue
			}
			s.metrics.Errors.WithLabelValues("store").Inc()
			s.log.Error("lease lost; leaving the request to another replica", "key", r.Key, "err", err)
			cancel()
			return
		}
	}()
	return done
}

// release gives up this service's lease of r, so that another replica can
// take an unfinished request at once.
func (s *Service) release(r *store.Request) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), 10*time.Second)
	defer cancel()
	if err := s.store.RenewLease(ctx, r.Tenant, r.Key, s.opts.Owner, 0); err != nil {
		s.log.Warn("release lease", "key", r.Key, "err", err)
	}
}
