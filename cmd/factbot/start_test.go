package main

import (
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The start's budget: `factbot help` (every command starts the same
// packages) within 50 ms of wall time and 35 MB of largest resident set on
// a quiet machine. BenchmarkStart measures both and reports them beside
// the budget; time is not tested (a shared machine makes any timed test
// flaky), but what the start allocates is, by TestStartAllocations: the
// same build gives the same figures on any machine.
const (
	startBudgetWallMS = 50
	startBudgetRSSMB  = 35
)

// Limits of what the program's start may allocate, before main, in every
// command (`factbot help` included).
const (
	// ownInitLimit bounds one package of factbot: package-level work
	// (catalogs, templates, schemas, tables, regular expressions, maps) is
	// built on first use; what is left is about 1.3 KB at most (the
	// sync.OnceValue closures themselves).
	ownInitLimit = 2 << 10
	// initLimit bounds every package together, dependencies included, so
	// that the start stays within startBudgetRSSMB. Measured as released
	// (CGO_ENABLED=0 -trimpath), the binary's pages read in from disk as
	// BenchmarkStart reads them (docs/benchmarks.md): 1.2 MB allocated at
	// start gave 23.0 MB resident; 5.5 MB (go-trafilatura, go-htmldate,
	// go-domdistiller, gomoji, whatlanggo, go-readability, ledongthuc/pdf and
	// procfs as released) 28.5-29.5 MB, 30.9 MB at most as go build builds
	// it: about 1.5 MB resident for every MB allocated, the pages of the code
	// that builds it included. 8 MiB comes to about 34 MB. A dependency added
	// or upgraded that builds large tables at start shows here, named.
	initLimit = 8 << 20
)

// TestStartAllocations runs the built binary's `help` with
// GODEBUG=inittrace=1, which prints what each package's initialisation
// allocated, and holds it to the limits above. BenchmarkStart measures
// the time and memory of the start against the budget.
func TestStartAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildFactbot(t)
	c := exec.Command(bin, "help")
	c.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("factbot help: %v\n%s", err, out)
	}
	inits := initAllocations(t, string(out))
	var total int64
	for pkg, bytes := range inits {
		total += bytes
		if strings.HasPrefix(pkg, module+"/") && bytes > ownInitLimit {
			t.Errorf("%s allocates %d bytes at start, over %d: build its package-level values on first use (sync.OnceValue)", pkg, bytes, ownInitLimit)
		}
	}
	if total > initLimit {
		top := largestPackages(inits, 10)
		t.Errorf("the start allocates %d bytes, over %d (the budget of %d MB resident): %s allocates the most, %d bytes "+
			"(GODEBUG=inittrace=1 factbot help); build its tables on first use or keep it out of the binary. The largest:\n%s",
			total, initLimit, startBudgetRSSMB, top[0], inits[top[0]], listAllocations(inits, top))
	}
}

// TestNotLinked keeps packages out of the binary that only tests need:
// the fakes and test helpers (packages named xxxtest) and the OpenAI SDK,
// which factcheck/openai does without, as search/factchecks does without
// Google's generated Fact Check Tools client; and x/text's display names,
// which build their tables at init (factcheck has a generated table of
// them).
func TestNotLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		own := strings.HasPrefix(pkg, module+"/")
		if own && strings.HasSuffix(pkg, "test") || strings.HasPrefix(pkg, "github.com/openai/openai-go") ||
			strings.HasPrefix(pkg, "google.golang.org/api/factchecktools") ||
			pkg == "golang.org/x/text/language/display" { // its matcher is built at init: factcheck has a table

			t.Errorf("%s is linked into factbot", pkg)
		}
	}
}

const module = "github.com/factbot-dev/factbot"

var inittraceLine = regexp.MustCompile(`(?m)^init (\S+) @.*?, ([0-9]+) bytes, [0-9]+ allocs$`)

// initAllocations reads GODEBUG=inittrace=1 output: the bytes each
// package's initialisation allocated.
func initAllocations(t *testing.T, out string) map[string]int64 {
	t.Helper()
	m := map[string]int64{}
	for _, g := range inittraceLine.FindAllStringSubmatch(out, -1) {
		n, err := strconv.ParseInt(g[2], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		m[g[1]] += n
	}
	if len(m) < 100 {
		t.Fatalf("no inittrace in the output:\n%s", out)
	}
	return m
}

// largestPackages is the n packages that allocate the most, the largest
// first.
func largestPackages(inits map[string]int64, n int) []string {
	pkgs := make([]string, 0, len(inits))
	for p := range inits {
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool { return inits[pkgs[i]] > inits[pkgs[j]] })
	return pkgs[:min(n, len(pkgs))]
}

// listAllocations writes pkgs with what each allocates, a line each.
func listAllocations(inits map[string]int64, pkgs []string) string {
	var b strings.Builder
	for _, p := range pkgs {
		b.WriteString("\t" + strconv.FormatInt(inits[p], 10) + " " + p + "\n")
	}
	return b.String()
}
