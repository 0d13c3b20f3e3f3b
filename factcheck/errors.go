package factcheck

import "errors"

// ErrRateLimited is wrapped by providers when the service kept refusing
// with rate limits after all retries.
var ErrRateLimited = errors.New("rate limited")

// ErrUnknownModel is wrapped by providers when the API does not know the
// configured model name.
var ErrUnknownModel = errors.New("unknown model")

// ModelError is the error of a model call that failed after the provider's
// own retries; the loop wraps every one, so that callers can tell a model
// that cannot be reached from other failures. Its message is its cause's.
type ModelError struct {
	Model string // the model's name
	Err   error
}

func (e *ModelError) Error() string { return e.Err.Error() }
func (e *ModelError) Unwrap() error { return e.Err }
