package web

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSignVerify(t *testing.T) {
	s := NewSigner(testSecret, testNow)
	check := Claims{Tenant: "T1", Viewer: "U1", Scope: ScopeCheck, Check: "20261130T093000Z-ab12", Expires: testNow().Add(time.Hour).Unix()}
	history := Claims{Tenant: "T1", Viewer: "U1", Channel: "C1", Scope: ScopeHistory, Expires: testNow().Add(time.Hour).Unix()}
	good := s.Sign(check)
	tamper := func(tok string, f func(payload, mac string) (string, string)) string {
		parts := strings.Split(tok, ".")
		p, m := f(parts[1], parts[2])
		return parts[0] + "." + p + "." + m
	}
	// The payload of another token, with this token's MAC.
	swapped := tamper(good, func(_, mac string) (string, string) { return strings.Split(s.Sign(history), ".")[1], mac })
	flipped := tamper(good, func(p, mac string) (string, string) {
		b := []byte(mac)
		if b[3] == 'A' {
			b[3] = 'B'
		} else {
			b[3] = 'A'
		}
		return p, string(b)
	})
	tests := []struct {
		name    string
		token   string
		want    *Claims
		wantErr error
	}{
		{"check link", good, &check, nil},
		{"history link", s.Sign(history), &history, nil},
		{"another secret", NewSigner("another secret", testNow).Sign(check), nil, ErrBadToken},
		{"payload swapped", swapped, nil, ErrBadToken},
		{"mac changed", flipped, nil, ErrBadToken},
		{"mac cut", good[:len(good)-2], nil, ErrBadToken},
		// A MAC of 32 bytes is 43 characters whose last carries 4 bits and 2
		// unused ones: setting those must not give a second valid spelling.
		{"unused bits of the mac set", tamper(good, func(p, mac string) (string, string) {
			return p, mac[:len(mac)-1] + string(otherSpelling(mac[len(mac)-1]))
		}), nil, ErrBadToken},
		{"no mac", strings.Join(strings.Split(good, ".")[:2], "."), nil, ErrBadToken},
		{"another version", "v2" + good[2:], nil, ErrBadToken},
		{"empty", "", nil, ErrBadToken},
		{"garbage", "v1.%%%.%%%", nil, ErrBadToken},
		{"expired", s.Sign(Claims{Tenant: "T1", Scope: ScopeHistory, Expires: testNow().Unix()}), nil, ErrExpired},
		{"expired long ago", s.Sign(Claims{Tenant: "T1", Scope: ScopeCheck, Check: "x", Expires: testNow().Add(-24 * time.Hour).Unix()}), nil, ErrExpired},
		{"no tenant", s.Sign(Claims{Scope: ScopeHistory, Expires: testNow().Add(time.Hour).Unix()}), nil, ErrBadToken},
		{"unknown scope", s.Sign(Claims{Tenant: "T1", Scope: "all", Expires: testNow().Add(time.Hour).Unix()}), nil, ErrBadToken},
		{"check scope without a check", s.Sign(Claims{Tenant: "T1", Scope: ScopeCheck, Expires: testNow().Add(time.Hour).Unix()}), nil, ErrBadToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Verify(tt.token)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Verify: err %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Verify (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLinksExpire(t *testing.T) {
	now := testNow()
	l := NewLinks("https://factbot.example/", testSecret, 0, 0, func() time.Time { return now })
	s := NewSigner(testSecret, func() time.Time { return now })
	for _, tt := range []struct {
		name string
		link string
		ttl  time.Duration
	}{
		{"check", l.CheckURL("T1", "U1", "id1"), DefaultCheckTTL},
		{"history", l.HistoryURL("T1", "U1", "C1"), DefaultHistoryTTL},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, tok, _ := strings.Cut(tt.link, "?t=")
			c, err := s.Verify(tok)
			if err != nil {
				t.Fatal(err)
			}
			if got := time.Unix(c.Expires, 0); !got.Equal(now.Add(tt.ttl)) {
				t.Errorf("expires %v, want %v", got, now.Add(tt.ttl))
			}
			later := NewSigner(testSecret, func() time.Time { return now.Add(tt.ttl) })
			if _, err := later.Verify(tok); !errors.Is(err, ErrExpired) {
				t.Errorf("at expiry: err %v, want ErrExpired", err)
			}
		})
	}
	if got, want := l.CheckURL("T 1", "U1", "id/1")[:len("https://factbot.example/web/check/T%201/id%2F1?t=")], "https://factbot.example/web/check/T%201/id%2F1?t="; got != want {
		t.Errorf("CheckURL = %q…, want %q…", got, want)
	}
	var off *Links
	if off.CheckURL("T1", "U1", "x") != "" || off.HistoryURL("T1", "U1", "C1") != "" {
		t.Error("nil Links made a link")
	}
}

// What a verified link opens: its own check, or, for a history link, any
// check of its tenant (visibility is then decided per check).
func TestAllowsCheck(t *testing.T) {
	check := &Claims{Tenant: "T1", Viewer: "U1", Scope: ScopeCheck, Check: "id1"}
	history := &Claims{Tenant: "T1", Viewer: "U1", Channel: "C1", Scope: ScopeHistory}
	tests := []struct {
		name       string
		c          *Claims
		tenant, id string
		want       bool
	}{
		{"check link, its check", check, "T1", "id1", true},
		{"check link, another check", check, "T1", "id2", false},
		{"check link, wrong tenant", check, "T2", "id1", false},
		{"history link, a check of its tenant", history, "T1", "id2", true},
		{"history link, wrong tenant", history, "T2", "id1", false},
	}
	for _, tt := range tests {
		if got := tt.c.allowsCheck(tt.tenant, tt.id); got != tt.want {
			t.Errorf("%s: allowsCheck(%q, %q) = %v, want %v", tt.name, tt.tenant, tt.id, got, tt.want)
		}
	}
}

// otherSpelling returns the base64url character with the same high 4 bits
// as c and the lowest bit flipped.
func otherSpelling(c byte) byte {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	i := strings.IndexByte(alphabet, c)
	return alphabet[i^1]
}
