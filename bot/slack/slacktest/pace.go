package slacktest

import "time"

// pace is one method's rate limit: n calls in any window, per channel or
// per workspace.
type pace struct {
	n          int
	window     time.Duration
	perChannel bool
}

// Pace makes method paced as Slack paces it: at most n calls in any
// window, counted per channel (perChannel, as chat.postMessage's one a
// second) or per workspace (as a method's tier: chat.postEphemeral's 100
// a minute); a call past it is answered 429 with a Retry-After (whole
// seconds, rounded up) of when the oldest call in the window leaves it,
// and recorded as method+" (429)".
func (s *Server) Pace(method string, n int, window time.Duration, perChannel bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.paces[method] = pace{n: n, window: window, perChannel: perChannel}
}

// paced counts a call of method by team in channel against its pace: 0
// when it passes, else the Retry-After to answer. s.mu is held.
func (s *Server) paced(method, team, channel string) time.Duration {
	p, ok := s.paces[method]
	if !ok {
		return 0
	}
	key := method + "\x00" + team
	if p.perChannel {
		key += "\x00" + channel
	}
	now := s.now()
	calls := s.passed[key]
	for len(calls) > 0 && !calls[0].After(now.Add(-p.window)) {
		calls = calls[1:]
	}
	if len(calls) >= p.n {
		s.passed[key] = calls
		return max(calls[0].Add(p.window).Sub(now), time.Nanosecond)
	}
	s.passed[key] = append(calls, now)
	return 0
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}
