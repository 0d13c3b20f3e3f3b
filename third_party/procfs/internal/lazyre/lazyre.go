// Package lazyre is a regular expression compiled on first use. Added for
// factbot: procfs's package-level expressions (about 95 KB of compiled
// programs) were compiled when any program that links it started, which
// every program with a Prometheus client does. It has the functions and
// methods of regexp that procfs calls.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is expr, compiled the first time it is used.
type Regexp struct {
	expr string
	once sync.Once
	rx   *regexp.Regexp
}

// MustCompile keeps expr; a bad one panics the first time it is used.
func MustCompile(expr string) *Regexp { return &Regexp{expr: expr} }

// MatchString is regexp.MatchString.
func MatchString(pattern, s string) (bool, error) { return regexp.MatchString(pattern, s) }

func (re *Regexp) compiled() *regexp.Regexp {
	re.once.Do(func() { re.rx = regexp.MustCompile(re.expr) })
	return re.rx
}

func (re *Regexp) MatchString(s string) bool { return re.compiled().MatchString(s) }

func (re *Regexp) FindString(s string) string { return re.compiled().FindString(s) }

func (re *Regexp) FindStringSubmatch(s string) []string { return re.compiled().FindStringSubmatch(s) }

func (re *Regexp) Split(s string, n int) []string { return re.compiled().Split(s, n) }

func (re *Regexp) ReplaceAllString(src, repl string) string {
	return re.compiled().ReplaceAllString(src, repl)
}
