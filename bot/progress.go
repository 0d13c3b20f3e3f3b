package bot

import (
	"context"
	"sync"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// progress coalesces progress updates: one in flight at a time, and only
// the latest state is sent after it. Updates run on their own goroutine,
// each bounded by Options.ProgressTimeout, so a platform that hangs on one
// delays neither the check nor its final answer.
type progress struct {
	mu       sync.Mutex
	claims   []factcheck.ExtractedClaim
	verdicts map[int]*factcheck.Verdict
	lang     Lang // the request's, then the claims'
	dirty    chan struct{}
	cancel   context.CancelFunc
	done     chan struct{}
	wait     time.Duration // how long stop waits for an update in flight
	langOf   func(claims string) Lang
}

func (s *Service) startProgress(ctx context.Context, p Platform, r *store.Request, reply, text string) *progress {
	ctx, cancel := context.WithCancel(ctx)
	pr := &progress{verdicts: map[int]*factcheck.Verdict{}, dirty: make(chan struct{}, 1),
		lang:   RequestLang(r, "", text),
		cancel: cancel, done: make(chan struct{}), wait: s.opts.ProgressTimeout}
	pr.langOf = func(claims string) Lang { return RequestLang(r, claims, text) }
	if reply == "" {
		close(pr.done)
		return pr
	}
	go func() {
		defer close(pr.done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-pr.dirty:
			}
			pr.mu.Lock()
			m := pr.lang.RenderProgress(pr.claims, pr.verdicts)
			pr.mu.Unlock()
			uctx, ucancel := context.WithTimeout(ctx, s.opts.ProgressTimeout)
			err := p.Update(uctx, r, reply, m)
			ucancel()
			if err != nil && ctx.Err() == nil {
				s.log.Debug("progress update", "key", r.Key, "err", err)
			}
		}
	}()
	return pr
}

func (pr *progress) event(e factcheck.Event) {
	pr.mu.Lock()
	switch e.Kind {
	case factcheck.EventClaims:
		pr.claims = append([]factcheck.ExtractedClaim(nil), e.Claims...)
		if len(e.Claims) > 0 {
			pr.lang = pr.langOf(e.Claims[0].Language)
		}
	case factcheck.EventVerdict:
		if e.Verdict != nil && e.Claim >= 0 {
			v := *e.Verdict // a snapshot: rendered later, on another goroutine
			v.Evidence = append([]factcheck.Evidence(nil), v.Evidence...)
			pr.verdicts[e.Claim] = &v
		}
	default:
		pr.mu.Unlock()
		return
	}
	pr.mu.Unlock()
	select {
	case pr.dirty <- struct{}{}:
	default:
	}
}

// stop ends the updates: one in flight is cancelled (the final answer
// replaces it) and waited for, so that it does not land after the final
// answer, but never longer than one update's deadline.
func (pr *progress) stop() {
	pr.cancel()
	t := time.NewTimer(pr.wait)
	defer t.Stop()
	select {
	case <-pr.done:
	case <-t.C:
	}
}
