package admin

// SetTrustedUser makes the client trust the users trusted says it may,
// instead of its own user and root, until the returned function is
// called.
func SetTrustedUser(trusted func(uid uint32) bool) (restore func()) {
	old := trustedUser
	trustedUser = trusted
	return func() { trustedUser = old }
}
