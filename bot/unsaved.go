package bot

import (
	"sync"
	"time"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/internal/wait"
	"github.com/factbot-dev/factbot/store"
)

// This file keeps a request that was answered but whose check could not be
// saved (a full disk, a database cut off): the request stays pending and
// is finished only once its check is saved, so nothing a user was told is
// lost from history, export or the web view.

// Default backoff of a failing save: the waits between a job's attempts.
var defaultSaveBackoff = []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}

// unsaved holds, by request key, the checks answered but not yet saved, so
// that a later attempt (the service resumes pending requests every half
// lease) saves them without running the check again. After a restart
// they are gone and the check runs again (mostly from the caches).
type unsaved struct {
	mu sync.Mutex
	m  map[string]*unsavedCheck
}

type unsavedCheck struct {
	check *store.Check
	reply string // the answer posted, to update when saved
}

func (u *unsaved) put(key string, c *unsavedCheck) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.m == nil {
		u.m = map[string]*unsavedCheck{}
	}
	u.m[key] = c
}

func (u *unsaved) take(key string) *unsavedCheck {
	u.mu.Lock()
	defer u.mu.Unlock()
	c := u.m[key]
	delete(u.m, key)
	return c
}

// saveCheck saves c, trying again after each wait of Options.SaveBackoff
// while the store fails; the last error if it never succeeds, or ctx's.
func (j *job) saveCheck(c *store.Check) error {
	s := j.s
	for i := 0; ; i++ {
		// Saves run side by side: the store serialises them where its
		// driver has one writer (store.DB.SaveCheck).
		err := s.store.SaveCheck(j.ctx, c)
		if err == nil || j.ctx.Err() != nil {
			return err
		}
		s.metrics.Errors.WithLabelValues("store").Inc()
		if i >= len(s.opts.SaveBackoff) {
			return err
		}
		j.log.Warn("save check; trying again", "attempt", i+1, "in", s.opts.SaveBackoff[i], "err", err)
		if werr := wait.Sleep(j.ctx, s.opts.SaveBackoff[i]); werr != nil {
			return err
		}
	}
}

// deliverCheck saves c and answers with its report; the request is
// finished only once c is saved and its report delivered. A check that cannot be saved is answered
// with a notice saying so, kept for the next attempt, and its request
// left pending (resumed every half lease, and after a restart).
func (j *job) deliverCheck(c *store.Check) {
	s, r := j.s, j.r
	if err := j.saveCheck(c); err != nil {
		if j.ctx.Err() == nil {
			j.log.Error("save check failed; the request stays pending and is tried again", "err", err)
			m := s.report(r, c.Report, "")
			m.Notice = joinNotice(m.Notice, m.Lang.Text(words.NotSaved, nil))
			j.answer(m)
		}
		s.unsaved.put(r.Key, &unsavedCheck{check: c, reply: j.reply})
		return
	}
	if !j.answer(s.report(r, c.Report, c.ID)) {
		// Saved (the request names it) but not delivered: the request
		// stays pending, and the next attempt answers from the store.
		return
	}
	s.metrics.Checks.WithLabelValues(r.Platform, "done").Inc()
	s.metrics.Latency.WithLabelValues(r.Platform).Observe(s.opts.Now().Sub(r.CreatedAt).Seconds())
	j.finish(store.RequestDone, c.ID)
}

// resumeUnsaved delivers the check kept for r by an earlier attempt, if
// any: true if there was one.
func (j *job) resumeUnsaved() bool {
	u := j.s.unsaved.take(j.r.Key)
	if u == nil {
		return false
	}
	if j.reply == "" {
		j.reply = u.reply
	}
	j.deliverCheck(u.check)
	return true
}

func joinNotice(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}
