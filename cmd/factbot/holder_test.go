package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// openNamed opens the bbolt file at path as a command does, naming the
// holder in a "locked" error.
func openNamed(path string) (*store.DB, error) {
	db, err := store.Open(path, store.Options{Timeout: 10 * time.Millisecond})
	return db, namedHolder(err, path)
}

// A process that finds the file locked names the process that holds it,
// from the holder file the holder wrote: in another process (the child,
// TestLockedChild) and in this one. Close removes the holder file, and the
// next holder names itself.
func TestHolderFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := holdBolt(db, "factbot web")
	want := path + " is in use by factbot web (pid " + strconv.Itoa(os.Getpid()) + ", since "
	if !testing.Short() {
		child := exec.Command(os.Args[0], "-test.run=^TestLockedChild$")
		child.Env = append(os.Environ(), "FACTBOT_TEST_LOCKED="+path)
		out, err := child.Output()
		if err != nil || !strings.Contains(string(out), "FACTBOT_DB: database is locked: "+want) {
			t.Errorf("second process: %v, output %q; want %q", err, out, want)
		}
	}
	if _, err := openNamed(path); !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), want) {
		t.Errorf("second open: %v; want ErrLocked saying %q", err, want)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(holderPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the holder file is left after Close: %v", err)
	}
	db, err = store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer holdBolt(db, "factbot mcp").Close()
	if _, err := openNamed(path); err == nil || !strings.Contains(err.Error(), "in use by factbot mcp (pid") {
		t.Errorf("open while factbot mcp holds it: %v", err)
	}
}

// TestLockedChild is the other process of TestHolderFile: with
// FACTBOT_TEST_LOCKED set to a held file, it runs factbot history on it
// and prints what it said.
func TestLockedChild(t *testing.T) {
	path := os.Getenv("FACTBOT_TEST_LOCKED")
	if path == "" {
		t.Skip("the child process of TestHolderFile")
	}
	_, stderr, _ := runOut(map[string]string{"FACTBOT_DB": path}, "history")
	fmt.Print(stderr)
}

// A holder file that names no process that runs (left by one that ended
// without closing), or none at all, is not believed: the message names
// every process that could hold the file.
func TestLockedHolderUnknown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbot.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ended := exec.Command(os.Args[0], "-test.run=^$")
	if err := ended.Run(); err != nil {
		t.Fatalf("run a process that ends: %v", err)
	}
	for name, content := range map[string]string{
		"no holder file": "",
		"ended process":  `{"command":"factbot serve","pid":` + strconv.Itoa(ended.Process.Pid) + `,"since":"2026-12-06T12:00:00Z"}`,
		"not JSON":       "factbot serve",
	} {
		os.Remove(holderPath(path))
		if content != "" {
			if err := os.WriteFile(holderPath(path), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		_, err := openNamed(path)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if !errors.Is(err, store.ErrLocked) || strings.Contains(msg, "factbot serve (pid") ||
			!strings.Contains(msg, "in use by another process (none named itself in "+holderPath(path)+"): a factbot serve, web or mcp") {
			t.Errorf("%s: %v; want ErrLocked naming every candidate", name, err)
		}
	}
}
