// Package archtest checks the shape ARCHITECTURE.md promises: dependencies
// that point one way, and functions short enough to read.
package archtest

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/factbot-dev/factbot"

// root is the module's directory, two levels above this package.
var root = filepath.Join("..", "..")

// parsed is one non-test Go file of the module.
type parsed struct {
	pkg  string // import path
	path string // file path relative to root
	file *ast.File
	fset *token.FileSet
}

func moduleFiles(t *testing.T) []parsed {
	t.Helper()
	var out []parsed
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() && path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module (third_party/…), not this one's
			}
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		pkg := module
		if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "." {
			pkg += "/" + dir
		}
		out = append(out, parsed{pkg: pkg, path: filepath.ToSlash(rel), file: f, fset: fset})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 50 {
		t.Fatalf("found only %d Go files under %s", len(out), root)
	}
	return out
}

// TestDependenciesPointOneWay: cmd → bot adapters → bot → bot/words,
// factcheck, store;
// cmd → mcp → factcheck, store, bot/words;
// factcheck knows no chat or storage, search no verdicts, store no chat;
// factcheck/evidence is below the rest of factcheck; internal/textrank
// (the one sentence splitter and ranker) below factcheck and search;
// nothing imports the binary's packages, and only tests the test helpers.
func TestDependenciesPointOneWay(t *testing.T) {
	forbidden := []struct{ from, to, why string }{
		{"factcheck", "bot", "the engine knows nothing of chat"},
		{"factcheck", "store", "the engine knows nothing of storage"},
		{"search", "factcheck", "search knows nothing of verdicts"},
		{"search", "bot", "search knows nothing of chat"},
		{"search", "store", "search declares the cache it needs"},
		{"store", "bot", "the store knows nothing of chat"},
		// The words are below the chat core: bot, its adapters, the web
		// view and the binary take their words from bot/words.
		{"bot/words", "bot", "the words know nothing of the chat core"},
		{"bot/words", "store", "the words know nothing of storage"},
		{"factcheck", "bot/words", "the engine says its notices by codes, which bot/words puts in words"},
		// mcp only translates MCP tool calls into checks and records: it
		// knows the engine and the store, not chat or the web view; and
		// only the binary wires it. Its text says where a quote was found
		// in the words of every other report, from bot/words.
		{"mcp", "bot", "mcp translates for the engine and the store; it knows no chat"},
		{"mcp", "web", "mcp translates for the engine and the store; it knows no web view"},
		{"mcp", "search", "mcp translates for the engine and the store"},
		{"bot", "mcp", "only the binary wires the MCP server"},
		{"web", "mcp", "only the binary wires the MCP server"},
		{"factcheck", "mcp", "only the binary wires the MCP server"},
		{"store", "mcp", "only the binary wires the MCP server"},
		{"search", "mcp", "only the binary wires the MCP server"},
		// The internal packages are below everything: shared utilities that
		// import no feature package (the binary's configuration, which names
		// what it configures, is cmd/factbot/config).
		{"internal", "bot", "internal packages are below the core"},
		{"internal", "search", "internal packages are below the search"},
		{"internal", "web", "internal packages are below the web view"},
		{"internal", "mcp", "internal packages are below the MCP server"},
		{"internal", "factcheck", "internal packages are below the engine"},
		{"internal", "store", "internal packages are below the store"},
	}
	for _, f := range moduleFiles(t) {
		for _, imp := range f.file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(path, module+"/") {
				continue
			}
			from, to := strings.TrimPrefix(f.pkg, module+"/"), strings.TrimPrefix(path, module+"/")
			for _, rule := range forbidden {
				if within(from, rule.from) && within(to, rule.to) && !(within(from, "mcp") && to == "bot/words") {
					t.Errorf("%s imports %s: %s", f.path, path, rule.why)
				}
			}
			// The evidence package is pure functions below the engine: it
			// imports no other part of factcheck.
			if within(from, "factcheck/evidence") && within(to, "factcheck") && !within(to, "factcheck/evidence") {
				t.Errorf("%s imports %s: the evidence package is below the engine", f.path, path)
			}
			// Claim matching's guard is a pure function of two texts.
			if within(from, "factcheck/guard") {
				t.Errorf("%s imports %s: factcheck/guard is below the engine and imports nothing of the module", f.path, path)
			}
			// The one splitter and ranker sits below both factcheck and
			// search, which both use it: it imports nothing of the module.
			if within(from, "internal/textrank") {
				t.Errorf("%s imports %s: internal/textrank is below factcheck and search", f.path, path)
			}
			// The binary's packages (its admin socket) are its own.
			if within(to, "cmd") && !within(from, "cmd") {
				t.Errorf("%s imports %s: nothing imports the binary", f.path, path)
			}
			// Test helpers (storetest, pgtest, geminitest, …) are for tests.
			if strings.HasSuffix(to, "test") && !strings.HasSuffix(f.file.Name.Name, "test") {
				t.Errorf("%s imports %s: a test helper, for tests only", f.path, path)
			}
			// The chat core never imports an adapter; adapters never import
			// each other.
			if from == "bot" && within(to, "bot") && to != "bot" && to != "bot/words" {
				t.Errorf("%s imports %s: the core knows no adapter", f.path, path)
			}
			for _, a := range []string{"bot/slack", "bot/discord"} {
				for _, b := range []string{"bot/slack", "bot/discord"} {
					if a != b && within(from, a) && within(to, b) {
						t.Errorf("%s imports %s: adapters only translate, each on its own", f.path, path)
					}
				}
			}
		}
	}
}

