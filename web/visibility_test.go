package web

import (
	"testing"

	"github.com/factbot-dev/factbot/store"
)

// The one visibility rule, until store.Audience replaces it: chat's.
func TestVisible(t *testing.T) {
	public := &store.Check{User: "U1", Channel: "C1"}
	private := &store.Check{User: "U1", Channel: "D1", Private: true}
	tests := []struct {
		name string
		c    *store.Check
		a    Audience
		want bool
	}{
		{"public, anyone", public, Audience{User: "U2", Channel: "C9"}, true},
		{"private, its asker", private, Audience{User: "U1"}, true},
		{"private, someone else", private, Audience{User: "U2", Channel: "D1"}, false},
		{"private, nobody", private, Audience{}, false},
		{"private, operators", private, Audience{TenantWide: true}, true},
	}
	for _, tt := range tests {
		if got := visible(tt.c, tt.a); got != tt.want {
			t.Errorf("%s: visible = %v, want %v", tt.name, got, tt.want)
		}
		q := historyQuery(store.HistoryQuery{}, tt.a)
		if got := q.Matches(tt.c); got != tt.want {
			t.Errorf("%s: historyQuery matches = %v, want %v (it must agree with visible)", tt.name, got, tt.want)
		}
	}
}
