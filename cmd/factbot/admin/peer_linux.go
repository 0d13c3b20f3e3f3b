package admin

import (
	"cmp"
	"io/fs"
	"net"
	"syscall"
)

// peerUID returns the user of the process at the other end of c (the one
// that created the listening socket, for a client), from SO_PEERCRED.
func peerUID(c net.Conn) (uid uint32, err error) {
	raw, err := c.(*net.UnixConn).SyscallConn()
	if err != nil {
		return 0, err
	}
	cerr := raw.Control(func(fd uintptr) {
		var cred *syscall.Ucred
		if cred, err = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED); err == nil {
			uid = cred.Uid
		}
	})
	return uid, cmp.Or(cerr, err)
}

// fileOwner returns the user that owns the file.
func fileOwner(info fs.FileInfo) uint32 { return info.Sys().(*syscall.Stat_t).Uid }
