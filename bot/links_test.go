package bot_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// offLinks is the web view switched off: every URL empty (web.Links nil).
type offLinks struct{}

func (offLinks) CheckURL(string, string, string) string   { return "" }
func (offLinks) HistoryURL(string, string, string) string { return "" }

// With the web view on, a final report carries a "Full report" link made
// for the asker, first among its buttons, and history an "Open history"
// link for the viewer in the channel asked from; placeholders, progress
// and errors carry none.
func TestReportAndHistoryLinks(t *testing.T) {
	links := bottest.Links{}
	st := storetest.NewMemory()
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	s := newService(t, st, &bottest.Checker{Label: factcheck.Contradicted}, p, bot.Options{Links: links})
	if _, err := s.Submit(context.Background(), req("k1", "The moon is made of cheese")); err != nil {
		t.Fatal(err)
	}
	final := waitFinal(t, p)
	id := final.Msg.CheckID
	want := []bot.Action{
		{ID: bot.ActionReport, Label: "Full report", URL: links.CheckURL("T1", "U1", id)},
		{ID: bot.ActionRecheck, Label: "Check again", Value: id},
		{ID: bot.ActionWrong, Label: "Wrong verdict?", Value: id},
	}
	if diff := cmp.Diff(want, final.Msg.Actions); diff != "" {
		t.Errorf("final report's actions (-want +got):\n%s", diff)
	}
	for _, x := range p.Posts() {
		if x.Msg != nil && !x.Msg.Final && len(x.Msg.Actions) > 0 {
			t.Errorf("%s of a non-final message has actions %+v", x.Op, x.Msg.Actions)
		}
	}
	h, err := s.History(context.Background(), "T1", "U2", "C7", bot.HistoryArgs{})
	if err != nil {
		t.Fatal(err)
	}
	if want := links.HistoryURL("T1", "U2", "C7"); h.URL != want {
		t.Errorf("history URL = %q, want %q", h.URL, want)
	}
}

func TestNoLinksWhenTheWebViewIsOff(t *testing.T) {
	for name, links := range map[string]bot.Links{"nil": nil, "empty URLs": offLinks{}} {
		t.Run(name, func(t *testing.T) {
			p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
			s := newService(t, storetest.NewMemory(), &bottest.Checker{}, p, bot.Options{Links: links})
			if _, err := s.Submit(context.Background(), req("k1", "Snow is white")); err != nil {
				t.Fatal(err)
			}
			final := waitFinal(t, p)
			id := final.Msg.CheckID
			want := bot.English.RenderReport(bottest.Report(factcheck.Input{Text: "Snow is white"}, ""), id)
			if diff := cmp.Diff(want, final.Msg); diff != "" {
				t.Errorf("final report (-want +got):\n%s", diff)
			}
			h, err := s.History(context.Background(), "T1", "U1", "C1", bot.HistoryArgs{})
			if err != nil || h.URL != "" {
				t.Errorf("history = %+v, %v; want no URL", h, err)
			}
		})
	}
}

// A failed check has no page: its error carries no link.
func TestNoLinkOnAFailedCheck(t *testing.T) {
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	ck := &bottest.Checker{Func: func(context.Context, factcheck.Input) (*factcheck.Report, error) { return nil, errors.New("boom") }}
	s := newService(t, storetest.NewMemory(), ck, p, bot.Options{Links: bottest.Links{}})
	if _, err := s.Submit(context.Background(), req("e", "claim")); err != nil {
		t.Fatal(err)
	}
	if final := waitFinal(t, p); final.Msg.Error == "" || len(final.Msg.Actions) != 0 {
		t.Errorf("failed check's answer = %+v, want an error without actions", final.Msg)
	}
}

// A check saved before a restart, but not yet posted, is answered from the
// store with its link too.
func TestResumedReportCarriesTheLink(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewMemory()
	r := req("r1", "Paris is in France")
	r.State = store.RequestPending
	if _, err := st.AcceptRequest(ctx, r); err != nil {
		t.Fatal(err)
	}
	c := &store.Check{Tenant: "T1", Channel: "C1", User: "U1", RequestKey: "r1", Text: r.Text,
		Report: bottest.Report(factcheck.Input{Text: r.Text}, "")}
	if err := st.SaveCheck(ctx, c); err != nil {
		t.Fatal(err)
	}
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	ck := &bottest.Checker{}
	newService(t, st, ck, p, bot.Options{Links: bottest.Links{}})
	final := waitFinal(t, p)
	if n := len(ck.Calls()); n != 0 {
		t.Errorf("checked %d times, want the saved check answered", n)
	}
	if final.Msg.CheckID != c.ID || len(final.Msg.Actions) == 0 || final.Msg.Actions[0].URL != (bottest.Links{}).CheckURL("T1", "U1", c.ID) {
		t.Errorf("resumed report = %+v, want check %s with its Full report link first", final.Msg, c.ID)
	}
}
