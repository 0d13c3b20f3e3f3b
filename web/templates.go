package web

import (
	"html/template"
	"sync"
	"time"
)

// pages holds every page's template, parsed on first use (not when any
// command starts). html/template escapes all data by its context; nothing
// is marked safe.
var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"iso": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		// Numbers only: the same in every language.
		"when": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
		"short": func(sha string) string {
			if len(sha) > 12 {
				return sha[:12] + "…"
			}
			return sha
		},
		"snapChars": func() int { return snapshotChars },
	}).ParseFS(templateFS, "templates/*.html"))
})

// errorPage is what the error page shows: nothing of what was asked.
type errorPage struct {
	Status         int
	Title, Message string
	HTMLLang, Dir  string
}
