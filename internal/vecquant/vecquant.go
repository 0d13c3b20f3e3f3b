// Package vecquant keeps vectors small: each component in 4 bits, two a
// byte, and the sign bits of a vector for a quick first comparison. A
// component is kept as round(x / scale), from -7 to 7, with scale =
// max |x| / 7 (not kept: a cosine does not need it); the cosine of two
// vectors of 128 components so kept is on average within 0.02 of the exact
// one (TestCosineClose).
// The store keeps its claim vectors so (store/embed.go, store/earlier.go).
package vecquant

import (
	"math"
	"math/bits"
)

// Quantize returns v as 4-bit components (-7 to 7).
func Quantize(v []float32) []int8 {
	var m float32
	for _, x := range v {
		m = max(m, float32(math.Abs(float64(x))))
	}
	q := make([]int8, len(v))
	if m == 0 {
		return q
	}
	scale := m / 7
	for i, x := range v {
		q[i] = int8(max(-7, min(7, math.Round(float64(x/scale)))))
	}
	return q
}

// PackedLen is the length of dim components packed.
func PackedLen(dim int) int { return (dim + 1) / 2 }

// AppendPacked appends q to b, two components a byte (the first in the low
// 4 bits), each plus 8.
func AppendPacked(b []byte, q []int8) []byte {
	for i := 0; i < len(q); i += 2 {
		hi := byte(0)
		if i+1 < len(q) {
			hi = byte(q[i+1] + 8)
		}
		b = append(b, byte(q[i]+8)|hi<<4)
	}
	return b
}

// Unpack returns the dim components packed in p (PackedLen(dim) bytes).
func Unpack(p []byte, dim int) []int8 {
	q := make([]int8, dim)
	for i := range q {
		q[i] = int8(p[i/2]>>(4*(i%2))&0xf) - 8
	}
	return q
}

// Words is the number of words of dim sign bits.
func Words(dim int) int { return (dim + 63) / 64 }

// Signs are the signs of q's components, one bit each (1: positive).
func Signs(q []int8) []uint64 {
	out := make([]uint64, Words(len(q)))
	for i, x := range q {
		if x > 0 {
			out[i/64] |= 1 << (i % 64)
		}
	}
	return out
}

// Hamming is the number of sign bits that differ between a and b (of one
// length): one XOR and popcount per 64 components.
func Hamming(a, b []uint64) int {
	d := 0
	for i, s := range a {
		d += bits.OnesCount64(s ^ b[i])
	}
	return d
}

// Norm is the Euclidean length of q.
func Norm(q []int8) float32 {
	return float32(math.Sqrt(float64(dot(q, q))))
}

// Cosine is the cosine of a and b (of one length), whose norms are na and nb.
func Cosine(a, b []int8, na, nb float32) float64 {
	return float64(dot(a, b)) / float64(na*nb)
}

func dot(a, b []int8) int32 {
	var s int32
	b = b[:len(a)]
	for i, x := range a {
		s += int32(x) * int32(b[i])
	}
	return s
}
