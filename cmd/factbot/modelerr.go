package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
)

// modelFailure is a model call that failed after the provider's retries,
// told in one line that names what to check; the chain it replaces is kept
// for errors.Is and As.
type modelFailure struct {
	msg string
	err error
}

func (e *modelFailure) Error() string { return e.msg }
func (e *modelFailure) Unwrap() error { return e.err }

// explainModelFailure turns err, when it is a failed model call that the
// provider did not already explain (a rejected key or an unknown model
// are *usererr.Config), into a *modelFailure naming what to check: the
// network and the base URL, the key's quota, the key and the model name.
// Any other error is returned as it is.
func explainModelFailure(cfg *config.Config, err error) error {
	var me *factcheck.ModelError
	if err == nil || !errors.As(err, &me) || errors.Is(err, context.Canceled) {
		return err
	}
	if _, ok := usererr.Message(err); ok {
		return err
	}
	what, keyVar, urlVar := "Gemini", "GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL"
	if cfg.Model.Provider == config.LLMOpenAI {
		what, keyVar, urlVar = "the OpenAI-compatible server", "OPENAI_API_KEY", "OPENAI_BASE_URL"
	}
	what = fmt.Sprintf("%s (model %s)", what, me.Model)
	var dns *net.DNSError
	var op *net.OpError
	var msg string
	switch {
	case errors.Is(err, factcheck.ErrRateLimited):
		msg = fmt.Sprintf("%s kept refusing with rate limits after retries: check the quota of %s, or try again later", what, keyVar)
	case errors.As(err, &dns):
		msg = fmt.Sprintf("%s could not be reached: the name %s does not resolve; check the network and %s", what, dns.Name, urlVar)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		msg = fmt.Sprintf("%s did not answer in time; check the network (and any proxy) and %s", what, urlVar)
	case errors.As(err, &op):
		msg = fmt.Sprintf("%s could not be reached (%s %s: %v); check the network (and any proxy) and %s", what, op.Op, op.Addr, op.Err, urlVar)
	default:
		msg = fmt.Sprintf("the call to %s failed (%s); check %s, FACTBOT_MODEL and the network", what, innermost(err), keyVar)
	}
	return &modelFailure{msg: msg, err: err}
}

// innermost is the message of the deepest error err wraps.
func innermost(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}
