package store_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/store/storetest"
)

// Backend is what a store backend provides to the chat core (bot.Store)
// and to its tests (Request): durable requests, checks, their history and
// feedback, in the store's own types. Run checks that a backend behaves as
// *store.DB does.
type Backend interface {
	AcceptRequest(ctx context.Context, r *store.Request) (bool, error)
	UpdateRequest(ctx context.Context, tenant, key string, fn func(*store.Request) error) error
	FinishRequest(ctx context.Context, tenant, key, state, checkID string) error
	RefuseRequest(ctx context.Context, tenant, key string) error
	Request(ctx context.Context, tenant, key string) (*store.Request, error)
	Tenants(ctx context.Context) ([]string, error)
	PendingRequests(ctx context.Context, tenant string) ([]*store.Request, error)
	SaveCheck(ctx context.Context, c *store.Check) error
	Check(ctx context.Context, tenant, id string) (*store.Check, error)
	History(ctx context.Context, tenant string, q store.HistoryQuery) ([]store.CheckSummary, error)
	AddFeedback(ctx context.Context, tenant, checkID string, f store.Feedback) error
	ClaimRequest(ctx context.Context, tenant, key, owner string, lease time.Duration) (*store.Request, error)
	ClaimPending(ctx context.Context, tenant, owner string, lease time.Duration) ([]*store.Request, error)
	RenewLease(ctx context.Context, tenant, key, owner string, lease time.Duration) error
	Earlier(tenant string, a *store.Audience) factcheck.Earlier
}

// Opener opens an empty backend for one test. The backend takes the time
// from now, and is closed (if it needs to be) when t ends.
type Opener func(t *testing.T, now func() time.Time) Backend

// Run is the conformance suite of store backends: each subtest opens a
// fresh backend with open and checks one behaviour of *store.DB. A backend
// passes it with one line:
//
//	func TestConformance(t *testing.T) { Run(t, openMyBackend) }
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		run  func(t *testing.T, b Backend, clk *storetest.Clock)
	}{
		{"AcceptRequest", testAcceptRequest},
		{"UpdateRequest", testUpdateRequest},
		{"FinishRequest", testFinishRequest},
		{"FinishRequestKeepsSavedCheck", testFinishKeepsSavedCheck},
		{"RefuseRequest", testRefuseRequest},
		{"SaveCheckAndShow", testSaveCheckAndShow},
		{"SaveCheckOncePerRequest", testSaveCheckOncePerRequest},
		{"FeedbackLimit", testFeedbackLimit},
		{"FeedbackOnce", testFeedbackOnce},
		{"History", testHistory},
		{"HistoryDefaultLimit", testHistoryDefaultLimit},
		{"HistoryHidesOthersPrivateChecks", testHistoryHidesOthersPrivateChecks},
		{"HistoryAudience", testHistoryAudience},
		{"TenancyHistory", testTenancyHistory},
		{"Tenancy", testTenancy},
		{"NoTenant", testNoTenant},
		{"CanceledContext", testCanceledContext},
		{"RecordsAreCopies", testRecordsAreCopies},
		{"LeaseOneOwner", testLeaseOneOwner},
		{"LeaseExpiry", testLeaseExpiry},
		{"LeaseRelease", testLeaseRelease},
		{"LeaseFinished", testLeaseFinished},
		{"LeaseConcurrentClaims", testLeaseConcurrentClaims},
		{"EarlierNearest", testEarlierNearest},
		{"EarlierVisibility", testEarlierVisibility},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := storetest.NewClock(t0)
			tt.run(t, open(t, clk.Now), clk)
		})
	}
}

var ctx = context.Background()

// t0 is the fake clock's start.
var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// cmpOpts compares stored values: unexported fields (a verdict's in-memory
// error cause) are not stored.
var cmpOpts = cmp.Options{cmpopts.IgnoreUnexported(factcheck.Verdict{}), cmpopts.EquateEmpty()}

func mustf(t testing.TB, err error, format string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", fmt.Sprintf(format, args...), err)
	}
}

// verdict builds a realistic verdict.
func verdict(claim string, l factcheck.Label, at time.Time) *factcheck.Verdict {
	return &factcheck.Verdict{
		Claim:      claim,
		Verdict:    l,
		Confidence: factcheck.High,
		Reasoning:  "Two independent sources agree on " + claim + ".",
		Evidence: []factcheck.Evidence{
			{SourceURL: "https://example.org/a", SourceTitle: "Example A", Supports: l == factcheck.Supported, QuoteOrSummary: "a quote about " + claim, QuoteFound: true},
			{SourceURL: "https://example.com/b", SourceTitle: "Example B", Supports: l == factcheck.Supported, QuoteOrSummary: "a summary", QuoteFound: false},
		},
		Start: 0, End: len(claim), Span: claim,
		CheckedAt: at,
		Model:     "gemini-flash-latest",
		Usage:     factcheck.Usage{PromptTokens: 5200, OutputTokens: 310},
		Sources: []factcheck.Source{
			{URL: "https://example.org/a", Title: "Example A", Via: "read", FetchedAt: at, SHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", Cited: true},
			{URL: "https://example.com/b", Title: "Example B", Via: "search", FetchedAt: at, Cited: true},
		},
		Trace: []factcheck.TraceEvent{
			{At: at, Kind: "model", Usage: &factcheck.Usage{PromptTokens: 1200, OutputTokens: 80}, FinishReason: "STOP"},
			{At: at, Kind: "tool", Tool: "web_search", Args: `{"query":"` + claim + `"}`, ResultBytes: 2400},
		},
	}
}

// check builds a check of tenant with one verdict per claim, in claim
// order.
func check(tenant, channel, user, text string, at time.Time, claims map[string]factcheck.Label) *store.Check {
	r := &factcheck.Report{Input: text, CheckedAt: at, Model: "gemini-flash-latest"}
	for _, cl := range slices.Sorted(maps.Keys(claims)) {
		r.Claims = append(r.Claims, verdict(cl, claims[cl], at))
	}
	return &store.Check{
		Tenant: tenant, Platform: "slack", Channel: channel, User: user,
		Thread: "1700000000.000100", Link: "https://example.slack.com/archives/" + channel + "/p1",
		Text: text, Report: r, CreatedAt: at,
	}
}

func ids(ss []store.CheckSummary) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.ID)
	}
	return out
}

func keys(rs []*store.Request) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Key)
	}
	return out
}

func ignoreNotFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}
