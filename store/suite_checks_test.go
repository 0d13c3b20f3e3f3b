package store_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// testSaveCheckAndShow: SaveCheck assigns a time-ordered ID, Check returns
// what was saved, AddFeedback appends to it.
func testSaveCheckAndShow(t *testing.T, b Backend, clk *storetest.Clock) {
	c := check("T1", "C1", "U1", "The tower is 330 m tall.", t0, map[string]factcheck.Label{"The tower is 330 m tall": factcheck.Supported})
	mustf(t, b.SaveCheck(ctx, c), "save")
	if c.ID == "" || c.ID[:17] != "20261129T120000Z-" {
		t.Errorf("ID = %q, want the creation time first", c.ID)
	}
	got, err := b.Check(ctx, "T1", c.ID)
	mustf(t, err, "check")
	if diff := cmp.Diff(c, got, cmpOpts); diff != "" {
		t.Errorf("Check (-want +got):\n%s", diff)
	}
	if _, err := b.Check(ctx, "T1", "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing check: %v, want ErrNotFound", err)
	}
	mustf(t, b.AddFeedback(ctx, "T1", c.ID, store.Feedback{User: "U2", Claim: 0, Note: "source B is paywalled"}), "feedback")
	got, _ = b.Check(ctx, "T1", c.ID)
	want := []store.Feedback{{User: "U2", Claim: 0, Note: "source B is paywalled", At: t0}}
	if diff := cmp.Diff(want, got.Feedback, cmpOpts); diff != "" {
		t.Errorf("feedback (-want +got):\n%s", diff)
	}
	if err := b.AddFeedback(ctx, "T1", "nope", store.Feedback{}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("feedback on a missing check: %v, want ErrNotFound", err)
	}

	// CreatedAt defaults to now; a check without a request key records
	// nothing on any request.
	clk.Add(time.Hour)
	bare := &store.Check{Tenant: "T1", Text: "no report"}
	mustf(t, b.SaveCheck(ctx, bare), "save without a time")
	if !bare.CreatedAt.Equal(clk.Now()) || bare.ID[:17] != "20261129T130000Z-" || bare.ID == c.ID {
		t.Errorf("saved at %v with ID %q, want now and a new ID", bare.CreatedAt, bare.ID)
	}
}

// testSaveCheckOncePerRequest: a check saved twice for one request (a
// resumed request after a crash) replaces the first and is recorded on the
// request.
func testSaveCheckOncePerRequest(t *testing.T, b Backend, clk *storetest.Clock) {
	_, err := b.AcceptRequest(ctx, &store.Request{Key: "k1", Tenant: "T1", User: "U1", Text: "x"})
	mustf(t, err, "accept")
	c1 := check("T1", "C1", "U1", "x", clk.Now(), map[string]factcheck.Label{"a": factcheck.Supported})
	c1.RequestKey = "k1"
	mustf(t, b.SaveCheck(ctx, c1), "save 1")
	r, _ := b.Request(ctx, "T1", "k1")
	if r.CheckID != c1.ID || r.State != store.RequestPending {
		t.Errorf("request after save: check %q state %q, want %q pending", r.CheckID, r.State, c1.ID)
	}
	clk.Add(time.Minute)
	c2 := check("T1", "C1", "U1", "x", clk.Now(), map[string]factcheck.Label{"a": factcheck.Contradicted})
	c2.RequestKey = "k1"
	mustf(t, b.SaveCheck(ctx, c2), "save 2")
	if c2.ID != c1.ID {
		t.Errorf("second save got ID %q, want the first's %q", c2.ID, c1.ID)
	}
	h, err := b.History(ctx, "T1", store.HistoryQuery{})
	mustf(t, err, "history")
	if len(h) != 1 || h[0].Verdicts[0] != factcheck.Contradicted {
		t.Errorf("history = %+v, want the one replaced check", h)
	}
	h, _ = b.History(ctx, "T1", store.HistoryQuery{Verdict: factcheck.Supported})
	if len(h) != 0 {
		t.Errorf("stale verdict index entry: %v", ids(h))
	}
	got, err := b.Check(ctx, "T1", c1.ID)
	mustf(t, err, "check")
	if diff := cmp.Diff(c2, got, cmpOpts); diff != "" {
		t.Errorf("replaced check (-want +got):\n%s", diff)
	}
}

