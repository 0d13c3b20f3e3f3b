package bot_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func newService(t *testing.T, st bot.Store, ck bot.Checker, p bot.Platform, opts bot.Options) *bot.Service {
	t.Helper()
	opts.Logger = quiet
	s := bot.New(st, ck, opts)
	s.Register(p)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func req(key, text string) *store.Request {
	return &store.Request{Key: key, Tenant: "T1", Platform: "test", Kind: bot.KindMention,
		Channel: "C1", Thread: "1700000000.000100", User: "U1", Text: text}
}

// waitFinal returns the posts up to and including the first final message.
func waitFinal(t *testing.T, p *bottest.Platform) bottest.Post {
	t.Helper()
	for x := range p.Sent {
		if x.Msg != nil && x.Msg.Final {
			return x
		}
	}
	t.Fatal("platform channel closed")
	return bottest.Post{}
}

func TestMentionPostedThenUpdatedWithVerdict(t *testing.T) {
	st := storetest.NewMemory()
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	s := newService(t, st, &bottest.Checker{Label: factcheck.Contradicted}, p, bot.Options{})
	res, err := s.Submit(context.Background(), req("k1", "The moon is made of cheese"))
	if err != nil || res.Status != bot.Accepted {
		t.Fatalf("Submit = %v, %v; want accepted", res, err)
	}
	final := waitFinal(t, p)
	s.Close()

	posts := p.Posts()
	if posts[0].Op != "post" || posts[0].Msg.Final || posts[0].Msg.Title != "Checking…" {
		t.Errorf("first = %+v, want the Checking… placeholder posted", posts[0])
	}
	if final.Op != "update" || final.Reply != posts[0].Reply {
		t.Errorf("final = %s %s, want update of %s", final.Op, final.Reply, posts[0].Reply)
	}
	got := final.Msg.Claims[0]
	if got.Label != factcheck.Contradicted || got.Claim != "The moon is made of cheese" || len(got.Evidence) != 1 {
		t.Errorf("final claim = %+v", got)
	}
	if final.Msg.CheckID == "" || len(final.Msg.Actions) != 2 {
		t.Errorf("final lacks check id or actions: %+v", final.Msg)
	}
	r, _ := st.Request(context.Background(), "T1", "k1")
	if r.State != store.RequestDone || r.CheckID != final.Msg.CheckID || r.Reply != posts[0].Reply {
		t.Errorf("stored request = %+v, want done with check id and reply", r)
	}
	c, err := st.Check(context.Background(), "T1", r.CheckID)
	if err != nil || c.RequestKey != "k1" || c.Report == nil {
		t.Errorf("saved check = %+v, %v", c, err)
	}
}

func TestRedeliveryAnsweredOnce(t *testing.T) {
	st := storetest.NewMemory()
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	s := newService(t, st, &bottest.Checker{}, p, bot.Options{})
	var got []bot.Status
	for range 3 {
		res, err := s.Submit(context.Background(), req("dup", "Water boils at 100 C"))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Status)
	}
	waitFinal(t, p)
	s.Close()
	if diff := cmp.Diff([]bot.Status{bot.Accepted, bot.Duplicate, bot.Duplicate}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	n := 0
	for _, x := range p.Posts() {
		if x.Op == "post" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d posts, want 1", n)
	}
}

func TestRefusals(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		text string
		n    int // submissions by the same user
		want string
	}{
		{"empty", "", 1, "There is nothing to check"},
		{"too long", strings.Repeat("x", 101), 1, "too long to check (101 characters; the limit is 100)"},
		{"user limit", "ok", 3, "limit of checks (2 per 10 minutes). Try again after 12:10 UTC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := storetest.NewMemory()
			p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
			s := newService(t, st, &bottest.Checker{}, p,
				bot.Options{MaxInput: 100, UserLimit: bot.Limit{N: 2, Window: 10 * time.Minute}, Now: func() time.Time { return now }})
			var res bot.Result
			for i := range tt.n {
				var err error
				res, err = s.Submit(context.Background(), req(tt.name+string(rune('a'+i)), tt.text))
				if err != nil {
					t.Fatal(err)
				}
			}
			if res.Status != bot.Refused || !strings.Contains(res.Notice, tt.want) {
				t.Fatalf("Submit = %+v, want refused with %q", res, tt.want)
			}
			s.Close()
			var notes []string
			for _, x := range p.Posts() {
				if x.Op == "notify" {
					notes = append(notes, x.Text)
				}
			}
			if diff := cmp.Diff([]string{res.Notice}, notes); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
			r, err := st.Request(context.Background(), "T1", tt.name+string(rune('a'+tt.n-1)))
			// Refused requests do not pile up: what is kept only stops a
			// redelivery from being answered (no text, no user).
			if err != nil || r.State != store.RequestFailed || !r.Refused || r.Text != "" || r.User != "" {
				t.Errorf("stored = %+v, want the refused request kept as a bare refusal", r)
			}
		})
	}
}

