package factcheck

import (
	"errors"
	"fmt"
)

// UserError is an error whose message is safe and useful to show the person
// who asked: bad input, a limit reached, a misconfiguration they can fix.
// Other errors are internal; show a short apology and log them.
type UserError struct {
	Msg string
	Err error // optional cause, not shown
}

func (e *UserError) Error() string { return e.Msg }
func (e *UserError) Unwrap() error { return e.Err }

// UserErrorf makes a UserError.
func UserErrorf(format string, args ...any) error {
	return &UserError{Msg: fmt.Sprintf(format, args...)}
}

// ConfigError reports a missing or wrong setting, naming the variable and
// where to get a value for it.
type ConfigError struct {
	Var  string // e.g. "GEMINI_API_KEY"
	Msg  string // what is wrong
	Hint string // where to get it / what to set
	Err  error  // optional cause, e.g. ErrUnknownModel
}

func (e *ConfigError) Unwrap() error { return e.Err }

func (e *ConfigError) Error() string {
	s := e.Var + ": " + e.Msg
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// ErrRateLimited is wrapped by providers when the service kept refusing
// with rate limits after all retries.
var ErrRateLimited = errors.New("rate limited")

// ErrUnknownModel is wrapped by providers when the API does not know the
// configured model name.
var ErrUnknownModel = errors.New("unknown model")

// IsUserError reports whether err (or one it wraps) is safe to show users,
// and returns the message.
func IsUserError(err error) (string, bool) {
	var ue *UserError
	if errors.As(err, &ue) {
		return ue.Msg, true
	}
	var ce *ConfigError
	if errors.As(err, &ce) {
		return ce.Error(), true
	}
	return "", false
}