// testFeedbackOnce: a note with Feedback.Once is recorded once per person
// (again: store.ErrFeedbackExists, nothing written); another person's, or
// one without Once, is recorded.
func testFeedbackOnce(t *testing.T, b Backend, clk *storetest.Clock) {
	c := check("T1", "C1", "U1", "The Eiffel Tower is 330 m tall", clk.Now(), map[string]factcheck.Label{"The Eiffel Tower is 330 m tall": factcheck.Supported})
	mustf(t, b.SaveCheck(ctx, c), "save")
	var want []store.Feedback
	for i, f := range []store.Feedback{
		{User: "U2", Claim: -1, Note: "wrong verdict", Once: "thumbs_down"},
		{User: "U2", Claim: -1, Note: "wrong verdict", Once: "thumbs_down"},
		{User: "U3", Claim: -1, Note: "wrong verdict", Once: "thumbs_down"},
		{User: "U2", Claim: -1, Note: "wrong verdict"},
	} {
		clk.Add(time.Second)
		err := b.AddFeedback(ctx, "T1", c.ID, f)
		if i == 1 {
			if !errors.Is(err, store.ErrFeedbackExists) {
				t.Errorf("the same note again: %v, want ErrFeedbackExists", err)
			}
			continue
		}
		mustf(t, err, "note %d", i)
		f.At = clk.Now()
		want = append(want, f)
	}
	got, err := b.Check(ctx, "T1", c.ID)
	mustf(t, err, "check")
	if diff := cmp.Diff(want, got.Feedback, cmpOpts); diff != "" {
		t.Errorf("feedback (-want +got):\n%s", diff)
	}
}

// testFeedbackLimit: AddFeedback refuses, with store.ErrFeedbackLimit and
// without storing anything, a person's note beyond
// store.MaxFeedbackPerUser on one check and any note beyond
// store.MaxFeedbackPerCheck; other checks are not affected.
func testFeedbackLimit(t *testing.T, b Backend, clk *storetest.Clock) {
	c := check("T1", "C1", "U1", "The Eiffel Tower is 330 m tall", clk.Now(), map[string]factcheck.Label{"The Eiffel Tower is 330 m tall": factcheck.Supported})
	other := check("T1", "C1", "U1", "Water boils at 100 C", clk.Now(), map[string]factcheck.Label{"Water boils at 100 C": factcheck.Supported})
	mustf(t, b.SaveCheck(ctx, c), "save")
	mustf(t, b.SaveCheck(ctx, other), "save other")
	var want []store.Feedback
	add := func(id, user string) error {
		clk.Add(time.Second)
		f := store.Feedback{User: user, Claim: 0, Note: "wrong: " + user}
		err := b.AddFeedback(ctx, "T1", id, f)
		if err == nil && id == c.ID {
			f.At = clk.Now()
			want = append(want, f)
		}
		return err
	}
	for i := range store.MaxFeedbackPerUser {
		mustf(t, add(c.ID, "U2"), "note %d of U2", i)
	}
	if err := add(c.ID, "U2"); !errors.Is(err, store.ErrFeedbackLimit) {
		t.Errorf("note %d of one person: %v, want ErrFeedbackLimit", store.MaxFeedbackPerUser+1, err)
	}
	mustf(t, add(other.ID, "U2"), "U2's note on another check")
	for u := 0; len(want) < store.MaxFeedbackPerCheck; u++ {
		mustf(t, add(c.ID, fmt.Sprintf("V%d", u)), "note %d", len(want))
	}
	if err := add(c.ID, "W1"); !errors.Is(err, store.ErrFeedbackLimit) {
		t.Errorf("note %d on one check: %v, want ErrFeedbackLimit", store.MaxFeedbackPerCheck+1, err)
	}
	got, err := b.Check(ctx, "T1", c.ID)
	mustf(t, err, "check")
	if diff := cmp.Diff(want, got.Feedback, cmpOpts); diff != "" {
		t.Errorf("feedback (-want +got):\n%s", diff)
	}
	if got, _ := b.Check(ctx, "T1", other.ID); len(got.Feedback) != 1 {
		t.Errorf("other check's feedback: %+v, want U2's one note", got.Feedback)
	}
}
