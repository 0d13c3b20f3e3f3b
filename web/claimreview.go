package web

import (
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// DefaultOrganization is the author of ClaimReview markup when no
// organisation is configured (FACTBOT_ORGANIZATION).
const DefaultOrganization = "factbot"

// ClaimReview is one verdict as schema.org's ClaimReview
// (https://schema.org/ClaimReview), the markup fact-checkers publish and
// Google's Fact Check Explorer, fact-checkers' tools and AI systems read
// (Google Search stopped showing it as rich results in 2025).
// ClaimReviews makes them, for the check pages' JSON-LD and for factbot
// export --format claimreview alike.
type ClaimReview struct {
	Context       string       `json:"@context"` // https://schema.org
	Type          string       `json:"@type"`    // ClaimReview
	URL           string       `json:"url"`      // the claim on the check's page (its anchor), absolute
	ClaimReviewed string       `json:"claimReviewed"`
	ItemReviewed  Claim        `json:"itemReviewed"`
	ReviewRating  Rating       `json:"reviewRating"`
	Author        Organization `json:"author"`
	DatePublished string       `json:"datePublished"` // when the check was made, RFC 3339
	InLanguage    string       `json:"inLanguage,omitempty"`
}

// Claim is the claim reviewed: its author and date where the asker gave
// them, and where it appeared where that is public (see appearance).
type Claim struct {
	Type          string         `json:"@type"` // Claim
	Author        *Person        `json:"author,omitempty"`
	DatePublished string         `json:"datePublished,omitempty"` // YYYY-MM-DD
	Appearance    []CreativeWork `json:"appearance,omitempty"`
}

// CreativeWork is a message or a page a claim appeared in.
type CreativeWork struct {
	Type string `json:"@type"` // CreativeWork
	URL  string `json:"url"`
}

// Person is who made a claim.
type Person struct {
	Type string `json:"@type"` // Person
	Name string `json:"name"`
}

// Rating is a verdict: AlternateName is factbot's label, Name the
// label's words in the checked text's language (as chat and the web view
// say it), RatingValue its place on a five-point scale from false (1) to
// true (5); see ratingValue.
type Rating struct {
	Type          string `json:"@type"` // Rating
	Name          string `json:"name"`
	RatingValue   int    `json:"ratingValue"`
	BestRating    int    `json:"bestRating"`
	WorstRating   int    `json:"worstRating"`
	AlternateName string `json:"alternateName"`
}

// Organization is who published the review.
type Organization struct {
	Type string `json:"@type"` // Organization
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

// The scale of Rating.RatingValue.
const (
	WorstRating = 1
	BestRating  = 5
)

// ratingValue places a verdict on the scale from false (1) to true (5):
// contradicted 1, supported 5, and contested and unverifiable in the middle
// (3), shown neither true nor false; AlternateName tells those two apart.
func ratingValue(l factcheck.Label) int {
	switch l {
	case factcheck.Supported:
		return BestRating
	case factcheck.Contradicted:
		return WorstRating
	}
	return (WorstRating + BestRating) / 2
}

// ReviewSite is what ClaimReviews needs of the site: its public address
// (FACTBOT_PUBLIC_URL) and who publishes it (FACTBOT_ORGANIZATION; empty
// is DefaultOrganization).
type ReviewSite struct {
	PublicURL    string
	Organization string
}

// ClaimAnchor is the id of claim n (from 1) on a check's page, the
// fragment of its ClaimReview's url.
func ClaimAnchor(n int) string { return "claim-" + strconv.Itoa(n) }

// ClaimReviews returns one ClaimReview per claim of c that was checked (a
// claim that could not be checked at all has no review), in claim order;
// each one's url is the claim on the check's page under site.PublicURL
// (#claim-N, ClaimAnchor).
func ClaimReviews(c *store.Check, site ReviewSite) []ClaimReview {
	if c.Report == nil {
		return nil
	}
	base := strings.TrimRight(site.PublicURL, "/")
	org := Organization{Type: "Organization", Name: site.Organization}
	if org.Name == "" {
		org.Name = DefaultOrganization
	}
	if base != "" {
		org.URL = base + "/"
	}
	item := Claim{Type: "Claim"}
	if sp := strings.TrimSpace(c.Speaker); sp != "" {
		item.Author = &Person{Type: "Person", Name: sp}
	}
	if !c.ClaimDate.IsZero() {
		item.DatePublished = c.ClaimDate.UTC().Format(time.DateOnly)
	}
	item.Appearance = appearance(c)
	lang := words.LangFor(c.Report.Language)
	var out []ClaimReview
	for i, v := range c.Report.Claims {
		if v == nil || v.Error != "" || !v.Verdict.Valid() {
			continue
		}
		out = append(out, ClaimReview{
			Context: "https://schema.org", Type: "ClaimReview",
			URL:           base + CheckPath(c.Tenant, c.ID) + "#" + ClaimAnchor(i+1),
			ClaimReviewed: v.Claim,
			ItemReviewed:  item,
			ReviewRating: Rating{Type: "Rating", Name: lang.Label(v.Verdict), RatingValue: ratingValue(v.Verdict), BestRating: BestRating, WorstRating: WorstRating,
				AlternateName: string(v.Verdict)},
			Author:        org,
			DatePublished: c.CreatedAt.UTC().Format(time.RFC3339),
			InLanguage:    c.Report.Language,
		})
	}
	return out
}

// noChatPlace are the platforms of checks made outside chat, by the
// operator at the terminal (factbot check) or by an agent (factbot mcp):
// no channel, no audience, nothing asked in private.
var noChatPlace = map[string]bool{"cli": true, "mcp": true}

// appearance is where the claims of c appeared, where that is public;
// nil otherwise. A check made in chat gives it only when everyone in the
// workspace or server may see it (store.Check.VisibleTo a tenant-wide
// audience: a public channel, the answer not private; never a private
// channel, a group or direct message, nor a check whose place is
// unknown): the message's permalink, when one was kept, and the page the
// claims were read from when the message was only a link to it
// (factcheck.Report.LinkedPage). A check made outside chat (noChatPlace)
// gives that page alone, a public web page.
func appearance(c *store.Check) []CreativeWork {
	var out []CreativeWork
	public := c.VisibleTo(&store.Audience{TenantWide: true})
	if !public && !noChatPlace[c.Platform] {
		return nil
	}
	if l := strings.TrimSpace(c.Link); public && l != "" {
		out = append(out, CreativeWork{Type: "CreativeWork", URL: l})
	}
	if u := c.Report.LinkedPage(); u != "" {
		out = append(out, CreativeWork{Type: "CreativeWork", URL: u})
	}
	return out
}
