package store

import "context"

// UserTenants lists every tenant that has records, the reserved web
// tenant aside, for operators' views across tenants.
func (db *DB) UserTenants(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return db.userTenants(ctx)
}
