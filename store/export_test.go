package store

// CheckInvariants exposes checkInvariants to the conformance test.
func CheckInvariants(db *DB) error { return db.checkInvariants() }

// Native reports whether the store runs over its native path (driver.go),
// for the tests of the path New picks.
func (db *DB) Native() bool { return db.nat != nil }

// Driver returns the driver the store runs over, for the driver suite.
func (db *DB) Driver() Driver { return db.drv }
