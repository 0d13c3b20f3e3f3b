package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Scope kinds: what a link opens.
const (
	// ScopeCheck opens one check (Claims.Check).
	ScopeCheck = "check"
	// ScopeHistory opens the history the viewer may see in the tenant, as
	// chat's history shows it from Claims.Channel, and every check in it.
	ScopeHistory = "history"
)

// Token errors. Every one means the same to the holder: 403, no data.
var (
	ErrBadToken = errors.New("web: malformed or forged link token")
	ErrExpired  = errors.New("web: link token expired")
)

// tokenVersion prefixes every token, so the format can change without
// old links being misread.
const tokenVersion = "v1"

var strictB64 = base64.RawURLEncoding.Strict()

// Claims is what a signed link says: whose view of which tenant it opens,
// what of it, and until when.
type Claims struct {
	Tenant string `json:"t"`
	// Viewer is the chat user the link was made for; visibility is decided
	// for them.
	Viewer string `json:"v,omitempty"`
	// Channel is where the link was asked for (history links).
	Channel string `json:"c,omitempty"`
	Scope   string `json:"s"`
	// Check is the check id of a ScopeCheck link.
	Check string `json:"id,omitempty"`
	// Expires is in Unix seconds.
	Expires int64 `json:"exp"`
}

// Signer signs and verifies link tokens with HMAC-SHA256.
type Signer struct {
	key []byte
	now func() time.Time
}

// NewSigner returns a Signer with the secret key (FACTBOT_WEB_SECRET); now
// is the clock (nil: time.Now).
func NewSigner(secret string, now func() time.Time) *Signer {
	if now == nil {
		now = time.Now
	}
	// Derive the MAC key, so the secret itself is used for nothing else.
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("factbot web link v1"))
	return &Signer{key: m.Sum(nil), now: now}
}

// Sign returns the token for c: "v1.<payload>.<mac>", URL-safe.
func (s *Signer) Sign(c Claims) string {
	payload, err := json.Marshal(c)
	if err != nil {
		panic("web: marshal claims: " + err.Error()) // strings and an int
	}
	p := base64.RawURLEncoding.EncodeToString(payload)
	return tokenVersion + "." + p + "." + base64.RawURLEncoding.EncodeToString(s.mac(p))
}

// SignFor signs claims that expire ttl from now.
func (s *Signer) SignFor(c Claims, ttl time.Duration) string {
	c.Expires = s.now().Add(ttl).Unix()
	return s.Sign(c)
}

func (s *Signer) mac(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(tokenVersion + "." + payload))
	return m.Sum(nil)
}

// Verify checks the token's signature and expiry and returns its claims.
// The error wraps ErrBadToken or ErrExpired.
func (s *Signer) Verify(token string) (*Claims, error) {
	v, rest, ok := strings.Cut(token, ".")
	if !ok || v != tokenVersion {
		return nil, ErrBadToken
	}
	p, sig, ok := strings.Cut(rest, ".")
	if !ok {
		return nil, ErrBadToken
	}
	// Strict decoding: the unused low bits of the last character must be
	// zero, so each token has one spelling (a lenient decoder would accept
	// variants of a valid MAC).
	got, err := strictB64.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(p)) {
		return nil, ErrBadToken
	}
	raw, err := strictB64.DecodeString(p)
	if err != nil {
		return nil, ErrBadToken
	}
	var c Claims
	if err := json.Unmarshal(raw, &c); err != nil || c.Tenant == "" || (c.Scope != ScopeCheck && c.Scope != ScopeHistory) || (c.Scope == ScopeCheck && c.Check == "") {
		return nil, ErrBadToken
	}
	if now := s.now().Unix(); now >= c.Expires {
		return nil, fmt.Errorf("%w at %s", ErrExpired, time.Unix(c.Expires, 0).UTC().Format(time.RFC3339))
	}
	return &c, nil
}

// allowsCheck reports whether the claims open the check id of tenant directly
// (a check link), or through a history (visibility is then decided by the
// caller).
func (c *Claims) allowsCheck(tenant, id string) bool {
	if c.Tenant != tenant {
		return false
	}
	return c.Scope == ScopeHistory || c.Check == id
}
