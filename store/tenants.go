package store

import "context"

// UserTenants lists every tenant that has records, the reserved web
// tenant aside, for operators' views across tenants.
func (db *DB) UserTenants(ctx context.Context) ([]string, error) {
	var tenants []string
	err := db.run(ctx, ModeView, func(tx *txn) error {
		for _, k := range tx.Tenants() {
			if k != WebTenant {
				tenants = append(tenants, k)
			}
		}
		return nil
	})
	return tenants, err
}