func within(pkg, tree string) bool { return pkg == tree || strings.HasPrefix(pkg, tree+"/") }

// maxLines bounds a function outside tests. A longer one is split into
// named steps, unless it is one flat table or switch (listed here, with the
// reason, by whoever adds it).
const maxLines = 80

var flatTables = []string{}

func TestFunctionsAreShort(t *testing.T) {
	for _, f := range moduleFiles(t) {
		if strings.HasSuffix(f.file.Name.Name, "test") {
			continue // test helpers and fakes (storetest, geminitest, …) are test code
		}
		for _, d := range f.file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			n := f.fset.Position(fd.End()).Line - f.fset.Position(fd.Pos()).Line + 1
			name := f.path + ":" + fd.Name.Name
			if n > maxLines && !slices.Contains(flatTables, name) {
				t.Errorf("%s is %d lines (at most %d): split it into named steps", name, n, maxLines)
			}
		}
	}
}

// maxFileLines bounds a hand-written Go file outside tests (test helpers
// such as the fake servers included): a longer one is split into files
// named for what they hold. Generated files are exempt.
const maxFileLines = 600

// generated is the standard line that marks a generated Go file
// (https://go.dev/s/generatedcode).
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

func TestFilesAreShort(t *testing.T) {
	for _, f := range moduleFiles(t) {
		b, err := os.ReadFile(filepath.Join(root, f.path))
		if err != nil {
			t.Fatal(err)
		}
		if generated.Match(b) {
			continue
		}
		if n := bytes.Count(b, []byte("\n")); n > maxFileLines {
			t.Errorf("%s is %d lines (at most %d): split it into files named for what they hold", f.path, n, maxFileLines)
		}
	}
}

// The file-length check knows a generated file by its standard line.
func TestGeneratedFilesRecognised(t *testing.T) {
	var gen []string
	for _, f := range moduleFiles(t) {
		b, err := os.ReadFile(filepath.Join(root, f.path))
		if err != nil {
			t.Fatal(err)
		}
		if generated.Match(b) {
			gen = append(gen, f.path)
		}
	}
	if !slices.Contains(gen, "factcheck/langnames.go") {
		t.Errorf("generated files %q do not include factcheck/langnames.go", gen)
	}
}

// maxMethods bounds the methods of one type in the chat adapters, so that
// each can be read a part at a time (a router, the channels' visibility,
// the acknowledgements in flight, …) rather than as one hub.
const maxMethods = 30

// partsPackages are the packages held to maxMethods.
var partsPackages = []string{module + "/bot/discord", module + "/bot/slack"}

func TestAdapterTypesAreSmall(t *testing.T) {
	methods := map[string]int{}
	for _, f := range moduleFiles(t) {
		if !slices.Contains(partsPackages, f.pkg) {
			continue
		}
		for _, d := range f.file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
				continue
			}
			typ := fd.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				methods[f.pkg+"."+id.Name]++
			}
		}
	}
	if len(methods) == 0 {
		t.Fatal("no methods found in", partsPackages)
	}
	for typ, n := range methods {
		if n > maxMethods {
			t.Errorf("%s has %d methods (at most %d): split it into parts behind narrow interfaces", typ, n, maxMethods)
		}
	}
}
