package store

// CheckInvariants exposes checkInvariants to the conformance test.
func CheckInvariants(db *DB) error { return db.checkInvariants() }
