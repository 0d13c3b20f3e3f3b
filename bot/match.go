package bot

import (
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// Claim matching in chat: a claim checked before is answered from the
// earlier check the asker may see there (docs/matching.md). "Check again"
// is a fresh request (Request.Fresh), which the engine never answers from
// an earlier check.

// earlierFinder is a Store that finds earlier checks (*store.DB).
type earlierFinder interface {
	Earlier(tenant string, a *store.Audience) factcheck.Earlier
}

// earlier returns the earlier checks that may answer r, nil when the store
// finds none. An answer in a place others read (a channel, a group DM) may
// come from the checks of that channel and of the tenant's public
// channels; only an answer the asker alone sees (a DM, an ephemeral
// answer) may also come from the asker's own checks elsewhere, so that
// nothing asked in private is shown in public.
func (s *Service) earlier(r *store.Request) factcheck.Earlier {
	f, ok := s.store.(earlierFinder)
	if !ok {
		return nil
	}
	return f.Earlier(r.Tenant, matchAudience(r))
}

// matchAudience is who an answer to r is shown to, as the store's
// visibility rule reads it.
func matchAudience(r *store.Request) *store.Audience {
	a := &store.Audience{Channel: r.Channel, TenantWide: true}
	if r.Private || r.Visibility == store.VisibilityDM {
		a.User = r.User
	}
	return a
}
