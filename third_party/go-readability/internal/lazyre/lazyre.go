// Package lazyre is a regular expression compiled on first use. Added for
// factbot: go-readability's package-level expressions (about 210 KB of
// compiled programs) were compiled when any program that links it
// started. It has the methods of regexp.Regexp that go-readability calls.
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

func (re *Regexp) compiled() *regexp.Regexp {
	re.once.Do(func() { re.rx = regexp.MustCompile(re.expr) })
	return re.rx
}

func (re *Regexp) String() string { return re.expr }

func (re *Regexp) MatchString(s string) bool { return re.compiled().MatchString(s) }

func (re *Regexp) FindString(s string) string { return re.compiled().FindString(s) }

func (re *Regexp) FindStringIndex(s string) []int { return re.compiled().FindStringIndex(s) }

func (re *Regexp) FindStringSubmatch(s string) []string { return re.compiled().FindStringSubmatch(s) }

func (re *Regexp) FindStringSubmatchIndex(s string) []int {
	return re.compiled().FindStringSubmatchIndex(s)
}

func (re *Regexp) FindAllString(s string, n int) []string { return re.compiled().FindAllString(s, n) }

func (re *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return re.compiled().FindAllStringSubmatch(s, n)
}

func (re *Regexp) ReplaceAllString(src, repl string) string {
	return re.compiled().ReplaceAllString(src, repl)
}

func (re *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return re.compiled().ReplaceAllStringFunc(src, repl)
}

func (re *Regexp) SubexpNames() []string { return re.compiled().SubexpNames() }

func (re *Regexp) SubexpIndex(name string) int { return re.compiled().SubexpIndex(name) }

func (re *Regexp) Split(s string, n int) []string { return re.compiled().Split(s, n) }

// Compiled is the expression compiled, for where a *regexp.Regexp is
// wanted.
func (re *Regexp) Compiled() *regexp.Regexp { return re.compiled() }
