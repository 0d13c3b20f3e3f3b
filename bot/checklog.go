package bot

import (
	"log/slog"
	"math"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
)

// logFinished writes the one structured line of a finished check, for
// operators: on the job's logger (key, tenant, platform), how it ended
// ("done" or "failed" with its error), the seconds it ran, how many claims
// it checked and how many it left as not checkable, the verdicts by label,
// the budgets that ended claims' runs (stopped_by) by name, the verdicts
// answered from the cache, and the tokens the model was sent and wrote.
func (j *job) logFinished(rep *factcheck.Report, err error, began time.Time) {
	secs := math.Round(time.Since(began).Seconds()*1000) / 1000
	if err != nil {
		j.log.Error("check finished", "outcome", "failed", "seconds", secs, "err", err)
		return
	}
	verdicts := map[string]int{}
	stopped := map[string]int{}
	cached := 0
	for _, v := range rep.Claims {
		verdicts[string(v.Verdict)]++
		if v.StoppedBy != "" {
			stopped[v.StoppedBy]++
		}
		if v.Cached {
			cached++
		}
	}
	j.log.Info("check finished", "outcome", "done", "seconds", secs,
		"claims", len(rep.Claims), "not_checkable", len(rep.NotCheckable),
		counts("verdicts", verdicts), counts("stopped_by", stopped), "cached", cached,
		"prompt_tokens", rep.Usage.PromptTokens, "output_tokens", rep.Usage.OutputTokens)
}

// counts is a group of counts by name, in the labels' order for verdicts
// (slog sorts nothing; a map's order would change from line to line).
func counts(name string, m map[string]int) slog.Attr {
	var attrs []any
	for _, k := range []string{string(factcheck.Supported), string(factcheck.Contradicted), string(factcheck.Contested),
		string(factcheck.Unverifiable), "steps", "searches", "reads", "prompt_tokens", "time"} {
		if n := m[k]; n > 0 {
			attrs = append(attrs, slog.Int(k, n))
			delete(m, k)
		}
	}
	for k, n := range m { // anything not named above
		attrs = append(attrs, slog.Int(k, n))
	}
	return slog.Group(name, attrs...)
}
