package main

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// runOut runs factbot with args in-process, with an environment of only
// env, and returns its standard output, standard error and exit status.
func runOut(env map[string]string, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] }}
	code = run(context.Background(), a, args)
	return out.String(), errb.String(), code
}

// TestHelpOnStdout: factbot help, -h and --help print the general help on
// standard output with exit status 0 (factbot help | less shows it); no
// command at all is a usage error, on standard error.
func TestHelpOnStdout(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		stdout, stderr, code := runOut(nil, args...)
		if code != exitOK || stderr != "" || !strings.Contains(stdout, "Usage: factbot COMMAND") || !strings.Contains(stdout, "factbot help COMMAND") {
			t.Errorf("factbot %s: exit %d, stdout %q, stderr %q; want the help on stdout, exit 0", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	if stdout, stderr, code := runOut(nil); code != exitUsage || stdout != "" || !strings.Contains(stderr, "Usage: factbot COMMAND") {
		t.Errorf("factbot alone: exit %d, stdout %q, stderr %q; want the help on stderr, exit 2", code, stdout, stderr)
	}
	for _, args := range [][]string{{"help", "nosuch"}, {"help", "check", "show"}, {"nosuch"}} {
		if stdout, stderr, code := runOut(nil, args...); code != exitUsage || stdout != "" || stderr == "" {
			t.Errorf("factbot %s: exit %d, stdout %q, stderr %q; want a usage error on stderr", strings.Join(args, " "), code, stdout, stderr)
		}
	}
}

// TestCommandHelp: for every command, 'factbot COMMAND --help' and -h print
// its usage on standard output, nothing on standard error, with exit
// status 0 and whatever the environment (nothing is loaded or opened),
// and 'factbot help COMMAND' prints exactly the same.
func TestCommandHelp(t *testing.T) {
	env := map[string]string{"FACTBOT_DB": filepath.Join(t.TempDir(), "none.db")}
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runOut(env, c.name, "--help")
			if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "Usage: factbot "+c.name) {
				t.Fatalf("factbot %s --help: exit %d, stderr %q, stdout:\n%s\nwant its usage on stdout, exit 0", c.name, code, stderr, stdout)
			}
			for _, args := range [][]string{{c.name, "-h"}, {"help", c.name}} {
				out, errOut, code := runOut(env, args...)
				if code != exitOK || errOut != "" {
					t.Errorf("factbot %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut)
				}
				if diff := cmp.Diff(stdout, out); diff != "" {
					t.Errorf("factbot %s differs from factbot %s --help (-want +got):\n%s", strings.Join(args, " "), c.name, diff)
				}
			}
		})
	}
}

// TestBadFlagOnStderr: a flag that does not exist is reported with the
// command's usage on standard error, nothing on standard output, exit 2.
func TestBadFlagOnStderr(t *testing.T) {
	for _, name := range []string{"check", "history", "serve", "read", "config", "eval", "mcp"} {
		stdout, stderr, code := runOut(nil, name, "--no-such-flag")
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "no-such-flag") || !strings.Contains(stderr, "Usage: factbot "+name) {
			t.Errorf("factbot %s --no-such-flag: exit %d, stdout %q, stderr %q; want the error and usage on stderr, exit 2", name, code, stdout, stderr)
		}
	}
}

// TestVersion: factbot version and --version print the same line on
// standard output: the module version and revision of the build
// information; what a test binary (like go run) has shows as "(devel)".
func TestVersion(t *testing.T) {
	want := versionLine(nil)
	if info, ok := debug.ReadBuildInfo(); ok {
		want = versionLine(info)
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		stdout, stderr, code := runOut(nil, args...)
		if code != exitOK || stderr != "" || stdout != want+"\n" {
			t.Errorf("factbot %s: exit %d, stdout %q, stderr %q; want %q", strings.Join(args, " "), code, stdout, stderr, want)
		}
	}
	if _, stderr, code := runOut(nil, "version", "extra"); code != exitUsage || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("factbot version extra: exit %d, stderr %q", code, stderr)
	}
}

func TestVersionLine(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "factbot (devel), unknown revision, " + runtime.Version()},
		{"go run", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: module, Version: "(devel)"}},
			"factbot (devel), unknown revision, go1.26.8"},
		{"test binary", &debug.BuildInfo{GoVersion: "go1.26.8"}, "factbot (devel), unknown revision, go1.26.8"},
		{"go build in a clone", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: module, Version: "v0.0.0-20261206123740-1d707fc2efe1"},
			Settings: settings("vcs", "git", "vcs.revision", "1d707fc2efe1715869f709d049c15dae5b16aeb0", "vcs.time", "2026-12-06T12:37:40Z", "vcs.modified", "false")},
			"factbot v0.0.0-20261206123740-1d707fc2efe1, revision 1d707fc2efe1715869f709d049c15dae5b16aeb0 (2026-12-06T12:37:40Z), go1.26.8"},
		{"with changes", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: module, Version: "v0.0.0-20261206123740-1d707fc2efe1+dirty"},
			Settings: settings("vcs.revision", "1d707fc2efe1715869f709d049c15dae5b16aeb0", "vcs.time", "2026-12-06T12:37:40Z", "vcs.modified", "true")},
			"factbot v0.0.0-20261206123740-1d707fc2efe1+dirty, revision 1d707fc2efe1715869f709d049c15dae5b16aeb0 (2026-12-06T12:37:40Z, with uncommitted changes), go1.26.8"},
		{"go install at a version", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: module, Version: "v1.2.0"}},
			"factbot v1.2.0, unknown revision, go1.26.8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, versionLine(tt.info)); diff != "" {
				t.Errorf("versionLine (-want +got):\n%s", diff)
			}
		})
	}
}

// TestServePointsToWebAndMCP: serve's help, and serve started without a
// chat platform, name factbot web and factbot mcp.
func TestServePointsToWebAndMCP(t *testing.T) {
	stdout, _, _ := runOut(nil, "serve", "--help")
	_, stderr, code := runOut(map[string]string{"FACTBOT_DB": filepath.Join(t.TempDir(), "f.db")}, "serve")
	if code != exitUsage || !strings.Contains(stderr, "no chat platform configured") {
		t.Errorf("serve without a platform: exit %d, stderr %q; want a configuration error", code, stderr)
	}
	for name, out := range map[string]string{"serve --help": stdout, "serve without a platform": stderr} {
		for _, want := range []string{"'factbot web'", "'factbot mcp'"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s does not name %s:\n%s", name, want, out)
			}
		}
	}
}
