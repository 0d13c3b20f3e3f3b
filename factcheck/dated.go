package factcheck

import (
	"fmt"
	"time"

	"github.com/factbot-dev/factbot/search"
)

// A run as of a date sees only what is known to be published by then:
// results and pages dated later are dropped (webtools.go), and so, unless
// Checker.KeepUndated, are results and pages with no known date. The
// date is "today" in every prompt of the run: the plan, the research, the
// recheck (the research's own conversation) and the critic.

// runToday is a run's today: its as-of date, or when it started.
func runToday(trace *tracer, asOf, start time.Time) time.Time {
	if asOf.IsZero() {
		return start
	}
	trace.note("checked as of " + asOf.UTC().Format(time.DateOnly) + ": results and pages published later are dropped")
	return asOf
}

// dropUndated says whether the run drops results and pages with no known
// date.
func (r *researcher) dropUndated() bool { return !r.restrict.Before.IsZero() && !r.c.KeepUndated }

// datedResults drops the undated results of a search in a run that
// drops them, and counts them.
func (r *researcher) datedResults(via, query string, res []search.Result) []search.Result {
	if !r.dropUndated() {
		return res
	}
	kept, n := search.Dated(res)
	if n > 0 {
		r.undated.Add(int64(n))
		r.trace.note(fmt.Sprintf("%s %q: dropped %d result(s) with no known date", via, query, n))
	}
	return kept
}

// undatedPage reports whether a page read must be dropped for having no
// known date: neither the page nor the search result that led to it gave
// one.
func (r *researcher) undatedPage(u string, pub time.Time) bool {
	if !r.dropUndated() || !pub.IsZero() {
		return false
	}
	if d, ok := r.lib.lookup(u); ok && search.KnownDate(d.published) {
		return false
	}
	r.undated.Add(1)
	r.trace.note("read " + u + ": dropped, no known publication date")
	return true
}

// todayLine states the run's today for the prompts that have no date in
// their system prompt (the plan and the critic).
func todayLine(today time.Time) string {
	return "\nToday is " + today.UTC().Format(time.DateOnly) + "."
}
