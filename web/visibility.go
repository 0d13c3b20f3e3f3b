package web

import "github.com/factbot-dev/factbot/store"

// Audience is who looks through a link: the viewer it was made for and the
// channel it was asked in. TenantWide is set for operators, who see every
// check of the tenant.
//
// It mirrors store.Audience, which the store's privacy work introduces;
// when that lands, visible and historyQuery become calls to it and this
// type an alias.
type Audience struct {
	User, Channel string
	TenantWide    bool
}

// visible is the one place the web view decides whether a check may be
// shown to a: chat's rule, a private check only to its asker. Everything
// the pages and the export show of a check goes through it (history lists
// through historyQuery, which asks the store for the same rule).
func visible(c *store.Check, a Audience) bool {
	if a.TenantWide {
		return true
	}
	return !c.Private || (a.User != "" && c.User == a.User)
}

// historyQuery makes q select only the checks visible lets a see, as chat's
// history does.
func historyQuery(q store.HistoryQuery, a Audience) store.HistoryQuery {
	if !a.TenantWide {
		q.Viewer = a.User
		q.HidePrivate = true
	}
	return q
}
