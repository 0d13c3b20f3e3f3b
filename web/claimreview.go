package web

import (
	"strings"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// DefaultOrganization is the author of ClaimReview markup when no
// organisation is configured (FACTBOT_ORGANIZATION).
const DefaultOrganization = "factbot"

// ClaimReview is one verdict as schema.org's ClaimReview
// (https://schema.org/ClaimReview), the markup fact-checkers publish and
// Google's Fact Check Tools read. ClaimReviews makes them, for the check
// pages' JSON-LD and for factbot export --format claimreview alike.
type ClaimReview struct {
	Context       string       `json:"@context"` // https://schema.org
	Type          string       `json:"@type"`    // ClaimReview
	URL           string       `json:"url"`      // the check's page, absolute
	ClaimReviewed string       `json:"claimReviewed"`
	ItemReviewed  Claim        `json:"itemReviewed"`
	ReviewRating  Rating       `json:"reviewRating"`
	Author        Organization `json:"author"`
	DatePublished string       `json:"datePublished"` // when the check was made, RFC 3339
	InLanguage    string       `json:"inLanguage,omitempty"`
}

// Claim is the claim reviewed: its author and date where the asker gave
// them.
type Claim struct {
	Type          string  `json:"@type"` // Claim
	Author        *Person `json:"author,omitempty"`
	DatePublished string  `json:"datePublished,omitempty"` // YYYY-MM-DD
}

// Person is who made a claim.
type Person struct {
	Type string `json:"@type"` // Person
	Name string `json:"name"`
}

// Rating is a verdict: AlternateName is factbot's label, RatingValue its
// place on a five-point scale from false (1) to true (5); see ratingValue.
type Rating struct {
	Type          string `json:"@type"` // Rating
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

// ClaimReviews returns one ClaimReview per claim of c that was checked (a
// claim that could not be checked at all has no review), in claim order;
// their url is the check's page under site.PublicURL.
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
	var out []ClaimReview
	for _, v := range c.Report.Claims {
		if v == nil || v.Error != "" || !v.Verdict.Valid() {
			continue
		}
		out = append(out, ClaimReview{
			Context: "https://schema.org", Type: "ClaimReview",
			URL:           base + CheckPath(c.Tenant, c.ID),
			ClaimReviewed: v.Claim,
			ItemReviewed:  item,
			ReviewRating: Rating{Type: "Rating", RatingValue: ratingValue(v.Verdict), BestRating: BestRating, WorstRating: WorstRating,
				AlternateName: string(v.Verdict)},
			Author:        org,
			DatePublished: c.CreatedAt.UTC().Format(time.RFC3339),
			InLanguage:    c.Report.Language,
		})
	}
	return out
}
