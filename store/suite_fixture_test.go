package store_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

// Fixture is a small data set of every kind of record (requests in each
// state, checks with feedback, verdict and extraction caches, web cache
// entries and a page snapshot), written by FillFixture and read back by
// VerifyFixture. The files under store/testdata and
// store/postgres/testdata were filled by the factbot of an older layout,
// so that the current one is tested opening, upgrading and reading them.
type Fixture interface {
	AcceptRequest(ctx context.Context, r *store.Request) (bool, error)
	FinishRequest(ctx context.Context, tenant, key, state, checkID string) error
	RefuseRequest(ctx context.Context, tenant, key string) error
	Request(ctx context.Context, tenant, key string) (*store.Request, error)
	SaveCheck(ctx context.Context, c *store.Check) error
	Check(ctx context.Context, tenant, id string) (*store.Check, error)
	History(ctx context.Context, tenant string, q store.HistoryQuery) ([]store.CheckSummary, error)
	AddFeedback(ctx context.Context, tenant, checkID string, f store.Feedback) error
	factcheck.Cache
	search.Cache
	PageSnapshot(ctx context.Context, sha256 string) (*search.Page, error)
}

// FixtureTime is the time of every fixture record.
var FixtureTime = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// FixtureKey is the encryption key of the fixture's installation.
var FixtureKey = []byte("0123456789abcdef0123456789abcdef")

// FixtureInstallation is the installation of the bbolt fixture.
func FixtureInstallation() *store.Installation {
	return &store.Installation{Platform: "slack", ID: "T1", Name: "Acme", AppID: "A1", BotUserID: "UBOT",
		Scope: "app_mentions:read,chat:write", InstalledBy: "U1", InstalledAt: FixtureTime, BotToken: "xoxb-fixture", RefreshToken: "xoxe-fixture"}
}

func fixtureVerdict(claim string, l factcheck.Label) *factcheck.Verdict {
	return &factcheck.Verdict{
		Claim: claim, Verdict: l, Confidence: factcheck.High, Reasoning: "Sources agree on " + claim + ".",
		Evidence:  []factcheck.Evidence{{SourceURL: "https://example.org/a", SourceTitle: "A", Supports: l == factcheck.Supported, QuoteOrSummary: "a quote", QuoteFound: true}},
		CheckedAt: FixtureTime, Model: "gemini-flash-latest",
		Sources: []factcheck.Source{{URL: "https://example.org/a", Title: "A", Via: "read", FetchedAt: FixtureTime, SHA256: "abc123", Cited: true}},
		Trace:   []factcheck.TraceEvent{{At: FixtureTime, Kind: "tool", Tool: "web_search", Args: `{"query":"` + claim + `"}`, ResultBytes: 10}},
	}
}

func fixtureCheck(tenant, id, channel, user, claim string, l factcheck.Label, vis store.Visibility) *store.Check {
	return &store.Check{ID: id, Tenant: tenant, Platform: "slack", Channel: channel, User: user, Text: claim + " (asked)",
		Report:    &factcheck.Report{Input: claim, CheckedAt: FixtureTime, Claims: []*factcheck.Verdict{fixtureVerdict(claim, l)}},
		CreatedAt: FixtureTime, Visibility: vis, RequestKey: "req:" + id,
		CacheRefs: []store.CacheRef{{Kind: store.RefVerdict, Key: store.Normalize(claim)}}}
}

// fixtureChecks are the fixture's checks.
func fixtureChecks() []*store.Check {
	return []*store.Check{
		fixtureCheck("T1", "20261130T090000Z-0001", "C1", "U1", "The moon is made of rock", factcheck.Supported, store.VisibilityPublic),
		fixtureCheck("T1", "20261130T090100Z-0002", "C2", "U2", "Water boils at 50 degrees", factcheck.Contradicted, store.VisibilityPrivate),
		fixtureCheck("G9", "20261130T090200Z-0003", "D1", "P1", "Paris is in France", factcheck.Supported, store.VisibilityPublic),
	}
}

var fixtureFeedback = store.Feedback{User: "U2", Claim: 0, Note: "source is old", At: FixtureTime}

var fixturePage = search.Page{URL: "https://example.org/a", Title: "A", Text: "a quote and more", SHA256: "abc123"}

