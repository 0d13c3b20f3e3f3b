package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Feedback limits: AddFeedback refuses a note beyond them with an error
// wrapping ErrFeedbackLimit.
const (
	MaxFeedbackPerCheck = 20 // notes on one check
	MaxFeedbackPerUser  = 3  // notes of one person on one check
)

// ErrFeedbackLimit is wrapped by AddFeedback when the check, or the
// person on that check, has reached the feedback limit.
var ErrFeedbackLimit = errors.New("feedback limit reached")

// bFeedback holds feedback apart from the checks, so a click writes one
// small record instead of rewriting the check:
//
//	tenants/<tenant>/feedback/<check id>\x00<seq, 4 bytes big endian>  envelope(Feedback)
var bFeedback = []byte("feedback")

// Feedback is a remark on a check, e.g. from a "wrong?" button.
type Feedback struct {
	User  string    `json:"user"`
	Claim int       `json:"claim"` // index into Report.Claims, -1 for the whole check
	Note  string    `json:"note"`
	At    time.Time `json:"at"`
	// Once, if set, records the note once: a note of the same User with
	// the same Once on the check makes AddFeedback refuse it with
	// ErrFeedbackExists (a button pressed again, e.g. Slack's feedback
	// buttons).
	Once string `json:"once,omitempty"`
}

// ErrFeedbackExists is wrapped by AddFeedback when the check already has
// the person's note of the same Feedback.Once.
var ErrFeedbackExists = errors.New("feedback already recorded")

// Recorded says whether c already has f's note of the same Once (always
// false when f.Once is empty).
func (c *Check) Recorded(f Feedback) bool {
	return f.Once != "" && slices.ContainsFunc(c.Feedback, func(g Feedback) bool { return g.User == f.User && g.Once == f.Once })
}

// AddFeedback records feedback on a check, or returns an error wrapping
// ErrNotFound, ErrFeedbackExists (see Feedback.Once), or ErrFeedbackLimit
// when the check already has MaxFeedbackPerCheck notes or f.User
// MaxFeedbackPerUser of them. A note is a record of its own (Check returns
// it with the check's Feedback); the check is not rewritten, and a refused
// click writes nothing.
func (db *DB) AddFeedback(ctx context.Context, tenant, checkID string, f Feedback) error {
	if f.At.IsZero() {
		f.At = db.now().UTC()
	}
	// Most refusals are found without taking the writer lock.
	err := db.view(ctx, tenant, func(tb *tenantTx) error {
		_, err := feedbackSlot(tb, checkID, f)
		return err
	})
	if err == nil {
		err = db.updateTenant(ctx, tenant, func(tb *tenantTx) error {
			seq, err := feedbackSlot(tb, checkID, f)
			if err != nil {
				return err
			}
			return tb.Bucket(bFeedback).putRecord(binary.BigEndian.AppendUint32(indexKey(checkID, ""), seq), &f)
		})
	}
	if err != nil {
		return fmt.Errorf("add feedback to %q: %w", checkID, err)
	}
	return nil
}

// feedbackSlot returns the sequence number of the next note on the check
// in tenant bucket tb, or an error wrapping ErrNotFound or
// ErrFeedbackLimit. Notes stored in the check record itself (before
// feedback had its bucket) count too.
func feedbackSlot(tb *tenantTx, checkID string, nf Feedback) (uint32, error) {
	user := nf.User
	var c Check
	if err := getRecord(tb.Bucket(bChecks), []byte(checkID), &c); err != nil {
		return 0, err
	}
	if err := readFeedback(tb, &c); err != nil {
		return 0, err
	}
	if c.Recorded(nf) {
		return 0, fmt.Errorf("%w: %s's %q note", ErrFeedbackExists, user, nf.Once)
	}
	if len(c.Feedback) >= MaxFeedbackPerCheck {
		return 0, fmt.Errorf("%w: the check has %d notes", ErrFeedbackLimit, len(c.Feedback))
	}
	mine := 0
	for _, f := range c.Feedback {
		if f.User == user {
			mine++
		}
	}
	if mine >= MaxFeedbackPerUser {
		return 0, fmt.Errorf("%w: %d notes of %s on the check", ErrFeedbackLimit, mine, user)
	}
	return uint32(len(c.Feedback)), nil
}

// readFeedback appends the check's notes from the feedback bucket of
// tenant bucket tb to c.Feedback, in the order they were added.
func readFeedback(tb *tenantTx, c *Check) error {
	return eachRecord(tb.Bucket(bFeedback), indexKey(c.ID, ""), func(_ []byte, f *Feedback) error {
		c.Feedback = append(c.Feedback, *f)
		return nil
	})
}
