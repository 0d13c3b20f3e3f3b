package eval

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Runner.Hold is called around each check, its release once the check is
// done, and its error is that case's result, counted in the summary's
// errors; the checker is not asked about that case.
func TestRunnerHold(t *testing.T) {
	cases, f := arithmeticSet()
	var mu sync.Mutex
	var events []string
	missing := cases[1].ID
	r := &Runner{Checker: f, Concurrency: 1, Hold: func(c Case) (func(), error) {
		mu.Lock()
		defer mu.Unlock()
		if c.ID == missing {
			return nil, errors.New("knowledge store: claim " + c.ID + ": no such file")
		}
		events = append(events, "hold "+c.ID)
		return func() {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, "release "+c.ID)
		}, nil
	}}
	results, err := r.Run(context.Background(), cases, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range cases {
		if c.ID != missing {
			want = append(want, "hold "+c.ID, "release "+c.ID)
		}
	}
	if diff := cmp.Diff(want, events); diff != "" {
		t.Errorf("hold and release (-want +got):\n%s", diff)
	}
	if got := f.called(); len(got) != len(cases)-1 || strings.Contains(strings.Join(got, "|"), cases[1].Claim) {
		t.Errorf("checked %q; want every claim but the one whose store is missing", got)
	}
	s := Summarize(results, len(cases), DefaultPrices)
	if s.Errors != 1 {
		t.Errorf("summary errors %d, want 1", s.Errors)
	}
	for _, res := range results {
		if res.ID == missing && !strings.Contains(res.Error, "no such file") {
			t.Errorf("result of the missing claim: error %q", res.Error)
		}
	}
}
