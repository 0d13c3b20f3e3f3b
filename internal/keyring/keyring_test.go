package keyring

import (
	"bytes"
	"errors"
	"testing"
)

// A value sealed under one key opens under a keyring that holds it as
// current or old, bound to its aad; a keyring without the key, or another
// aad, does not open it.
func TestSealOpen(t *testing.T) {
	k1, k2 := bytes.Repeat([]byte{1}, KeySize), bytes.Repeat([]byte{2}, KeySize)
	kr1, err := New(k1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := kr1.Seal([]byte("token"), []byte("slack\x00T1"))
	if err != nil || s.KeyID != KeyID(k1) || s.KeyID != kr1.CurrentID() {
		t.Fatalf("Seal: %+v, %v", s, err)
	}
	rotated, err := New(k2, k1)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := rotated.Open(s, []byte("slack\x00T1")); err != nil || string(got) != "token" {
		t.Errorf("Open with the old key held: %q, %v", got, err)
	}
	if _, err := rotated.Open(s, []byte("slack\x00T2")); err == nil {
		t.Error("a sealed value opened under another aad")
	}
	kr2, _ := New(k2)
	if _, err := kr2.Open(s, []byte("slack\x00T1")); !errors.Is(err, ErrNoKey) {
		t.Errorf("Open without the key: %v; want ErrNoKey", err)
	}
	if _, err := New([]byte("short")); err == nil {
		t.Error("New accepted a key of 5 bytes")
	}
}
