// Package lazyre is a regular expression compiled on first use. Added for
// factbot: go-domdistiller's package-level expressions (about 100 KB of
// compiled programs) were compiled when any program that links it
// started. It has the methods of regexp.Regexp that go-domdistiller calls.
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

func (re *Regexp) FindStringSubmatch(s string) []string { return re.compiled().FindStringSubmatch(s) }

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

func (re *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return re.compiled().FindAllStringIndex(s, n)
}

func (re *Regexp) Split(s string, n int) []string { return re.compiled().Split(s, n) }
