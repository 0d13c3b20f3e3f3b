package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/factbot-dev/factbot/store"
)

// A bbolt file is held by one process at a time (its lock). The command
// that opens it (openBolt) names itself in a small file beside it,
// FILE.holder, so that another process that finds the file locked can say
// which one holds it. The file is written once the lock is held and
// removed at Close; one left by a process that ended without closing
// names a process that no longer runs, and is not believed.

// holderPath is the file beside the bbolt file at path that names the
// process holding it.
func holderPath(path string) string { return path + ".holder" }

// holder is what FILE.holder records.
type holder struct {
	Command string    `json:"command"`
	PID     int       `json:"pid"`
	Since   time.Time `json:"since"`
}

// maxHolderFile bounds the holder file as read.
const maxHolderFile = 4 << 10

// boltFile is a bbolt file this process opened, named in its holder file
// (if that could be written) until Close.
type boltFile struct {
	*store.DB
	holder bool
}

// holdBolt records this process, running command, as the holder of db's
// file. Best effort: a holder file that cannot be written only leaves
// another process's "locked" message less precise.
func holdBolt(db *store.DB, command string) *boltFile {
	return &boltFile{DB: db, holder: writeHolder(db.Path(), command, time.Now()) == nil}
}

// Close removes the holder file, then closes the file (the next holder
// writes its own once it has the lock).
func (f *boltFile) Close() error {
	if f.holder {
		removeHolder(f.Path())
	}
	return f.DB.Close()
}

// writeHolder records this process, running command, as the holder of
// the file at path: atomically, mode 0600.
func writeHolder(path, command string, now time.Time) error {
	data, err := json.Marshal(holder{Command: command, PID: os.Getpid(), Since: now.UTC().Truncate(time.Second)})
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".holder-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a failure; a no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), holderPath(path))
}

// readHolder returns the holder the file beside path names, if it names a
// process that still runs.
func readHolder(path string) (holder, bool) {
	f, err := os.Open(holderPath(path))
	if err != nil {
		return holder{}, false
	}
	defer f.Close()
	var h holder
	if err := json.NewDecoder(io.LimitReader(f, maxHolderFile)).Decode(&h); err != nil || h.Command == "" || h.PID <= 0 {
		return holder{}, false
	}
	return h, running(h.PID)
}

// removeHolder removes the holder file beside path if it names this
// process.
func removeHolder(path string) {
	if h, ok := readHolder(path); ok && h.PID == os.Getpid() {
		os.Remove(holderPath(path))
	}
}

// running reports whether the process pid runs (on this machine).
func running(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM) // EPERM: it runs, as another user
}

// namedHolder returns err, store's error of opening the bbolt file at
// path, with the process that holds the file named when err wraps
// store.ErrLocked: the one the holder file names, or else every process
// that could.
func namedHolder(err error, path string) error {
	if !errors.Is(err, store.ErrLocked) {
		return err
	}
	who := "another process (none named itself in " + holderPath(path) + "): a factbot serve, web or mcp, or a command still running, such as check, eval, backup, prune, forget, rotate-key or migrate"
	if h, ok := readHolder(path); ok {
		who = fmt.Sprintf("%s (pid %d, since %s)", h.Command, h.PID, h.Since.Format(time.RFC3339))
	}
	return fmt.Errorf("%w: %s is in use by %s; waited %v for it; stop that process or set FACTBOT_DB to another file", store.ErrLocked, path, who, store.DefaultTimeout)
}