// FillFixture writes the fixture with f.
func FillFixture(t testing.TB, f Fixture) {
	t.Helper()
	ctx := context.Background()
	for _, c := range fixtureChecks() {
		r := &store.Request{Key: c.RequestKey, Tenant: c.Tenant, Platform: "slack", Kind: "mention", Channel: c.Channel, User: c.User, Text: c.Text, Visibility: c.Visibility}
		must(t, first(f.AcceptRequest(ctx, r)))
		must(t, f.SaveCheck(ctx, c))
		must(t, f.FinishRequest(ctx, c.Tenant, c.RequestKey, store.RequestDone, c.ID))
		must(t, f.PutVerdict(ctx, c.Tenant, c.Report.Claims[0], nil))
	}
	must(t, f.AddFeedback(ctx, "T1", "20261130T090100Z-0002", fixtureFeedback))
	must(t, first(f.AcceptRequest(ctx, &store.Request{Key: "req:pending", Tenant: "T1", Platform: "discord", Kind: "command", Channel: "C1", User: "U3", Text: "is the sky green?"})))
	must(t, first(f.AcceptRequest(ctx, &store.Request{Key: "req:refused", Tenant: "T1", Platform: "slack", Kind: "mention", User: "U4", Text: "spam"})))
	must(t, f.RefuseRequest(ctx, "T1", "req:refused"))
	must(t, f.PutExtraction(ctx, "T1", "The moon is made of rock", &factcheck.Extraction{Claims: []factcheck.ExtractedClaim{{Claim: "The moon is made of rock"}}}, nil))
	page, err := json.Marshal(fixturePage)
	must(t, err)
	must(t, f.Put(ctx, search.PageBucket, "https://example.org/a", page, nil))
	must(t, f.Put(ctx, "search", "moon rock", []byte(`{"results":[{"url":"https://example.org/a"}]}`), nil))
}

// VerifyFixture reads back everything FillFixture wrote.
func VerifyFixture(t testing.TB, f Fixture) {
	t.Helper()
	ctx := context.Background()
	opts := cmp.Options{cmpopts.IgnoreUnexported(factcheck.Verdict{}), cmpopts.EquateEmpty(), cmpopts.IgnoreFields(store.Check{}, "Feedback")}
	for _, want := range fixtureChecks() {
		got, err := f.Check(ctx, want.Tenant, want.ID)
		if err != nil {
			t.Fatalf("check %s: %v", want.ID, err)
		}
		if d := cmp.Diff(got, want, opts); d != "" {
			t.Errorf("check %s (-got +want):\n%s", want.ID, d)
		}
		r, err := f.Request(ctx, want.Tenant, want.RequestKey)
		if err != nil || r.State != store.RequestDone || r.CheckID != want.ID {
			t.Errorf("request %s: %+v, %v; want done with check %s", want.RequestKey, r, err, want.ID)
		}
		v, ok, err := f.Verdict(ctx, want.Tenant, want.Report.Claims[0].Claim, 1<<62, nil)
		if err != nil || !ok || v.Verdict != want.Report.Claims[0].Verdict {
			t.Errorf("verdict cache of %s: %v, %v, %v", want.ID, v, ok, err)
		}
	}
	c, err := f.Check(ctx, "T1", "20261130T090100Z-0002")
	if err != nil || len(c.Feedback) != 1 || c.Feedback[0].Note != fixtureFeedback.Note {
		t.Errorf("feedback: %+v, %v", c, err)
	}
	h, err := f.History(ctx, "T1", store.HistoryQuery{Search: "moon", Limit: 10})
	if err != nil || len(h) != 1 || h[0].ID != "20261130T090000Z-0001" {
		t.Errorf("history of T1 by the word moon: %+v, %v", h, err)
	}
	if r, err := f.Request(ctx, "T1", "req:pending"); err != nil || r.State != store.RequestPending || r.Text != "is the sky green?" {
		t.Errorf("pending request: %+v, %v", r, err)
	}
	if r, err := f.Request(ctx, "T1", "req:refused"); err != nil || !r.Refused || r.Text != "" {
		t.Errorf("refused request: %+v, %v", r, err)
	}
	if x, ok, err := f.Extraction(ctx, "T1", "The moon is made of rock", 1<<62, nil); err != nil || !ok || len(x.Claims) != 1 {
		t.Errorf("extraction: %+v, %v, %v", x, ok, err)
	}
	if v, _, ok, err := f.Get(ctx, "search", "moon rock", nil); err != nil || !ok || len(v) == 0 {
		t.Errorf("web cache: %s, %v, %v", v, ok, err)
	}
	if p, err := f.PageSnapshot(ctx, "abc123"); err != nil || p.Text != fixturePage.Text {
		t.Errorf("snapshot: %+v, %v", p, err)
	}
}

func first[T any](_ T, err error) error { return err }

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
