package search

// Dated returns the results whose publication date is known, and how
// many had none: a check as of a date cannot tell whether an undated
// result was published before it.
func Dated(res []Result) (kept []Result, undated int) {
	kept = make([]Result, 0, len(res))
	for _, x := range res {
		if x.PublishedAt.IsZero() && parsePublished(x.Published).IsZero() {
			undated++
			continue
		}
		kept = append(kept, x)
	}
	return kept, undated
}

// KnownDate reports whether s, a publication date as a provider or a page
// gave it, can be read.
func KnownDate(s string) bool { return !parsePublished(s).IsZero() }
