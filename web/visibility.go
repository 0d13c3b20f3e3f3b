package web

import (
	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/store"
)

// audience is who looks through a link, for the one visibility rule
// (store.Check.VisibleTo): the person the link was made for, asking in the
// channel the link was asked for in, as chat's history and buttons see it
// (bot.Audience). nil is an operator: everything.
func audience(viewer, channel string) *store.Audience { return bot.Audience(viewer, channel) }

// visible reports whether a check may be shown to a. Everything the pages
// and the export show of a check goes through it; history lists go
// through historyQuery, which asks the store for the same rule.
func visible(c *store.Check, a *store.Audience) bool { return c.VisibleTo(a) }

// historyQuery makes q select only the checks visible lets a see.
func historyQuery(q store.HistoryQuery, a *store.Audience) store.HistoryQuery {
	q.Audience = a
	return q
}
