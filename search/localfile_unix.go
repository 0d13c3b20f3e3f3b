//go:build unix

package search

import (
	"io/fs"
	"os"
	"syscall"
)

const (
	oNonblock = syscall.O_NONBLOCK
	oNofollow = syscall.O_NOFOLLOW
)

// ownedByMe reports whether the file belongs to this process's user.
func ownedByMe(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
