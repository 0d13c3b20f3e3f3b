package store

// Visibility says who could read the place where a request was made. It is
// recorded on every request and check; the empty value (records written
// before it existed, or a place the adapter could not classify) is
// unknown, and unknown is treated as not public.
type Visibility string

// Visibilities.
const (
	VisibilityUnknown Visibility = ""
	// VisibilityPublic is a public channel (Slack) or a guild text channel
	// every member can read (Discord).
	VisibilityPublic Visibility = "public"
	// VisibilityPrivate is a private channel or a private thread.
	VisibilityPrivate Visibility = "private"
	// VisibilityGroup is a group direct message.
	VisibilityGroup Visibility = "group"
	// VisibilityDM is a direct message.
	VisibilityDM Visibility = "dm"
)

// Audience is who asks to see checks in chat: the person (User) and the
// channel the question is asked in (Channel). TenantWide is set for a
// listing of the whole tenant (e.g. "/factcheck history" without a
// channel filter), which may then show checks made in public channels
// elsewhere. A nil *Audience is the operator (the CLI): everything.
type Audience struct {
	User       string `json:"user,omitempty"`
	Channel    string `json:"channel,omitempty"`
	TenantWide bool   `json:"tenant_wide,omitempty"`
}

// VisibleTo reports whether the audience may see the check: the operator
// (nil) and the asker always; anyone else only when the answer was not
// private and the check was made in the audience's channel or, for a
// tenant-wide listing, in a public channel. Callers that show a check by
// id (buttons, "show") must ask it; Check does not.
func (c *Check) VisibleTo(a *Audience) bool {
	return a.sees(c.User, c.Channel, c.Private, c.Visibility)
}

// VisibleTo is (*Check).VisibleTo on a history line.
func (s *CheckSummary) VisibleTo(a *Audience) bool {
	return a.sees(s.User, s.Channel, s.Private, s.Visibility)
}

// sees is visibleTo of a check made by user in channel.
func (a *Audience) sees(user, channel string, private bool, vis Visibility) bool {
	var asker, where string
	if a != nil {
		asker, where = a.User, a.Channel
	}
	return visibleTo(a, asker, where, user, channel, private, vis == VisibilityPublic)
}

// visibleTo is the one rule of who may see a check in chat, for the
// audience a, whose user and channel are asker and where (the zero value:
// none), and a check made by user in channel: History, both VisibleTo
// methods and claim matching's index (earlier.go, which numbers users and
// channels) use it.
func visibleTo[T comparable](a *Audience, asker, where, user, channel T, private, public bool) bool {
	var none T
	switch {
	case a == nil:
		return true
	case asker != none && asker == user:
		return true
	case private:
		return false
	case where != none && where == channel:
		return true
	}
	return a.TenantWide && public
}
