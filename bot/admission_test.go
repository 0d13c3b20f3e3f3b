package bot_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

var limitNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// asks is a request of user in tenant, by person when not empty.
func asks(key, tenant, user, person string) *store.Request {
	r := req(key, "The sky is blue")
	r.Tenant, r.User = tenant, user
	if person != "" {
		r.Meta = map[string]string{bot.MetaPerson: person}
	}
	return r
}

func statuses(t *testing.T, s *bot.Service, reqs ...*store.Request) ([]bot.Status, []string) {
	t.Helper()
	var got []bot.Status
	var notices []string
	for _, r := range reqs {
		res, err := s.Submit(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Status)
		if res.Notice != "" {
			notices = append(notices, res.Notice)
		}
	}
	return got, notices
}

// One person has one limit, whatever the tenants they ask in (a Discord
// user in several servers and in direct messages); without MetaPerson the
// same user id in two tenants is two people (Slack ids are per workspace).
func TestUserLimitIsPerPersonAcrossTenants(t *testing.T) {
	tests := []struct {
		name string
		reqs []*store.Request
		want []bot.Status
	}{
		{"one person in three tenants", []*store.Request{
			asks("a", "G1", "42", "42"), asks("b", "G2", "42", "42"), asks("c", "dm:42", "42", "42"),
		}, []bot.Status{bot.Accepted, bot.Accepted, bot.Refused}},
		{"same user id in two workspaces", []*store.Request{
			asks("a", "T1", "U1", ""), asks("b", "T1", "U1", ""), asks("c", "T2", "U1", ""),
		}, []bot.Status{bot.Accepted, bot.Accepted, bot.Accepted}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
			s := newService(t, storetest.NewMemory(), &bottest.Checker{}, p, bot.Options{
				UserLimit: bot.Limit{N: 2, Window: 10 * time.Minute}, Now: func() time.Time { return limitNow }})
			got, notices := statuses(t, s, tt.reqs...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
			for _, n := range notices {
				if !strings.Contains(n, "limit of checks (2 per 10 minutes). Try again after 12:10 UTC") {
					t.Errorf("notice %q, want the per-user limit", n)
				}
			}
		})
	}
}

// A tenant's users together have the tenant limit; a request refused by it
// does not count against its asker.
func TestTenantLimit(t *testing.T) {
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	s := newService(t, storetest.NewMemory(), &bottest.Checker{}, p, bot.Options{
		UserLimit:   bot.Limit{N: 1, Window: time.Hour},
		TenantLimit: bot.Limit{N: 2, Window: time.Hour}, Now: func() time.Time { return limitNow }})
	got, notices := statuses(t, s,
		asks("a", "T1", "U1", ""), asks("b", "T1", "U2", ""), asks("c", "T1", "U3", ""),
		asks("d", "T2", "U3", "")) // U3 of T1 and of T2 are two people anyway; T2 has room
	want := []bot.Status{bot.Accepted, bot.Accepted, bot.Refused, bot.Accepted}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "limit of checks (2 per hour, for everyone together). Try again after 13:00 UTC") {
		t.Errorf("notices = %q, want the tenant limit", notices)
	}

	// The person refused by the tenant limit still has their own check.
	s2 := newService(t, storetest.NewMemory(), &bottest.Checker{}, &bottest.Platform{}, bot.Options{
		UserLimit:   bot.Limit{N: 1, Window: time.Hour},
		TenantLimit: bot.Limit{N: 1, Window: time.Hour}, Now: func() time.Time { return limitNow }})
	got, _ = statuses(t, s2, asks("a", "G1", "7", "7"), asks("b", "G1", "8", "8"), asks("c", "G2", "8", "8"))
	want = []bot.Status{bot.Accepted, bot.Refused, bot.Accepted}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("refused by the tenant limit, then elsewhere (-want +got):\n%s", diff)
	}
}

// Requests beyond MaxQueue waiting for a worker are refused politely, and
// nothing is checked for them.
func TestBoundedQueue(t *testing.T) {
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	ck := &bottest.Checker{Block: make(chan struct{}), Started: make(chan factcheck.Input, 10)}
	s := newService(t, storetest.NewMemory(), ck, p, bot.Options{Workers: 1, MaxQueue: 1, NoUserLimit: true})
	if got, _ := statuses(t, s, asks("running", "T1", "U1", "")); got[0] != bot.Accepted {
		t.Fatalf("first = %v", got)
	}
	<-ck.Started // the only worker is busy
	got, notices := statuses(t, s, asks("waiting", "T1", "U2", ""), asks("over", "T1", "U3", ""))
	if diff := cmp.Diff([]bot.Status{bot.Accepted, bot.Refused}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "too many checks waiting") {
		t.Errorf("notices = %q, want the busy refusal", notices)
	}
	close(ck.Block)
	waitFinal(t, p)
	waitFinal(t, p)
	s.Close()
	var checked []string
	for _, in := range ck.Calls() {
		checked = append(checked, in.Text)
	}
	if len(checked) != 2 {
		t.Errorf("checked %d requests, want the 2 accepted", len(checked))
	}
}

