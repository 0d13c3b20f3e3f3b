// Package usererr holds the errors whose text is safe and useful to show the
// person who asked or the operator who configured the bot: bad input, a limit
// reached, a setting to fix. Any other error is internal: log it, and show a
// fixed apology instead.
package usererr

import (
	"errors"
	"fmt"
)

// Error is an error whose message is safe to show the person who asked.
type Error struct {
	Msg string
	Err error // optional cause, logged, never shown
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// Errorf makes an *Error.
func Errorf(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// Config reports a missing or wrong setting, naming the variable and where
// to get a value for it.
type Config struct {
	Var  string // e.g. "GEMINI_API_KEY"
	Msg  string // what is wrong
	Hint string // where to get it / what to set
	Err  error  // optional cause, e.g. factcheck.ErrUnknownModel
}

func (e *Config) Unwrap() error { return e.Err }

func (e *Config) Error() string {
	s := e.Var + ": " + e.Msg
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// Message returns the text of the user-facing error err is or wraps, and
// whether there is one.
func Message(err error) (string, bool) {
	var ue *Error
	if errors.As(err, &ue) {
		return ue.Msg, true
	}
	var ce *Config
	if errors.As(err, &ce) {
		return ce.Error(), true
	}
	return "", false
}

// IsConfig reports whether err is or wraps a configuration error.
func IsConfig(err error) bool {
	var ce *Config
	return errors.As(err, &ce)
}
