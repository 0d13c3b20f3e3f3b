package main

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/cmd/factbot/admin"
	"github.com/factbot-dev/factbot/factcheck"
)

// With another user's socket at the database's admin socket path (made by
// this test as root and given to user 65534), backup and forget fail
// naming it: backup never prints success with 0 bytes written, forget
// never says nothing was found, and the socket hears nothing.
func TestAdminForeignSocketBackupForget(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give the socket to another user (the admin package fakes the owner check instead)")
	}
	e := newStEnv(t)
	e.seed(stCheck("T1", "U1", "mine", stT0, factcheck.Supported))
	sock := admin.SocketPath(e.path)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	var heard []string
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		heard = append(heard, r.URL.Path)
		w.Write([]byte(`{}`))
	})}
	go srv.Serve(ln)
	defer srv.Close()
	if err := os.Lchown(sock, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "copy.db")
	for _, args := range [][]string{{"backup", dst}, {"forget", "--user", "U1", "--tenant", "T1"}, {"prune", "--older-than", "1d"}} {
		stdout, stderr, code := e.run(args...)
		if code == exitOK || !strings.Contains(stderr, sock) || !strings.Contains(stderr, "not trusted") {
			t.Errorf("%s: code %d, stdout %q, stderr %q; want an error naming %s", args[0], code, stdout, stderr, sock)
		}
		if strings.Contains(stdout, "Backed up") || strings.Contains(stdout, "othing") {
			t.Errorf("%s printed %q", args[0], stdout)
		}
	}
	if len(heard) != 0 {
		t.Errorf("the foreign socket heard %v", heard)
	}
	if _, err := os.Stat(dst); err == nil {
		t.Error("a backup file was made")
	}
}