// One person's feedback is capped across tenants; over the cap nothing is
// recorded and the person is told.
func TestFeedbackLimitPerPerson(t *testing.T) {
	st := storetest.NewMemory()
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	s := newService(t, st, &bottest.Checker{}, p, bot.Options{FeedbackLimit: bot.Limit{N: 2, Window: time.Hour},
		Now: func() time.Time { return limitNow }})
	s.Submit(context.Background(), req("a", "Claim one"))
	id := waitFinal(t, p).Msg.CheckID
	ctx := context.Background()
	person := bot.Person{Platform: "test", ID: "42"}
	for i := range 2 {
		if _, err := s.Feedback(ctx, "T1", "C1", id, person, store.Feedback{User: "42", Claim: -1}); err != nil {
			t.Fatalf("feedback %d: %v", i, err)
		}
	}
	_, err := s.Feedback(ctx, "T1", "C1", id, person, store.Feedback{User: "42", Claim: -1})
	if !errors.Is(err, bot.ErrFeedbackLimit) || !strings.Contains(bot.UserMessage(err), "not recorded") {
		t.Errorf("third feedback: %v (%q), want the feedback limit", err, bot.UserMessage(err))
	}
	// Someone else still may.
	if _, err := s.Feedback(ctx, "T1", "C1", id, bot.Person{Platform: "test", ID: "43"}, store.Feedback{User: "43", Claim: -1}); err != nil {
		t.Errorf("another person's feedback: %v", err)
	}
	c, _ := st.Check(ctx, "T1", id)
	if len(c.Feedback) != 3 {
		t.Errorf("%d feedback recorded, want 3", len(c.Feedback))
	}
}

// hangingPlatform hangs on progress updates until their context ends.
type hangingPlatform struct {
	*bottest.Platform
	hung chan struct{}
}

func (h *hangingPlatform) Update(ctx context.Context, r *store.Request, reply string, m *bot.Message) error {
	if !m.Final {
		select {
		case h.hung <- struct{}{}:
		default:
		}
		<-ctx.Done()
		return ctx.Err()
	}
	return h.Platform.Update(ctx, r, reply, m)
}

// A progress update that hangs holds neither the worker nor the final
// report.
func TestHungProgressUpdateDoesNotBlockTheReport(t *testing.T) {
	p := &hangingPlatform{Platform: &bottest.Platform{Sent: make(chan bottest.Post, 100)}, hung: make(chan struct{}, 1)}
	s := newService(t, storetest.NewMemory(), &bottest.Checker{}, p, bot.Options{ProgressTimeout: time.Hour, CallTimeout: time.Hour})
	if _, err := s.Submit(context.Background(), req("h", "Claim one\nClaim two")); err != nil {
		t.Fatal(err)
	}
	final := waitFinal(t, p.Platform)
	if final.Op != "update" || len(final.Msg.Claims) != 2 {
		t.Errorf("final = %+v, want the report updated in place", final)
	}
}

// A platform call that hangs is given up after CallTimeout: the worker
// moves on to the next request.
func TestHungPostDoesNotHoldTheWorker(t *testing.T) {
	p := &hangingPost{Platform: &bottest.Platform{Sent: make(chan bottest.Post, 100)}}
	s := newService(t, storetest.NewMemory(), &bottest.Checker{}, p, bot.Options{Workers: 1, CallTimeout: 50 * time.Millisecond})
	for _, k := range []string{"a", "b"} {
		if _, err := s.Submit(context.Background(), req(k, "Claim "+k)); err != nil {
			t.Fatal(err)
		}
	}
	// Every post hangs; the one worker still gets to the second request.
	for x := range p.Platform.Sent {
		if x.Text == "post b" {
			return
		}
	}
}

// hangingPost records each Post as a note, then hangs until its context
// ends.
type hangingPost struct{ *bottest.Platform }

func (h *hangingPost) Post(ctx context.Context, r *store.Request, m *bot.Message) (string, error) {
	h.Platform.Notify(ctx, r, "post "+r.Key)
	<-ctx.Done()
	return "", ctx.Err()
}

// The limits' refusals and the feedback's answers are in the asker's
// language (their platform locale), like reports.
func TestLimitsAndFeedbackInAskersLanguage(t *testing.T) {
	fr := func(key, user string) *store.Request {
		r := asks(key, "T1", user, "")
		r.Meta = map[string]string{bot.MetaLocale: "fr-FR"}
		return r
	}
	s := newService(t, storetest.NewMemory(), &bottest.Checker{}, &bottest.Platform{}, bot.Options{
		UserLimit:   bot.Limit{N: 1, Window: time.Hour},
		TenantLimit: bot.Limit{N: 2, Window: 10 * time.Minute}, Now: func() time.Time { return limitNow }})
	_, notices := statuses(t, s, fr("a", "U1"), fr("b", "U1"), fr("c", "U2"), fr("d", "U3"))
	want := []string{
		"Vous avez atteint votre limite de vérifications (1 par heure). Réessayez après 13:00 UTC.",
		"Désolé, cet espace de travail ou ce serveur a atteint sa limite de vérifications (2 par 10 minutes, pour tout le monde). Réessayez après 12:10 UTC.",
	}
	if diff := cmp.Diff(notices, want); diff != "" {
		t.Errorf("French refusals (-got +want):\n%s", diff)
	}

	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	s = newService(t, storetest.NewMemory(), &bottest.Checker{}, p, bot.Options{FeedbackLimit: bot.Limit{N: 1, Window: time.Hour},
		Now: func() time.Time { return limitNow }})
	s.Submit(context.Background(), req("a", "Claim one"))
	id := waitFinal(t, p).Msg.CheckID
	es := bot.Person{Platform: "test", ID: "42", Locale: "es-MX"}
	var got []string
	for range 2 {
		note, err := s.Feedback(context.Background(), "T1", "C1", id, es, store.Feedback{User: "42", Claim: -1})
		if err != nil {
			note = bot.UserMessage(err)
		}
		got = append(got, note)
	}
	want = []string{
		"Gracias: tu comentario quedó registrado con la comprobación " + id + ".",
		"Gracias, pero has enviado muchos comentarios últimamente, así que este no se registró. Vuelve a intentarlo más tarde.",
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("Spanish feedback answers (-got +want):\n%s", diff)
	}
}
