package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

func runVersion(ctx context.Context, a *app, args []string) error {
	if err := parseNoArgs(a, "version", "Usage: factbot version\n\nPrints the module version and the VCS revision factbot was built from, as\nthe Go toolchain recorded them in the binary (also factbot --version).", args); err != nil {
		return err
	}
	info, _ := debug.ReadBuildInfo() // nil when the binary has none
	fmt.Fprintln(a.stdout, versionLine(info))
	return nil
}

// versionLine is what factbot version prints from the build information:
// the module version ("(devel)" when the toolchain recorded none, as under
// go run or in a test) and the VCS revision, with its time and whether the
// tree had changes ("unknown revision" when none was recorded: a build
// outside a clone, -buildvcs=false, go run), then the Go version.
func versionLine(info *debug.BuildInfo) string {
	version, goVersion := "", runtime.Version()
	vcs := map[string]string{}
	if info != nil {
		version, goVersion = info.Main.Version, info.GoVersion
		for _, s := range info.Settings {
			vcs[s.Key] = s.Value
		}
	}
	if version == "" {
		version = "(devel)"
	}
	rev := "unknown revision"
	if r := vcs["vcs.revision"]; r != "" {
		rev = "revision " + r
		var more []string
		if t := vcs["vcs.time"]; t != "" {
			more = append(more, t)
		}
		if vcs["vcs.modified"] == "true" {
			more = append(more, "with uncommitted changes")
		}
		if len(more) > 0 {
			rev += " (" + strings.Join(more, ", ") + ")"
		}
	}
	return fmt.Sprintf("factbot %s, %s, %s", version, rev, goVersion)
}
