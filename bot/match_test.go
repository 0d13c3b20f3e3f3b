package bot_test

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// TestMatchingInChat: the engine is given the earlier checks the answer's
// readers may see: in a channel, that channel's and the public channels'
// checks, never the asker's private ones from elsewhere; in a DM, the
// asker's own too. "Check again" is a fresh check, which the engine never
// answers from an earlier one.
func TestMatchingInChat(t *testing.T) {
	st := storetest.NewMemory()
	ctx := context.Background()
	vec := []float32{1, 0, 0, 0}
	earlier := func(channel string, vis store.Visibility) *store.Check {
		c := &store.Check{Tenant: "T1", Channel: channel, User: "U1", Text: "x", Visibility: vis,
			Report: &factcheck.Report{Claims: []*factcheck.Verdict{{Claim: "x", Verdict: factcheck.Contradicted,
				Embedding: &factcheck.Embedding{Model: "m/4", Vector: vec}}}}}
		if err := st.SaveCheck(ctx, c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	dm := earlier("D1", store.VisibilityDM)
	pub := earlier("CPUB", store.VisibilityPublic)

	var mu sync.Mutex
	type seen struct {
		fresh bool
		ids   []string
	}
	var got []seen
	ck := &bottest.Checker{Func: func(ctx context.Context, in factcheck.Input) (*factcheck.Report, error) {
		s := seen{fresh: in.Fresh, ids: []string{}}
		if in.Earlier == nil {
			t.Error("no earlier checks given to the engine")
		} else {
			found, err := in.Earlier.Nearest(ctx, factcheck.EarlierQuery{Model: "m/4", Vector: vec, Min: 0.9, Limit: 5})
			if err != nil {
				t.Error(err)
			}
			for _, f := range found {
				s.ids = append(s.ids, f.CheckID)
			}
		}
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
		return bottest.Report(in, factcheck.Supported), nil
	}}
	p := &bottest.Platform{Sent: make(chan bottest.Post, 100)}
	s := newService(t, st, ck, p, bot.Options{})

	inChannel := req("a", "x")
	inChannel.Visibility = store.VisibilityPrivate
	s.Submit(ctx, inChannel)
	first := waitFinal(t, p)
	inDM := req("b", "x")
	inDM.Channel, inDM.Visibility = "D1", store.VisibilityDM
	s.Submit(ctx, inDM)
	waitFinal(t, p)
	again := req("c", "")
	again.Kind, again.Meta = bot.KindRecheck, map[string]string{bot.MetaCheckID: first.Msg.CheckID}
	s.Submit(ctx, again)
	waitFinal(t, p)
	s.Close()

	want := []seen{
		{ids: []string{pub.ID}},
		{ids: []string{dm.ID, pub.ID}},
		{fresh: true, ids: []string{pub.ID}},
	}
	sortIDs := cmp.Transformer("sort", func(ids []string) map[string]bool {
		m := map[string]bool{}
		for _, id := range ids {
			m[id] = true
		}
		return m
	})
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(seen{}), sortIDs); diff != "" {
		t.Errorf("what the engine was given (-want +got):\n%s", diff)
	}
}
