package store_test

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// vec returns the unit vector of dimension 8 whose first components are
// proportional to xs.
func vec(xs ...float64) []float32 {
	var sum float64
	for _, x := range xs {
		sum += x * x
	}
	v := make([]float32, 8)
	for i, x := range xs {
		v[i] = float32(x / math.Sqrt(sum))
	}
	return v
}

// axis is the unit vector along component i.
func axis(i int) []float32 {
	v := make([]float32, 8)
	v[i] = 1
	return v
}

// embedded is a check of one claim with its vector.
func embedded(tenant, channel, user, claim string, at time.Time, vec []float32) *store.Check {
	c := check(tenant, channel, user, claim, at, map[string]factcheck.Label{claim: factcheck.Contradicted})
	c.Report.Claims[0].Embedding = &factcheck.Embedding{Model: "test/8", Vector: vec}
	return c
}

// nearest returns the IDs of the earlier claims near vec for audience a.
func nearest(t *testing.T, b Backend, tenant string, a *store.Audience, vec []float32, since time.Time) []string {
	t.Helper()
	found, err := b.Earlier(tenant, a).Nearest(ctx, factcheck.EarlierQuery{Model: "test/8", Vector: vec, Since: since, Min: 0.8, Limit: 5})
	mustf(t, err, "nearest")
	out := []string{}
	for _, f := range found {
		out = append(out, f.CheckID)
	}
	return out
}

// testEarlierNearest: the vectors of a check's claims are kept with it;
// Nearest returns the claims above the threshold, nearest first, with
// their verdicts and evidence, within the window, and only of the model
// asked; a check saved again without embeddings keeps its vectors.
func testEarlierNearest(t *testing.T, b Backend, clk *storetest.Clock) {
	near := embedded("T1", "C1", "U1", "The bridge carries 400 cars a day", clk.Now(), axis(0))
	mustf(t, b.SaveCheck(ctx, near), "save")
	clk.Add(time.Hour)
	nearer := embedded("T1", "C1", "U1", "400 cars a day cross the bridge", clk.Now(), vec(3, 1))
	mustf(t, b.SaveCheck(ctx, nearer), "save")
	far := embedded("T1", "C1", "U1", "The moon is made of cheese", clk.Now(), axis(5))
	mustf(t, b.SaveCheck(ctx, far), "save")
	plain := check("T1", "C1", "U1", "no vector", clk.Now(), map[string]factcheck.Label{"no vector": factcheck.Supported})
	mustf(t, b.SaveCheck(ctx, plain), "save")

	q := vec(1, -0.5) // cos 0.894 to axis(0), 0.707 to vec(3, 1)
	found, err := b.Earlier("T1", nil).Nearest(ctx, factcheck.EarlierQuery{Model: "test/8", Vector: q, Since: t0, Min: 0.8, Limit: 5})
	mustf(t, err, "nearest")
	if len(found) != 1 || found[0].CheckID != near.ID || math.Abs(found[0].Similarity-0.894) > 0.03 {
		t.Fatalf("Nearest = %+v, want %s at about 0.894 (within the 4-bit components' error)", found, near.ID)
	}
	if diff := cmp.Diff(near.Report.Claims[0].Evidence, found[0].Verdict.Evidence, cmpOpts); diff != "" || !found[0].CheckedAt.Equal(near.CreatedAt) {
		t.Errorf("the earlier verdict's evidence (-want +got):\n%s; checked at %v", diff, found[0].CheckedAt)
	}
	if got, want := nearest(t, b, "T1", nil, axis(0), t0), []string{near.ID, nearer.ID}; !cmp.Equal(got, want) {
		t.Errorf("nearest first: %v, want %v", got, want)
	}
	if got, want := nearest(t, b, "T1", nil, axis(0), t0.Add(time.Minute)), []string{nearer.ID}; !cmp.Equal(got, want) {
		t.Errorf("within the window: %v, want %v", got, want)
	}
	other, err := b.Earlier("T1", nil).Nearest(ctx, factcheck.EarlierQuery{Model: "other/8", Vector: axis(0), Since: t0, Min: 0.8, Limit: 5})
	if err != nil || len(other) != 0 {
		t.Errorf("another model's vectors: %v, %v; want none", other, err)
	}
	// Read back (no embedding in its JSON) and saved again: still found.
	again, err := b.Check(ctx, "T1", near.ID)
	mustf(t, err, "check")
	mustf(t, b.SaveCheck(ctx, again), "save again")
	if got := nearest(t, b, "T1", nil, axis(0), t0); len(got) != 2 {
		t.Errorf("after saving again: %v, want both", got)
	}
}

// testEarlierVisibility: Nearest follows the one visibility rule, within
// one tenant: never another tenant's check, never another person's
// private answer, a private channel's checks only in that channel, and
// a public channel's tenant-wide.
func testEarlierVisibility(t *testing.T, b Backend, clk *storetest.Clock) {
	v := axis(2)
	pub := embedded("T1", "CPUB", "U1", "claim", clk.Now(), v)
	pub.Visibility = store.VisibilityPublic
	priv := embedded("T1", "GPRIV", "U1", "claim", clk.Now(), v)
	priv.Visibility = store.VisibilityPrivate
	ephemeral := embedded("T1", "CPUB", "U1", "claim", clk.Now(), v)
	ephemeral.Visibility, ephemeral.Private = store.VisibilityPublic, true
	dm := embedded("T1", "DM1", "U1", "claim", clk.Now(), v)
	dm.Visibility = store.VisibilityDM
	otherTenant := embedded("T2", "CPUB", "U1", "claim", clk.Now(), v)
	otherTenant.Visibility = store.VisibilityPublic
	for _, c := range []*store.Check{pub, priv, ephemeral, dm, otherTenant} {
		mustf(t, b.SaveCheck(ctx, c), "save")
	}
	set := func(ids []string) map[string]bool {
		m := map[string]bool{}
		for _, id := range ids {
			m[id] = true
		}
		return m
	}
	tests := []struct {
		name string
		a    *store.Audience
		want []*store.Check
	}{
		{"the asker sees theirs", &store.Audience{User: "U1", Channel: "X"}, []*store.Check{pub, priv, ephemeral, dm}},
		{"another person in the public channel", &store.Audience{User: "U2", Channel: "CPUB"}, []*store.Check{pub}},
		{"another person in the private channel", &store.Audience{User: "U2", Channel: "GPRIV"}, []*store.Check{priv}},
		{"another person elsewhere, tenant-wide", &store.Audience{User: "U2", Channel: "CX", TenantWide: true}, []*store.Check{pub}},
		{"a public channel, no person", &store.Audience{Channel: "CPUB2", TenantWide: true}, []*store.Check{pub}},
	}
	for _, tt := range tests {
		want := map[string]bool{}
		for _, c := range tt.want {
			want[c.ID] = true
		}
		if got := set(nearest(t, b, "T1", tt.a, v, t0)); !cmp.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tt.name, got, want)
		}
	}
	if got := nearest(t, b, "T2", &store.Audience{User: "U1"}, v, t0); len(got) != 1 || got[0] != otherTenant.ID {
		t.Errorf("tenant T2: %v, want only its own check", got)
	}
}
