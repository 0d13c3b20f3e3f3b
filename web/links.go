package web

import (
	"net/url"
	"strings"
	"time"
)

// Default link lifetimes (FACTBOT_WEB_LINK_TTL sets the check links').
const (
	DefaultCheckTTL   = 7 * 24 * time.Hour
	DefaultHistoryTTL = time.Hour
)

// Links makes the signed links the bot posts in chat. It is safe for
// concurrent use; the zero Links (web view off) makes empty links.
type Links struct {
	base       string // FACTBOT_PUBLIC_URL without a trailing slash
	signer     *Signer
	checkTTL   time.Duration
	historyTTL time.Duration
}

// NewLinks returns the link maker for pages served under publicURL, signed
// with secret; zero TTLs take the defaults.
func NewLinks(publicURL, secret string, checkTTL, historyTTL time.Duration, now func() time.Time) *Links {
	if checkTTL <= 0 {
		checkTTL = DefaultCheckTTL
	}
	if historyTTL <= 0 {
		historyTTL = DefaultHistoryTTL
	}
	return &Links{base: strings.TrimRight(publicURL, "/"), signer: NewSigner(secret, now), checkTTL: checkTTL, historyTTL: historyTTL}
}

// CheckURL is the link to one check's page, for viewer; "" when the web
// view is off.
func (l *Links) CheckURL(tenant, viewer, checkID string) string {
	if l == nil || l.signer == nil {
		return ""
	}
	tok := l.signer.SignFor(Claims{Tenant: tenant, Viewer: viewer, Scope: ScopeCheck, Check: checkID}, l.checkTTL)
	return l.base + CheckPath(tenant, checkID) + "?t=" + tok
}

// HistoryURL is the link to the history viewer may see, asked for in
// channel; "" when the web view is off.
func (l *Links) HistoryURL(tenant, viewer, channel string) string {
	if l == nil || l.signer == nil {
		return ""
	}
	tok := l.signer.SignFor(Claims{Tenant: tenant, Viewer: viewer, Channel: channel, Scope: ScopeHistory}, l.historyTTL)
	return l.base + HistoryPath(tenant) + "?t=" + tok
}

// CheckPath is the path of a check's page.
func CheckPath(tenant, id string) string {
	return "/web/check/" + url.PathEscape(tenant) + "/" + url.PathEscape(id)
}

// HistoryPath is the path of a tenant's history page.
func HistoryPath(tenant string) string { return "/web/history/" + url.PathEscape(tenant) }

// ExportPath is the path of a tenant's export.
func ExportPath(tenant string) string { return "/web/export/" + url.PathEscape(tenant) }
