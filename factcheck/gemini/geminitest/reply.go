package geminitest

import (
	"fmt"
	"net/http"
	"sync"
)

// Reply is what the fake server answers to one request: a candidate with
// text and/or function calls, or an error in Gemini's error format. Build
// one with Text, Call, Error, RateLimited, NotFound, InvalidAPIKey or
// Blocked, and refine it with the With… methods.
type Reply struct {
	parts        []replyPart
	finishReason string
	blockReason  string
	usage        *Usage
	err          *apiError
	noIDs        bool
}

type replyPart struct {
	text    string
	thought bool
	call    *callSpec
}

type callSpec struct {
	name string
	args any
}

// Usage overrides the token counts the server reports.
type Usage struct {
	Prompt, Candidates, Thoughts int
	// Cached is the part of Prompt served from the (implicit) prompt cache.
	Cached int
}

// apiError is Google's JSON error body, {"error": {...}}.
type apiError struct {
	Code    int              `json:"code"`
	Message string           `json:"message"`
	Status  string           `json:"status"`
	Details []map[string]any `json:"details,omitempty"`
}

// Text is a final answer with text s (finishReason STOP).
func Text(s string) Reply {
	return Reply{parts: []replyPart{{text: s}}}
}

// Call is an answer asking for one function call. args is marshalled to a
// JSON object (a map or a struct). The server gives every call an id
// ("call-1", "call-2", … per server) and the first call of a reply a fake
// thought signature (FakeSignature(id)), like the real API does; it later
// rejects requests that do not echo the signature back.
func Call(name string, args any) Reply {
	return Reply{}.Call(name, args)
}

// Call adds another function call to r (parallel calls).
func (r Reply) Call(name string, args any) Reply {
	r.parts = append(clonedParts(r.parts), replyPart{call: &callSpec{name: name, args: args}})
	return r
}

// WithoutCallIDs leaves the id out of r's function calls, as Gemini 2.x
// models do; the calls still get thought signatures.
func (r Reply) WithoutCallIDs() Reply {
	r.noIDs = true
	return r
}

// WithText adds a text part to r.
func (r Reply) WithText(s string) Reply {
	r.parts = append(clonedParts(r.parts), replyPart{text: s})
	return r
}

// WithThought adds a thought-summary part (thought: true) to r; clients
// must not show it as the answer.
func (r Reply) WithThought(s string) Reply {
	r.parts = append([]replyPart{{text: s, thought: true}}, r.parts...)
	return r
}

// WithFinishReason sets the candidate's finishReason (default "STOP").
func (r Reply) WithFinishReason(reason string) Reply {
	r.finishReason = reason
	return r
}

// WithUsage replaces the estimated usageMetadata.
func (r Reply) WithUsage(u Usage) Reply {
	r.usage = &u
	return r
}

func clonedParts(p []replyPart) []replyPart {
	return append([]replyPart(nil), p...)
}

// Blocked is a response whose prompt was blocked: no candidates and
// promptFeedback.blockReason = reason (e.g. "SAFETY").
func Blocked(reason string) Reply {
	return Reply{blockReason: reason}
}

// Error is an error reply with the given HTTP status and message, in
// Google's error format with the matching canonical status name.
func Error(status int, message string) Reply {
	return Reply{err: &apiError{Code: status, Message: message, Status: statusName(status)}}
}

// RateLimited is a 429 RESOURCE_EXHAUSTED reply shaped like the Gemini
// API's quota error, with a google.rpc.RetryInfo detail carrying
// retryDelay (e.g. "7s", "0.5s") unless retryDelay is empty.
func RateLimited(retryDelay string) Reply {
	r := Error(http.StatusTooManyRequests, "You exceeded your current quota, please check your plan and billing details. "+
		"For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.")
	r.err.Details = []map[string]any{
		{
			"@type": "type.googleapis.com/google.rpc.QuotaFailure",
			"violations": []any{map[string]any{
				"quotaMetric":     "generativelanguage.googleapis.com/generate_content_free_tier_requests",
				"quotaId":         "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
				"quotaDimensions": map[string]any{"location": "global", "model": "gemini-flash"},
				"quotaValue":      "10",
			}},
		},
		{
			"@type": "type.googleapis.com/google.rpc.Help",
			"links": []any{map[string]any{
				"description": "Learn more about Gemini API quotas",
				"url":         "https://ai.google.dev/gemini-api/docs/rate-limits",
			}},
		},
	}
	if retryDelay != "" {
		r.err.Details = append(r.err.Details, map[string]any{
			"@type":      "type.googleapis.com/google.rpc.RetryInfo",
			"retryDelay": retryDelay,
		})
	}
	return r
}

// NotFound is the 404 NOT_FOUND reply the Gemini API gives for an unknown
// model name.
func NotFound(model string) Reply {
	return Error(http.StatusNotFound, fmt.Sprintf("models/%s is not found for API version v1beta, or is not supported for generateContent. "+
		"Call ListModels to see the list of available models and their supported methods.", model))
}

// InvalidAPIKey is the 400 INVALID_ARGUMENT reply (reason API_KEY_INVALID)
// the Gemini API gives for a wrong key.
func InvalidAPIKey() Reply {
	r := Error(http.StatusBadRequest, "API key not valid. Please pass a valid API key.")
	r.err.Details = []map[string]any{
		{
			"@type":    "type.googleapis.com/google.rpc.ErrorInfo",
			"reason":   "API_KEY_INVALID",
			"domain":   "googleapis.com",
			"metadata": map[string]any{"service": "generativelanguage.googleapis.com"},
		},
		{
			"@type":   "type.googleapis.com/google.rpc.LocalizedMessage",
			"locale":  "en-US",
			"message": "API key not valid. Please pass a valid API key.",
		},
	}
	return r
}

// statusName maps an HTTP status to the google.rpc.Code name Google uses.
func statusName(status int) string {
	switch status {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 409:
		return "ABORTED"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 499:
		return "CANCELLED"
	case 500:
		return "INTERNAL"
	case 501:
		return "UNIMPLEMENTED"
	case 502, 503:
		return "UNAVAILABLE"
	case 504:
		return "DEADLINE_EXCEEDED"
	}
	return "UNKNOWN"
}

// FakeSignature is the thought signature the server attaches to the
// function call with the given id.
func FakeSignature(id string) []byte {
	return []byte("geminitest-thought-signature:" + id)
}

// Handler decides the reply to a request.
type Handler func(r *Request) Reply

// Script returns a handler that answers with replies in order, one per
// request (safe for concurrent use). Asked more often than scripted, it
// fails the test and answers 400 (not retried).
func Script(replies ...Reply) Handler {
	var mu sync.Mutex
	next := 0
	return func(r *Request) Reply {
		mu.Lock()
		i := next
		next++
		mu.Unlock()
		if i >= len(replies) {
			msg := fmt.Sprintf("geminitest: script has %d replies, got request %d", len(replies), i+1)
			if r.t != nil {
				r.t.Errorf("%s (last text %q)", msg, r.LastText())
			}
			return Error(http.StatusBadRequest, msg)
		}
		return replies[i]
	}
}

// Repeat returns a handler that always answers r: a model that never stops.
func Repeat(r Reply) Handler {
	return func(*Request) Reply { return r }
}
