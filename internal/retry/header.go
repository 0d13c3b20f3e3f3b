package retry

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// AfterHeader reads the delay a server asked for in h: retry-after-ms
// (OpenAI), then Retry-After in seconds (fractions allowed) or as an HTTP
// date, relative to now. false when h names no usable delay.
func AfterHeader(h http.Header, now time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms <= 1e12 { // also false for NaN
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if !(s >= 0 && s <= 1e9) { // negative, NaN or absurd
			return 0, false
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// RetryInfoType is the @type of google.rpc.RetryInfo in a Google API error's
// details.
const RetryInfoType = "type.googleapis.com/google.rpc.RetryInfo"

// AfterRetryInfo finds google.rpc.RetryInfo.retryDelay ("7s", "0.5s") in
// the details of a Google API error.
func AfterRetryInfo(details []map[string]any) (time.Duration, bool) {
	for _, d := range details {
		if d["@type"] != RetryInfoType {
			continue
		}
		if v, ok := d["retryDelay"].(string); ok {
			if dur, err := time.ParseDuration(v); err == nil && dur >= 0 {
				return dur, true
			}
		}
	}
	return 0, false
}
