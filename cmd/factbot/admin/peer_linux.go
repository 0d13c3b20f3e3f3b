package admin

import (
	"io/fs"
	"net"
	"os"
	"syscall"
)

// credsChecked says that the owner of a socket file and the user of the
// process at the other end of a connection can be asked here.
const credsChecked = true

// peerUID returns the user of the process at the other end of c (the one
// that created the listening socket, for a client).
func peerUID(c net.Conn) (uint32, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 0, syscall.EINVAL
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, err
	}
	if cerr != nil {
		return 0, cerr
	}
	return cred.Uid, nil
}

// fileOwner returns the user that owns the file.
func fileOwner(info fs.FileInfo) (uint32, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Uid, true
}

// peerAllowed reports whether the process at the other end of c runs as
// this process's user (or root).
func peerAllowed(c net.Conn) bool {
	uid, err := peerUID(c)
	return err == nil && (uid == uint32(os.Getuid()) || uid == 0)
}
