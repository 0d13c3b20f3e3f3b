// Package keyring seals secrets with AES-256-GCM under its current key and
// opens them under any key it holds, found by the key id stored with each
// sealed value, so that keys can be rotated (the store's installations'
// tokens, store.Installations.Rekey).
package keyring

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
)

// KeySize is the length of an encryption key: AES-256.
const KeySize = 32

// ErrNoKey is wrapped when a sealed record names a key the keyring does
// not hold (FACTBOT_ENCRYPTION_KEY changed without
// FACTBOT_ENCRYPTION_KEY_OLD).
var ErrNoKey = errors.New("encryption key not held")

// Keyring holds the current key and older ones.
type Keyring struct {
	current *sealKey
	byID    map[string]*sealKey
}

type sealKey struct {
	id   string
	aead cipher.AEAD
}

// KeyID names a key without revealing it: the first 8 hex digits of a
// SHA-256 of it.
func KeyID(key []byte) string {
	h := sha256.Sum256(append([]byte("factbot key id\x00"), key...))
	return hex.EncodeToString(h[:4])
}

// New returns a keyring sealing with current and also opening with old
// (earlier keys, during a rotation).
func New(current []byte, old ...[]byte) (*Keyring, error) {
	kr := &Keyring{byID: map[string]*sealKey{}}
	for i, k := range append([][]byte{current}, old...) {
		if len(k) != KeySize {
			return nil, fmt.Errorf("encryption key: %d bytes, want %d", len(k), KeySize)
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, fmt.Errorf("encryption key: %w", err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("encryption key: %w", err)
		}
		sk := &sealKey{id: KeyID(k), aead: aead}
		if i == 0 {
			kr.current = sk
		}
		if _, dup := kr.byID[sk.id]; !dup {
			kr.byID[sk.id] = sk
		}
	}
	return kr, nil
}

// CurrentID is the id of the key new records are sealed with.
func (kr *Keyring) CurrentID() string { return kr.current.id }

// Sealed is a value encrypted at rest: the key's id, the nonce and the
// ciphertext (with its tag).
type Sealed struct {
	KeyID string `json:"key_id"`
	Nonce []byte `json:"nonce"`
	Data  []byte `json:"data"`
}

// Seal encrypts plain under the current key, bound to aad (say, the
// record's key, so that a sealed value cannot be moved to another record).
func (kr *Keyring) Seal(plain, aad []byte) (Sealed, error) {
	k := kr.current
	nonce := make([]byte, k.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return Sealed{}, err
	}
	return Sealed{KeyID: k.id, Nonce: nonce, Data: k.aead.Seal(nil, nonce, plain, aad)}, nil
}

// Open decrypts s, sealed bound to aad, with the key it names.
func (kr *Keyring) Open(s Sealed, aad []byte) ([]byte, error) {
	k, ok := kr.byID[s.KeyID]
	if !ok {
		return nil, fmt.Errorf("%w: sealed with key %s; set FACTBOT_ENCRYPTION_KEY_OLD to it and run factbot rotate-key", ErrNoKey, s.KeyID)
	}
	if len(s.Nonce) != k.aead.NonceSize() {
		return nil, errors.New("sealed value: bad nonce")
	}
	plain, err := k.aead.Open(nil, s.Nonce, s.Data, aad)
	if err != nil {
		return nil, fmt.Errorf("sealed value with key %s does not open (tampered, or another key with the same id): %w", s.KeyID, err)
	}
	return plain, nil
}
