package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbot-dev/factbot/internal/pgmigrate"
	"github.com/factbot-dev/factbot/store"
)

// Schema 3 (migrations 1 to 3) kept a table per record kind, each record
// a JSONB column whose text had NUL characters and the escape character
// replaced by two characters of the Unicode private use area (esc+escNUL,
// esc+escEsc). upgradeLegacy reads those tables into the records table
// through store.Restore, then drops them, under the migration lock; a run
// stopped half way is run again in full.

const (
	esc    = "\uE000"
	escEsc = esc + "\uE001"
	escNUL = esc + "\uE002"
)

var (
	textUnescaper = strings.NewReplacer(escEsc, esc, escNUL, "\x00")
	jsonUnescaper = strings.NewReplacer(escEsc, esc, escNUL, `\u0000`)
)

var legacyTables = []string{"feedback", "checks", "requests", "cache", "webcache", "snapshots"}

func (db *DB) upgradeLegacy(ctx context.Context) error {
	var exists bool
	if err := db.pool.QueryRow(ctx, "SELECT to_regclass('public.checks') IS NOT NULL").Scan(&exists); err != nil || !exists {
		return err
	}
	return pgmigrate.Locked(ctx, db.pool, migrationLock, func(conn *pgx.Conn) error {
		if err := conn.QueryRow(ctx, "SELECT to_regclass('public.checks') IS NOT NULL").Scan(&exists); err != nil || !exists {
			return err // another replica did it meanwhile
		}
		tenants, err := collect(ctx, conn, `SELECT tenant FROM checks UNION SELECT tenant FROM requests UNION SELECT tenant FROM cache`, func(r pgx.CollectableRow) (string, error) {
			var t string
			err := r.Scan(&t)
			return textUnescaper.Replace(t), err
		})
		if err != nil {
			return err
		}
		for _, t := range tenants {
			rs, err := readLegacyTenant(ctx, conn, t)
			if err != nil {
				return fmt.Errorf("read the tables of schema 3, tenant %s: %w", t, err)
			}
			if err := db.Restore(ctx, t, rs); err != nil {
				return err
			}
		}
		web, err := collect(ctx, conn, `SELECT 'web', key, at_ns, val::text FROM webcache
UNION ALL SELECT 'snapshot', sha256, at_ns, val::text FROM snapshots`, legacyEntry)
		if err != nil {
			return err
		}
		if err := db.Restore(ctx, store.WebTenant, store.Records{Cache: web}); err != nil {
			return err
		}
		_, err = conn.Exec(ctx, "DROP TABLE "+strings.Join(legacyTables, ", "))
		return err
	})
}

// jsonRow scans a row of one JSONB record into a T.
func jsonRow[T any](r pgx.CollectableRow) (*T, error) {
	var s string
	if err := r.Scan(&s); err != nil {
		return nil, err
	}
	var v T
	return &v, json.Unmarshal([]byte(jsonUnescaper.Replace(s)), &v)
}

func collect[T any](ctx context.Context, c *pgx.Conn, sql string, fn pgx.RowToFunc[T], args ...any) ([]T, error) {
	rows, err := c.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, fn)
}

func readLegacyTenant(ctx context.Context, c *pgx.Conn, tenant string) (store.Records, error) {
	var rs store.Records
	var err error
	t := strings.NewReplacer(esc, escEsc, "\x00", escNUL).Replace(tenant)
	if rs.Requests, err = collect(ctx, c, "SELECT record::text FROM requests WHERE tenant = $1", jsonRow[store.Request], t); err != nil {
		return rs, err
	}
	if rs.Checks, err = collect(ctx, c, "SELECT record::text FROM checks WHERE tenant = $1 ORDER BY id", jsonRow[store.Check], t); err != nil {
		return rs, err
	}
	for _, ch := range rs.Checks {
		fb, err := collect(ctx, c, "SELECT record::text FROM feedback WHERE tenant = $1 AND check_id = $2 ORDER BY seq", jsonRow[store.Feedback], t, ch.ID)
		if err != nil {
			return rs, err
		}
		for _, f := range fb {
			ch.Feedback = append(ch.Feedback, *f)
		}
	}
	rs.Cache, err = collect(ctx, c, "SELECT kind, key, at_ns, record::text FROM cache WHERE tenant = $1", legacyEntry, t)
	return rs, err
}

func legacyEntry(r pgx.CollectableRow) (store.CacheEntry, error) {
	var e store.CacheEntry
	var at int64
	var key, val string
	if err := r.Scan(&e.Kind, &key, &at, &val); err != nil {
		return e, err
	}
	e.Key, e.At, e.Value = textUnescaper.Replace(key), time.Unix(0, at).UTC(), []byte(jsonUnescaper.Replace(val))
	return e, nil
}
