package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/factbot-dev/factbot/internal/vecquant"
)

// bVectors holds the vectors of a check's claims (claim matching,
// earlier.go): tenants/<tenant>/vectors/<id> → the encoding below, beside
// what the visibility rule reads of the check, so that the tenant's index
// is built from this bucket alone.
var bVectors = []byte("vectors")

// vectorVersion is the first byte of a vectors record.
const vectorVersion = 1

// A vectors record:
//
//	version (1) · created (uvarint, unix seconds) ·
//	flags (1: 1 the answer was private, 2 made in a public channel) ·
//	user, channel (each a uvarint length and its bytes) ·
//	model (4, the FNV-1a hash of its name, little endian) ·
//	dim (uvarint) · count (uvarint) ·
//	count × { claim index (uvarint) · ⌈dim/2⌉ bytes: two components a
//	          byte, 4 bits each (internal/vecquant) }
//
// At the default 128 dimensions a claim takes 65 bytes.

// claimVector is one claim's quantised vector.
type claimVector struct {
	claim int
	q     []int8 // -7 to 7
}

// vectorRecord is a vectors record decoded.
type vectorRecord struct {
	created time.Time
	flags   uint8 // entryPrivate, entryPublic (made where the whole tenant reads)
	user    string
	channel string
	model   uint32 // modelHash of the model's name
	dim     int
	claims  []claimVector
}

// modelHash is what a vectors record keeps of the model's name.
func modelHash(model string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(model))
	return h.Sum32()
}

// checkVectors returns the vectors record of c, nil when none of its
// claims has an embedding. The claims embedded by another model than the
// first are left out (one check, one model).
func checkVectors(c *Check) *vectorRecord {
	if c.Report == nil {
		return nil
	}
	var r *vectorRecord
	for i, v := range c.Report.Claims {
		if v == nil || v.Embedding == nil || len(v.Embedding.Vector) == 0 {
			continue
		}
		if r == nil {
			r = &vectorRecord{created: c.CreatedAt, user: c.User, channel: c.Channel, model: modelHash(v.Embedding.Model), dim: len(v.Embedding.Vector)}
			if c.Private {
				r.flags |= entryPrivate
			}
			if c.Visibility == VisibilityPublic {
				r.flags |= entryPublic
			}
		}
		if modelHash(v.Embedding.Model) != r.model || len(v.Embedding.Vector) != r.dim {
			continue
		}
		r.claims = append(r.claims, claimVector{claim: i, q: vecquant.Quantize(v.Embedding.Vector)})
	}
	return r
}

func (r *vectorRecord) encode() []byte {
	b := make([]byte, 0, 32+len(r.user)+len(r.channel)+len(r.claims)*(r.dim/2+4))
	b = append(b, vectorVersion)
	b = binary.AppendUvarint(b, uint64(max(0, r.created.Unix())))
	b = append(b, r.flags)
	for _, s := range []string{r.user, r.channel} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.LittleEndian.AppendUint32(b, r.model)
	b = binary.AppendUvarint(b, uint64(r.dim))
	b = binary.AppendUvarint(b, uint64(len(r.claims)))
	for _, c := range r.claims {
		b = binary.AppendUvarint(b, uint64(c.claim))
		b = vecquant.AppendPacked(b, c.q)
	}
	return b
}

var errVectorRecord = errors.New("bad vectors record")

// decodeVectors reads a vectors record.
func decodeVectors(b []byte) (*vectorRecord, error) {
	if len(b) < 2 || b[0] != vectorVersion {
		return nil, errVectorRecord
	}
	in, ok := bytes.NewBuffer(b[1:]), true // ok: every field read so far was whole
	uvarint := func() int {
		v, err := binary.ReadUvarint(in)
		if ok = ok && err == nil && v <= 1<<31; !ok {
			return 0
		}
		return int(v)
	}
	next := func(n int) []byte {
		if ok = ok && n <= in.Len(); !ok {
			return nil
		}
		return in.Next(n)
	}
	rec := &vectorRecord{created: time.Unix(int64(uvarint()), 0).UTC()}
	if p := next(1); p != nil {
		rec.flags = p[0]
	}
	rec.user = string(next(uvarint()))
	rec.channel = string(next(uvarint()))
	if m := next(4); m != nil {
		rec.model = binary.LittleEndian.Uint32(m)
	}
	rec.dim = uvarint()
	for count := uvarint(); ok && len(rec.claims) < count; {
		c := claimVector{claim: uvarint()}
		if packed := next(vecquant.PackedLen(rec.dim)); ok {
			c.q = vecquant.Unpack(packed, rec.dim)
			rec.claims = append(rec.claims, c)
		}
	}
	if !ok || rec.dim == 0 {
		return nil, errVectorRecord
	}
	return rec, nil
}

// putVectors writes the vectors record of c (in tenant bucket tb), as
// putCheck saves the check. A check without embeddings (one read back and
// saved again: they are not in its JSON) keeps the record it has.
func putVectors(tb *tenantTx, c *Check) error {
	r := checkVectors(c)
	if r == nil {
		return nil
	}
	if err := tb.Bucket(bVectors).Put([]byte(c.ID), r.encode()); err != nil {
		return fmt.Errorf("vectors: %w", err)
	}
	return nil
}