func TestCheckErrorIsShortAndHonest(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"user error", &usererr.Error{Msg: "No model key: set GEMINI_API_KEY."}, "No model key: set GEMINI_API_KEY."},
		{"internal", errors.New("dial tcp 10.0.0.1: secret detail"), "Sorry, the check failed because of an internal error."},
		{"timeout", context.DeadlineExceeded, "took too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := storetest.NewMemory()
			p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
			ck := &bottest.Checker{Func: func(context.Context, factcheck.Input) (*factcheck.Report, error) { return nil, tt.err }}
			s := newService(t, st, ck, p, bot.Options{})
			if _, err := s.Submit(context.Background(), req("e", "claim")); err != nil {
				t.Fatal(err)
			}
			final := waitFinal(t, p)
			s.Close()
			if !strings.Contains(final.Msg.Error, tt.want) || strings.Contains(final.Msg.Error, "secret") {
				t.Errorf("error shown = %q, want it to contain %q and no details", final.Msg.Error, tt.want)
			}
			if r, _ := st.Request(context.Background(), "T1", "e"); r == nil || r.State != store.RequestFailed {
				t.Errorf("state = %q, want failed", r.State)
			}
		})
	}
}

func TestResumeAfterRestartCompletesOnce(t *testing.T) {
	st := storetest.NewMemory()
	p1 := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	ck1 := &bottest.Checker{Block: make(chan struct{}), Started: make(chan factcheck.Input, 1)}
	s1 := newService(t, st, ck1, p1, bot.Options{})
	if _, err := s1.Submit(context.Background(), req("r1", "Paris is in France")); err != nil {
		t.Fatal(err)
	}
	<-ck1.Started // placeholder posted, check running
	s1.Close()    // "kill" mid-check
	if r, _ := st.Request(context.Background(), "T1", "r1"); r == nil || r.State != store.RequestPending || r.Reply != "reply-1" {
		t.Fatalf("after close: %+v, want pending with reply", r)
	}

	p2 := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	s2 := newService(t, st, &bottest.Checker{}, p2, bot.Options{})
	final := waitFinal(t, p2)
	s2.Close()
	for _, x := range p2.Posts() {
		if x.Op == "post" {
			t.Errorf("resume posted a new message %+v; want the placeholder updated", x)
		}
	}
	if final.Reply != "reply-1" {
		t.Errorf("final updated %q, want reply-1", final.Reply)
	}
	if r, _ := st.Request(context.Background(), "T1", "r1"); r == nil || r.State != store.RequestDone || r.Attempts != 2 {
		t.Errorf("after resume: %+v, want done after 2 attempts", r)
	}
	// A third start has nothing to do.
	p3 := &bottest.Platform{}
	s3 := newService(t, st, &bottest.Checker{}, p3, bot.Options{})
	s3.Close()
	if n := len(p3.Posts()); n != 0 {
		t.Errorf("third start sent %d messages, want 0", n)
	}
}

