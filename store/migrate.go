package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// migrations[v] upgrades a tenant's records from schema version v to v+1.
var migrations = map[int]func(tb *tenantTx) error{
	1: migrate1to2,
	2: func(*tenantTx) error { return nil }, // the word index, which 5 to 6 builds again
	3: migrate3to4,
	4: migrate4to5,
	5: rebuildWords,
}

// migrate4to5 moves the pending index, on the native path, into the
// times of the pending requests (see pendingKeys).
func migrate4to5(tb *tenantTx) error {
	ex := tb.tx.nat
	if ex == nil {
		return nil
	}
	p := tb.Bucket(bPending)
	var keys [][]byte
	var times []time.Time
	c := p.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) > 8 {
			keys = append(keys, bytes.Clone(k[8:]))
			times = append(times, time.Unix(0, int64(binary.BigEndian.Uint64(k))))
		}
	}
	if err := ex.SetTimes(tb.Bucket(bRequests).b, keys, times); err != nil {
		return err
	}
	return tb.DeleteBucket(bPending)
}

// migrate3to4 compresses the large records (see pack): checks, cached
// verdicts and extractions, web cache entries and snapshots.
func migrate3to4(tb *tenantTx) error {
	for _, name := range [][]byte{bChecks, bVerdicts, bExtractions, bWebCache, bSnapshots} {
		b := tb.Bucket(name)
		var keys [][]byte
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(v) > packAbove && !bytes.HasPrefix(v, zstdMagic) {
				keys = append(keys, bytes.Clone(k))
			}
		}
		for _, k := range keys {
			if err := b.Put(k, pack(b.Get(k))); err != nil {
				return err
			}
		}
	}
	return nil
}

// migrate creates the root buckets of a new file or upgrades an old one, in
// the open transaction, so a crash mid-way leaves the old version intact.
func migrate(tx *txn) error {
	meta := global(tx, bMeta)
	fresh := len(tx.Tenants()) == 0
	var err error
	v := schemaVersion
	if s := meta.Get(kSchema); s != nil {
		if v, err = strconv.Atoi(string(s)); err != nil {
			return fmt.Errorf("bad schema version %q", s)
		}
	} else if !fresh {
		v = 1 // version 1 files may lack meta/schema
	}
	if v > schemaVersion {
		return fmt.Errorf("%w: schema version %d, this factbot reads up to %d", ErrNewerSchema, v, schemaVersion)
	}
	for ; v < schemaVersion; v++ {
		for _, t := range tx.Tenants() {
			if err := migrations[v](&tenantTx{tx, t}); err != nil {
				return fmt.Errorf("migrate schema %d to %d: tenant %s: %w", v, v+1, t, err)
			}
		}
	}
	if s := meta.Get(kSchema); string(s) != strconv.Itoa(schemaVersion) {
		return meta.Put(kSchema, []byte(strconv.Itoa(schemaVersion)))
	}
	return nil
}

// Schema version 1 (factbot before indexes): per tenant a "checks" bucket
// of bare JSON checks, a "requests" bucket of bare JSON requests (done or
// not: no state) and a "verdicts" bucket of bare JSON cached verdicts,
// keyed by the lower-cased, trimmed claim. No envelopes, no indexes, no
// pending index. Their fields are today's, under the same names.

// v1Request is a version 1 request.
type v1Request struct {
	Request
	Done bool `json:"done"`
}

func migrate1to2(tb *tenantTx) error {
	var checks []Check
	var reqs []v1Request
	var verdicts []CachedVerdict
	if err := errors.Join(readAll(tb, bChecks, &checks), readAll(tb, bRequests, &reqs), readAll(tb, bVerdicts, &verdicts)); err != nil {
		return err
	}
	for _, b := range [][]byte{bChecks, bRequests, bVerdicts} {
		if err := tb.DeleteBucket(b); err != nil {
			return err
		}
	}
	for _, r := range reqs {
		r.Tenant, r.State, r.UpdatedAt = tb.tenant, RequestPending, r.CreatedAt
		if r.Done {
			r.State = RequestDone
		}
		if err := putRequest(tb, nil, &r.Request); err != nil {
			return err
		}
	}
	for _, c := range checks {
		c.Tenant = tb.tenant
		// Version 1 did not record the request of a check; recover it
		// from the requests that name it.
		for _, r := range reqs {
			if r.CheckID == c.ID {
				c.RequestKey, c.Platform, c.Thread = r.Key, r.Platform, r.Thread
			}
		}
		if err := putCheck(tb, &c); err != nil {
			return err
		}
	}
	for _, v := range verdicts {
		if v.Verdict == nil {
			continue
		}
		if err := tb.Bucket(bVerdicts).putRecord(cacheKey(v.Verdict.Claim), &v); err != nil {
			return err
		}
	}
	return nil
}

// readAll decodes every bare JSON value of a version 1 bucket into *out.
func readAll[T any](tb *tenantTx, name []byte, out *[]T) error {
	return tb.Bucket(name).ForEach(func(k, v []byte) error {
		var x T
		if err := json.Unmarshal(v, &x); err != nil {
			return fmt.Errorf("%s/%s: %w", name, k, err)
		}
		*out = append(*out, x)
		return nil
	})
}
