package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"
)

// bVectors holds the vectors of a check's claims (claim matching,
// earlier.go): tenants/<tenant>/vectors/<id> → the encoding below, beside
// what the visibility rule reads of the check, so that the tenant's index
// is built from this bucket alone.
var bVectors = []byte("vectors")

// vectorVersion is the first byte of a vectors record.
const vectorVersion = 1

// A vectors record, little endian:
//
//	version (1) · created (8, unix nanoseconds) · private (1) ·
//	visibility, user, channel, model (each a uvarint length and its bytes) ·
//	dim (uvarint) · count (uvarint) ·
//	count × { claim index (uvarint) · scale (float32) · dim × int8 }
//
// A vector is kept as int8: each component is round(x / scale) with scale
// = max |x| / 127, about a quarter of float32's bytes (256 bytes a claim
// at the default dimension) for a cosine within about 0.01 of the exact
// one.

// claimVector is one claim's quantised vector.
type claimVector struct {
	claim int
	scale float32
	q     []int8
}

// vectorRecord is a vectors record decoded.
type vectorRecord struct {
	created    time.Time
	private    bool
	visibility Visibility
	user       string
	channel    string
	model      string
	dim        int
	claims     []claimVector
}

// quantize returns v as int8 with its scale.
func quantize(v []float32) (float32, []int8) {
	var m float32
	for _, x := range v {
		m = max(m, float32(math.Abs(float64(x))))
	}
	q := make([]int8, len(v))
	if m == 0 {
		return 0, q
	}
	scale := m / 127
	for i, x := range v {
		q[i] = int8(math.Round(float64(x / scale)))
	}
	return scale, q
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
			r = &vectorRecord{created: c.CreatedAt, private: c.Private, visibility: c.Visibility, user: c.User, channel: c.Channel,
				model: v.Embedding.Model, dim: len(v.Embedding.Vector)}
		}
		if v.Embedding.Model != r.model || len(v.Embedding.Vector) != r.dim {
			continue
		}
		s, q := quantize(v.Embedding.Vector)
		r.claims = append(r.claims, claimVector{claim: i, scale: s, q: q})
	}
	return r
}

func (r *vectorRecord) encode() []byte {
	b := make([]byte, 0, 64+len(r.user)+len(r.channel)+len(r.model)+len(r.claims)*(r.dim+8))
	b = append(b, vectorVersion)
	b = binary.LittleEndian.AppendUint64(b, uint64(r.created.UnixNano()))
	b = append(b, boolByte(r.private))
	for _, s := range []string{string(r.visibility), r.user, r.channel, r.model} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(r.dim))
	b = binary.AppendUvarint(b, uint64(len(r.claims)))
	for _, c := range r.claims {
		b = binary.AppendUvarint(b, uint64(c.claim))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(c.scale))
		for _, x := range c.q {
			b = append(b, byte(x))
		}
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

var errVectorRecord = errors.New("bad vectors record")

// decodeVectors reads a vectors record.
func decodeVectors(b []byte) (*vectorRecord, error) {
	if len(b) < 10 || b[0] != vectorVersion {
		return nil, errVectorRecord
	}
	r := &vectorRecord{created: time.Unix(0, int64(binary.LittleEndian.Uint64(b[1:9]))).UTC(), private: b[9] == 1}
	b = b[10:]
	uvarint := func() (int, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > uint64(len(b))+1<<16 {
			return 0, false
		}
		b = b[n:]
		return int(v), true
	}
	var strs [4]string
	for i := range strs {
		n, ok := uvarint()
		if !ok || n > len(b) {
			return nil, errVectorRecord
		}
		strs[i], b = string(b[:n]), b[n:]
	}
	r.visibility, r.user, r.channel, r.model = Visibility(strs[0]), strs[1], strs[2], strs[3]
	dim, ok1 := uvarint()
	count, ok2 := uvarint()
	if !ok1 || !ok2 || dim == 0 {
		return nil, errVectorRecord
	}
	r.dim = dim
	for range count {
		claim, ok := uvarint()
		if !ok || len(b) < 4+dim {
			return nil, errVectorRecord
		}
		c := claimVector{claim: claim, scale: math.Float32frombits(binary.LittleEndian.Uint32(b)), q: make([]int8, dim)}
		for i := range dim {
			c.q[i] = int8(b[4+i])
		}
		b = b[4+dim:]
		r.claims = append(r.claims, c)
	}
	return r, nil
}

// putVectors writes the vectors record of c (in tenant bucket tb), as
// putCheck saves the check. A check without embeddings (one read back and
// saved again: they are not in its JSON) keeps the record it has.
func putVectors(tb *tenantTx, c *Check) error {
	r := checkVectors(c)
	if r == nil {
		return nil
	}
	if err := sub(tb, bVectors).Put([]byte(c.ID), r.encode()); err != nil {
		return fmt.Errorf("vectors: %w", err)
	}
	return nil
}
