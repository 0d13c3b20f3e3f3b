package factcheck

import "errors"

// ErrRateLimited is wrapped by providers when the service kept refusing
// with rate limits after all retries.
var ErrRateLimited = errors.New("rate limited")

// ErrUnknownModel is wrapped by providers when the API does not know the
// configured model name.
var ErrUnknownModel = errors.New("unknown model")
