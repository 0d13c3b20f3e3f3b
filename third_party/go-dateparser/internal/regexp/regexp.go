//go:build !(re2_wasm || re2_cgo) || !cgo

package regexp

import (
	stdregex "regexp"
	"sync"
)

// Regexp is compiled when it is first used. Patched for factbot: the
// package-level expressions of go-dateparser (about 450 KB of compiled
// programs) were compiled when any program that links it started.
// MustCompile stays small (a pattern kept), as it is called at about 4,000
// places of the locale data.
type Regexp struct {
	pattern string
	once    sync.Once
	rx      *stdregex.Regexp
}

func QuoteMeta(s string) string {
	return stdregex.QuoteMeta(s)
}

func Compile(str string) (*Regexp, error) {
	rx, err := stdregex.Compile(str)
	if err != nil {
		return nil, err
	}
	re := &Regexp{pattern: str}
	re.once.Do(func() { re.rx = rx })
	return re, nil
}

// MustCompile panics on a bad expression the first time it is used.
// Patched for factbot: compiled on first use.
func MustCompile(str string) *Regexp {
	return &Regexp{pattern: str}
}

func (re *Regexp) compiled() *stdregex.Regexp {
	re.once.Do(re.compile)
	return re.rx
}

func (re *Regexp) compile() { re.rx = stdregex.MustCompile(re.pattern) }

func (re *Regexp) Expand(dst []byte, template []byte, src []byte, match []int) []byte {
	return re.compiled().Expand(dst, template, src, match)
}

func (re *Regexp) ExpandString(dst []byte, template string, src string, match []int) []byte {
	return re.compiled().ExpandString(dst, template, src, match)
}

func (re *Regexp) Find(b []byte) []byte {
	return re.compiled().Find(b)
}

func (re *Regexp) FindAll(b []byte, n int) [][]byte {
	return re.compiled().FindAll(b, n)
}

func (re *Regexp) FindAllIndex(b []byte, n int) [][]int {
	return re.compiled().FindAllIndex(b, n)
}

func (re *Regexp) FindAllString(s string, n int) []string {
	return re.compiled().FindAllString(s, n)
}

func (re *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return re.compiled().FindAllStringIndex(s, n)
}

func (re *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return re.compiled().FindAllStringSubmatch(s, n)
}

func (re *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return re.compiled().FindAllStringSubmatchIndex(s, n)
}

func (re *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return re.compiled().FindAllSubmatch(b, n)
}

func (re *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return re.compiled().FindAllSubmatchIndex(b, n)
}

func (re *Regexp) FindIndex(b []byte) (loc []int) {
	return re.compiled().FindIndex(b)
}

func (re *Regexp) FindString(s string) string {
	return re.compiled().FindString(s)
}

func (re *Regexp) FindStringIndex(s string) (loc []int) {
	return re.compiled().FindStringIndex(s)
}

func (re *Regexp) FindStringSubmatch(s string) []string {
	return re.compiled().FindStringSubmatch(s)
}

func (re *Regexp) FindStringSubmatchIndex(s string) []int {
	return re.compiled().FindStringSubmatchIndex(s)
}

func (re *Regexp) FindSubmatch(b []byte) [][]byte {
	return re.compiled().FindSubmatch(b)
}

func (re *Regexp) FindSubmatchIndex(b []byte) []int {
	return re.compiled().FindSubmatchIndex(b)
}

func (re *Regexp) Longest() {
	re.compiled().Longest()
}

func (re *Regexp) Match(b []byte) bool {
	return re.compiled().Match(b)
}

func (re *Regexp) MatchString(s string) bool {
	return re.compiled().MatchString(s)
}

func (re *Regexp) NumSubexp() int {
	return re.compiled().NumSubexp()
}

func (re *Regexp) ReplaceAll(src, repl []byte) []byte {
	return re.compiled().ReplaceAll(src, repl)
}

func (re *Regexp) ReplaceAllLiteral(src, repl []byte) []byte {
	return re.compiled().ReplaceAllLiteral(src, repl)
}

func (re *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return re.compiled().ReplaceAllLiteralString(src, repl)
}

func (re *Regexp) ReplaceAllString(src, repl string) string {
	return re.compiled().ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is added for factbot, for jalali's expressions.
func (re *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return re.compiled().ReplaceAllStringFunc(src, repl)
}

func (re *Regexp) Split(s string, n int) []string {
	return re.compiled().Split(s, n)
}

func (re *Regexp) String() string {
	return re.compiled().String()
}

func (re *Regexp) SubexpIndex(name string) int {
	return re.compiled().SubexpIndex(name)
}

func (re *Regexp) SubexpNames() []string {
	return re.compiled().SubexpNames()
}
