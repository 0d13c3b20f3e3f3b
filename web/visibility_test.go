package web

import (
	"testing"

	"github.com/factbot-dev/factbot/store"
)

// The web view's rule is chat's: store.Check.VisibleTo with bot.Audience.
func TestVisible(t *testing.T) {
	public := &store.Check{User: "U1", Channel: "C1", Visibility: store.VisibilityPublic}
	channel := &store.Check{User: "U1", Channel: "G1", Visibility: store.VisibilityPrivate}
	private := &store.Check{User: "U1", Channel: "C1", Private: true, Visibility: store.VisibilityPublic}
	tests := []struct {
		name string
		c    *store.Check
		a    *store.Audience
		want bool
	}{
		{"public channel, anyone anywhere", public, audience("U2", "C9"), true},
		{"private channel, from inside", channel, audience("U2", "G1"), true},
		{"private channel, from elsewhere", channel, audience("U2", "C9"), false},
		{"private channel, its asker anywhere", channel, audience("U1", ""), true},
		{"private answer, its asker", private, audience("U1", "D1"), true},
		{"private answer, someone in the channel", private, audience("U2", "C1"), false},
		{"private answer, operators", private, nil, true},
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
