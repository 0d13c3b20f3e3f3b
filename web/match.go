package web

import (
	"net/http"
	"time"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
)

// A claim answered from an earlier check (claim matching) says which claim
// was checked and when, and links that check's page when the holder of
// this page may see it: by the same visibility rule, a check of this
// page's channel, the viewer's own, or one made in a public channel.

// earlierView is the earlier check that answered a claim.
type earlierView struct {
	Note string // "checked before, on …, as “…”", in the page's language
	Link string // its page, "" when the holder may not see it
}

// fillEarlier sets, on each claim answered from an earlier check, what
// was checked then and the link to it.
func (s *Server) fillEarlier(r *http.Request, a *access, p *checkPage) {
	for i := range p.Claims {
		m := p.Claims[i].V.Match
		if m == nil {
			continue
		}
		ev := &earlierView{Note: p.Lang.Text(words.MatchedOn, map[string]any{"Date": m.CheckedAt.UTC().Format(time.DateOnly), "Claim": m.Claim})}
		ev.Link = s.earlierLink(r, a, p, m)
		p.Claims[i].Earlier = ev
	}
}

// earlierLink is the link to the check m names, "" when the holder may not
// see it.
func (s *Server) earlierLink(r *http.Request, a *access, p *checkPage, m *factcheck.Match) string {
	tenant := p.Check.Tenant
	c, err := s.st.Check(r.Context(), tenant, m.CheckID)
	if err != nil {
		return ""
	}
	if !visible(c, a.audience(p.Check.Channel)) {
		return ""
	}
	if a.admin || a.claims.Scope == ScopeHistory {
		return p.link(CheckPath(tenant, c.ID), nil)
	}
	// A check link opens one check: the earlier one gets its own, for the
	// same viewer, lasting as long as this one.
	left := time.Unix(a.claims.Expires, 0).Sub(s.signer.now())
	tok := s.signer.SignFor(Claims{Tenant: tenant, Viewer: a.claims.Viewer, Scope: ScopeCheck, Check: c.ID}, left)
	return CheckPath(tenant, c.ID) + "?t=" + tok
}
