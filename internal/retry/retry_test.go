package retry

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var errBusy = errors.New("busy")

// recorder is a Sleep that records and does not wait.
type recorder struct{ slept []time.Duration }

func (r *recorder) sleep(ctx context.Context, d time.Duration) error {
	r.slept = append(r.slept, d)
	return ctx.Err()
}

func busyAfter(d time.Duration) Classify {
	return func(err error) Decision {
		return Decision{Retry: errors.Is(err, errBusy), After: d}
	}
}

func TestDo(t *testing.T) {
	permanent := errors.New("bad request")
	tests := []struct {
		name      string
		fails     []error // what each call returns until they run out (then nil)
		after     time.Duration
		policy    Policy
		wantCalls int
		wantSlept []time.Duration
		wantErr   error
		exhausted bool
	}{
		{name: "first call succeeds", wantCalls: 1},
		{name: "backoff doubles", fails: []error{errBusy, errBusy}, wantCalls: 3,
			wantSlept: []time.Duration{time.Second, 2 * time.Second}},
		{name: "server delay honoured", fails: []error{errBusy}, after: 7 * time.Second, wantCalls: 2,
			wantSlept: []time.Duration{7 * time.Second}},
		{name: "not retryable", fails: []error{permanent}, wantCalls: 1, wantErr: permanent},
		{name: "attempts run out", fails: []error{errBusy, errBusy, errBusy, errBusy}, wantCalls: 3,
			wantSlept: []time.Duration{time.Second, 2 * time.Second}, wantErr: errBusy, exhausted: true},
		{name: "wait over the bound", fails: []error{errBusy}, after: time.Hour, wantCalls: 1,
			wantErr: errBusy, exhausted: true},
		{name: "backoff capped by MaxWait", fails: []error{errBusy, errBusy, errBusy}, wantCalls: 4,
			policy:    Policy{Attempts: 5, MaxWait: 3 * time.Second},
			wantSlept: []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec recorder
			p := tt.policy
			p.Sleep = rec.sleep
			calls := 0
			err := Do(context.Background(), p, busyAfter(tt.after), func(context.Context) error {
				calls++
				if calls <= len(tt.fails) {
					return tt.fails[calls-1]
				}
				return nil
			})
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("Do = %v, want %v", err, tt.wantErr)
			}
			if got := Exhausted(err); got != tt.exhausted {
				t.Errorf("Exhausted(%v) = %v, want %v", err, got, tt.exhausted)
			}
			if calls != tt.wantCalls {
				t.Errorf("calls = %d, want %d", calls, tt.wantCalls)
			}
			if diff := cmp.Diff(rec.slept, tt.wantSlept); diff != "" {
				t.Errorf("slept (-got +want):\n%s", diff)
			}
		})
	}
}

func TestDoStopsAtDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var rec recorder
	calls := 0
	err := Do(ctx, Policy{Sleep: rec.sleep, MaxWait: time.Hour}, busyAfter(2*time.Minute), func(context.Context) error {
		calls++
		return errBusy
	})
	var e *Error
	if !errors.As(err, &e) || e.Wait != 2*time.Minute || calls != 1 || len(rec.slept) != 0 {
		t.Errorf("Do = %v after %d calls, slept %v; want an *Error refusing the 2m wait after 1 call", err, calls, rec.slept)
	}
}

func TestDoCancelledWhileWaiting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	sleep := func(context.Context, time.Duration) error { cancel(); return context.Canceled }
	err := Do(ctx, Policy{Sleep: sleep}, busyAfter(0), func(context.Context) error { return errBusy })
	if !errors.Is(err, context.Canceled) || !errors.Is(err, errBusy) {
		t.Errorf("Do = %v, want context.Canceled wrapping the last failure", err)
	}
}

func TestAfterHeader(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
		wantOK bool
	}{
		{"none", http.Header{}, 0, false},
		{"nil", nil, 0, false},
		{"seconds", http.Header{"Retry-After": {"7"}}, 7 * time.Second, true},
		{"fraction", http.Header{"Retry-After": {"0.25"}}, 250 * time.Millisecond, true},
		{"milliseconds first", http.Header{"Retry-After-Ms": {"1500"}, "Retry-After": {"9"}}, 1500 * time.Millisecond, true},
		{"http date", http.Header{"Retry-After": {now.Add(30 * time.Second).Format(http.TimeFormat)}}, 30 * time.Second, true},
		{"date in the past", http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0, true},
		{"negative", http.Header{"Retry-After": {"-3"}}, 0, false},
		{"NaN", http.Header{"Retry-After": {"NaN"}}, 0, false},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0, false},
	}
	for _, tt := range tests {
		got, ok := AfterHeader(tt.header, now)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("%s: AfterHeader = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestAfterRetryInfo(t *testing.T) {
	details := []map[string]any{
		{"@type": "type.googleapis.com/google.rpc.QuotaFailure"},
		{"@type": RetryInfoType, "retryDelay": "0.5s"},
	}
	if d, ok := AfterRetryInfo(details); !ok || d != 500*time.Millisecond {
		t.Errorf("AfterRetryInfo = %v, %v; want 500ms, true", d, ok)
	}
	if _, ok := AfterRetryInfo([]map[string]any{{"@type": RetryInfoType, "retryDelay": "-1s"}}); ok {
		t.Error("a negative retryDelay was accepted")
	}
}

func FuzzAfterHeader(f *testing.F) {
	for _, s := range []string{"7", "0.5", "Wed, 21 Oct 2015 07:28:00 GMT", "-1", "NaN", "1e300", ""} {
		f.Add(s, "")
	}
	f.Add("", "1500")
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, after, afterMs string) {
		h := http.Header{}
		if after != "" {
			h.Set("Retry-After", after)
		}
		if afterMs != "" {
			h.Set("Retry-After-Ms", afterMs)
		}
		d, ok := AfterHeader(h, now)
		if d < 0 || (!ok && d != 0) {
			t.Errorf("AfterHeader(%q, %q) = %v, %v", after, afterMs, d, ok)
		}
	})
}
