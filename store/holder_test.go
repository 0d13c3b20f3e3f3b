package store

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A process that finds the file locked names the process that holds it,
// from the holder file the holder wrote: in another process (the child)
// and in this one.
func TestLockedNamesHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	db, err := Open(path, Options{Holder: "factbot web"})
	mustf(t, err, "open")
	want := path + " is in use by factbot web (pid " + strconv.Itoa(os.Getpid()) + ", since "
	if !testing.Short() {
		out, err := child(t, "lock", path).Output()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 || !strings.Contains(string(out), want) {
			t.Errorf("second process: %v, message %q; want exit 3 and %q", err, out, want)
		}
	}
	_, err = Open(path, Options{Timeout: 10 * time.Millisecond, Holder: "factbot check"})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), want) {
		t.Errorf("second open: %v; want ErrLocked saying %q", err, want)
	}
	mustf(t, db.Close(), "close")
	if _, err := os.Stat(HolderPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the holder file is left after Close: %v", err)
	}
	// The next holder names itself.
	db, err = Open(path, Options{Holder: "factbot mcp"})
	mustf(t, err, "open again")
	defer db.Close()
	if _, err := Open(path, Options{Timeout: 10 * time.Millisecond}); err == nil || !strings.Contains(err.Error(), "in use by factbot mcp (pid") {
		t.Errorf("open while factbot mcp holds it: %v", err)
	}
}

// A holder file that names no process that runs (left by one that ended
// without closing), or none at all, is not believed: the message names
// every process that could hold the file.
func TestLockedHolderUnknown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	db, err := Open(path, Options{})
	mustf(t, err, "open")
	defer db.Close()
	ended := exec.Command(os.Args[0], "-test.run=^$")
	mustf(t, ended.Run(), "run a process that ends")
	for name, content := range map[string]string{
		"no holder file": "",
		"ended process":  `{"command":"factbot serve","pid":` + strconv.Itoa(ended.Process.Pid) + `,"since":"2026-12-06T12:00:00Z"}`,
		"not JSON":       "factbot serve",
	} {
		os.Remove(HolderPath(path))
		if content != "" {
			mustf(t, os.WriteFile(HolderPath(path), []byte(content), 0o600), "write holder")
		}
		_, err := Open(path, Options{Timeout: 10 * time.Millisecond})
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if !errors.Is(err, ErrLocked) || strings.Contains(msg, "factbot serve (pid") ||
			!strings.Contains(msg, "in use by another process (none named itself in "+HolderPath(path)+"): a factbot serve, web or mcp") {
			t.Errorf("%s: %v; want ErrLocked naming every candidate", name, err)
		}
	}
}