func TestRecheckIsFreshWithOriginalText(t *testing.T) {
	st := storetest.NewMemory()
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	ck := &bottest.Checker{}
	s := newService(t, st, ck, p, bot.Options{})
	s.Submit(context.Background(), req("a", "Light is fast"))
	first := waitFinal(t, p)
	r := req("b", "")
	r.Kind = bot.KindRecheck
	r.Meta = map[string]string{bot.MetaCheckID: first.Msg.CheckID}
	if res, err := s.Submit(context.Background(), r); err != nil || res.Status != bot.Accepted {
		t.Fatalf("recheck Submit = %+v, %v", res, err)
	}
	waitFinal(t, p)
	s.Close()
	want := []factcheck.Input{{Tenant: "T1", Text: "Light is fast"}, {Tenant: "T1", Text: "Light is fast", Fresh: true}}
	if diff := cmp.Diff(want, ck.Calls()); diff != "" {
		t.Errorf("checker inputs (-want +got):\n%s", diff)
	}
}

func TestFeedbackAndHistory(t *testing.T) {
	st := storetest.NewMemory()
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	s := newService(t, st, &bottest.Checker{}, p, bot.Options{})
	s.Submit(context.Background(), req("a", "Claim one"))
	final := waitFinal(t, p)
	ctx := context.Background()
	if note, err := s.Feedback(ctx, "T1", "C1", final.Msg.CheckID, bot.Person{}, store.Feedback{User: "U2", Claim: -1}); err != nil || !strings.Contains(note, "Thank you") {
		t.Fatalf("Feedback = %q, %v", note, err)
	}
	if _, err := s.Feedback(ctx, "T1", "C1", "nope", bot.Person{}, store.Feedback{User: "U2"}); !errors.Is(err, store.ErrNotFound) ||
		!strings.Contains(bot.UserMessage(err), "could not find that check") {
		t.Errorf("feedback on unknown check: %v, want store.ErrNotFound shown as \"could not find that check\"", err)
	}
	c, _ := st.Check(ctx, "T1", final.Msg.CheckID)
	if len(c.Feedback) != 1 || c.Feedback[0].User != "U2" || c.Feedback[0].Note != "wrong verdict" {
		t.Errorf("feedback = %+v", c.Feedback)
	}
	h, err := s.History(ctx, "T1", "U2", "C1", bot.HistoryArgs{Count: 5})
	if err != nil || len(h.Lines) != 1 || h.Lines[0].ID != final.Msg.CheckID {
		t.Errorf("history = %+v, %v", h, err)
	}
	if h, _ := s.History(ctx, "T2", "U2", "C1", bot.HistoryArgs{}); len(h.Lines) != 0 {
		t.Errorf("other tenant's history = %+v, want none", h)
	}
}

func TestMux(t *testing.T) {
	reg := bot.NewRegistry()
	m := bot.NewMetrics(reg)
	m.Verdicts.WithLabelValues("supported").Inc()
	srv := httptest.NewServer(bot.NewMux(reg, nil))
	defer srv.Close()
	for path, want := range map[string]string{"/healthz": "ok", "/metrics": `factbot_verdicts_total{verdict="supported"} 1`} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("GET %s = %d %q, want %q", path, resp.StatusCode, b, want)
		}
	}
	if runtime.GOOS != "linux" {
		return
	}
	// The Go and process collectors: the open and most file descriptors
	// are read from /proc by procfs.
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, mf := range mfs {
		got[mf.GetName()] = true
	}
	for _, name := range []string{"go_goroutines", "process_open_fds", "process_max_fds"} {
		if !got[name] {
			t.Errorf("the registry lacks %s", name)
		}
	}
}

func TestObserveAckFeedsHistogram(t *testing.T) {
	reg := bot.NewRegistry()
	s := bot.New(storetest.NewMemory(), &bottest.Checker{}, bot.Options{Metrics: bot.NewMetrics(reg), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	s.ObserveAck("slack", 3*time.Millisecond)
	s.ObserveAck("slack", 40*time.Millisecond)
	srv := httptest.NewServer(bot.NewMux(reg, nil))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`factbot_ack_seconds_count{platform="slack"} 2`,
		`factbot_ack_seconds_bucket{platform="slack",le="0.005"} 1`,
		`factbot_ack_seconds_bucket{platform="slack",le="0.05"} 2`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}
