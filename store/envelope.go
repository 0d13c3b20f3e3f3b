package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// oldestRecordVersion is the oldest envelope version whose payload decodes
// as the current one: version 3 added the word index, not a record format,
// so version 2 records are read as they are rather than rewritten.
const oldestRecordVersion = 2

// maxRecordBytes bounds a record, before it is packed and once it is
// unpacked. It is far above any record the store writes (a page is read
// to at most 2 MiB), and it keeps a damaged compressed record from making
// the store allocate what its header claims: 49 bytes may claim gigabytes.
const maxRecordBytes = 256 << 20

// encode wraps v in the versioned envelope {"v":4,"data":…}, packed.
func encode(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(data) > maxRecordBytes {
		return nil, fmt.Errorf("store: a record of %d bytes, over the limit of %d", len(data), maxRecordBytes)
	}
	return pack(fmt.Appendf(make([]byte, 0, len(data)+16), `{"v":%d,"data":%s}`, recordVersion, data)), nil
}

// Records of more than packAbove bytes (checks with their traces, cached
// verdicts, pages) are stored compressed with zstd, which a JSON envelope
// never starts like (layout 4; older records are read as they are).
const packAbove = 1024

var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// zenc and zdec are built on first use, not when any command starts.
var (
	zenc = sync.OnceValue(func() *zstd.Encoder {
		e, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault))
		return e
	})
	zdec = sync.OnceValue(func() *zstd.Decoder {
		d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxRecordBytes+64)) // 64: the envelope around the record
		return d
	})
)

// pack compresses an encoded record when it is large.
func pack(b []byte) []byte {
	if len(b) <= packAbove {
		return b
	}
	return zenc().EncodeAll(b, make([]byte, 0, len(b)/3))
}

// unpack undoes pack.
func unpack(b []byte) ([]byte, error) {
	if !bytes.HasPrefix(b, zstdMagic) {
		return b, nil
	}
	out, err := zdec().DecodeAll(b, nil)
	if err != nil {
		return nil, fmt.Errorf("store: compressed record: %w", err)
	}
	return out, nil
}

// envelope is the versioned wrapper of every record.
type envelope struct {
	V    int             `json:"v"`
	Data json.RawMessage `json:"data"`
}

// openEnvelope returns the version and payload of an envelope.
func openEnvelope(b []byte) (int, []byte, error) {
	b, err := unpack(b)
	if err != nil {
		return 0, nil, err
	}
	const prefix = `{"v":`
	const mid = `,"data":`
	// Fast path for what encode writes.
	if len(b) > len(prefix)+len(mid)+2 && string(b[:len(prefix)]) == prefix && b[len(b)-1] == '}' {
		i := len(prefix)
		v := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			v = v*10 + int(b[i]-'0')
			i++
		}
		if i+len(mid) <= len(b) && string(b[i:i+len(mid)]) == mid {
			return v, b[i+len(mid) : len(b)-1], nil
		}
	}
	var e envelope
	if err := json.Unmarshal(b, &e); err != nil || e.V == 0 {
		return 0, nil, fmt.Errorf("store: record is not a versioned envelope")
	}
	return e.V, e.Data, nil
}

// decode unpacks an envelope of a version between oldestRecordVersion and
// recordVersion into v.
func decode(b []byte, v any) error {
	ver, data, err := openEnvelope(b)
	if err != nil {
		return err
	}
	if ver < oldestRecordVersion || ver > recordVersion {
		return fmt.Errorf("store: record of schema version %d, want %d to %d", ver, oldestRecordVersion, recordVersion)
	}
	return json.Unmarshal(data, v)
}
