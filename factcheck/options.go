package factcheck

// DefaultTemperature is the sampling temperature of every model call unless
// Options.Temperature says otherwise: low, so that the same claim gets the
// same verdict.
const DefaultTemperature = 0.1

// Options switch the ways a verdict is made, so that each can be measured
// against the baseline (factbot eval with the FACTBOT_* switches). The zero
// value is the default: every technique on.
type Options struct {
	// Temperature of every model call, 0–2; nil means DefaultTemperature.
	Temperature *float64
	// NoQuestions skips the plan: the questions that would settle the
	// claim, written before any search.
	NoQuestions bool
	// NoCompact keeps every search result and page excerpt in the
	// transcript instead of reducing each, once the model has seen it, to
	// the answers it gives to the questions.
	NoCompact bool
	// NoRecheck accepts a verdict whose evidence fails the checks at once
	// (and downgrades it) instead of sending it back to the model once.
	NoRecheck bool
	// NoScores takes the model's label as given instead of the highest of
	// its per-label scores after Calibration.
	NoScores bool
	// NoCritic skips the review of the verdict by a second model call.
	NoCritic bool
	// ClosedBook verifies with no tools: no plan, no search, no page, no
	// critic; the verdict is the model's own knowledge and cites nothing.
	// A baseline for measurement (factbot eval --closed-book), never for
	// users.
	ClosedBook bool
	// NoCriticSkip has the critic review every verdict, even one whose
	// every cited sentence is found in its source, takes the label's side
	// and reads plainly (English, no hedge or attribution, no negation
	// except in a refutation): the critic is otherwise skipped there.
	NoCriticSkip bool
	// NoJointPlan asks for the questions in a call of their own before
	// each claim's research (the plan), instead of with the claims, in the
	// extraction's one call.
	NoJointPlan bool
	// NoPrefetch leaves every search and read to the model, instead of
	// searching the questions and the claim, and reading the most relevant
	// results' pages, in parallel before its first research turn.
	NoPrefetch bool
	// NoCriticDoubt skips the critic on every verdict the settled rule
	// passes (NoCriticSkip), instead of only on one the model is also
	// confident of and that cites a page read (provenance.doubt, critic.go).
	NoCriticDoubt bool
	// Calibration offsets the label scores; nil means none.
	Calibration *Calibration
}

// temperature is the temperature sent with every request.
func (o Options) temperature() *float32 {
	t := float32(DefaultTemperature)
	if o.Temperature != nil {
		t = float32(*o.Temperature)
	}
	return &t
}

// jointPlan says the extraction writes each claim's questions.
func (o Options) jointPlan() bool { return !o.NoJointPlan && !o.NoQuestions && !o.ClosedBook }
