package vecquant

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQuantize(t *testing.T) {
	tests := []struct {
		name string
		v    []float32
		want []int8
	}{
		{"empty", nil, []int8{}},
		{"zero", []float32{0, 0}, []int8{0, 0}},
		{"scaled to the largest", []float32{0.6, -1, 0.25, 0.07}, []int8{4, -7, 2, 0}},
		{"rounded", []float32{14, 3, -3.1, 1}, []int8{7, 2, -2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Quantize(tt.v)); diff != "" {
				t.Errorf("Quantize(%v) (-want +got):\n%s", tt.v, diff)
			}
		})
	}
}

func TestPacked(t *testing.T) {
	tests := []struct {
		name   string
		q      []int8
		packed []byte
	}{
		{"empty", []int8{}, nil},
		{"odd length", []int8{-7}, []byte{0x01}},
		{"pairs, first low", []int8{-7, 7, 0, 1}, []byte{0xf1, 0x98}},
		{"odd, last alone", []int8{3, -1, 2}, []byte{0x7b, 0x0a}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := AppendPacked(nil, tt.q)
			if diff := cmp.Diff(tt.packed, p); diff != "" {
				t.Errorf("AppendPacked(%v) (-want +got):\n%s", tt.q, diff)
			}
			if len(p) != PackedLen(len(tt.q)) {
				t.Errorf("len %d, PackedLen %d", len(p), PackedLen(len(tt.q)))
			}
			if diff := cmp.Diff(tt.q, Unpack(p, len(tt.q))); diff != "" {
				t.Errorf("Unpack (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSigns(t *testing.T) {
	q := make([]int8, 130)
	q[0], q[1], q[63], q[64], q[129] = 1, -1, 7, 0, 2
	want := []uint64{1 | 1<<63, 0, 1 << 1}
	if diff := cmp.Diff(want, Signs(q)); diff != "" {
		t.Errorf("Signs (-want +got):\n%s", diff)
	}
	tests := []struct {
		a, b []uint64
		want int
	}{
		{[]uint64{0}, []uint64{0}, 0},
		{[]uint64{0b1011, 1}, []uint64{0b0001, 0}, 3},
		{[]uint64{math.MaxUint64}, []uint64{0}, 64},
	}
	for _, tt := range tests {
		if got := Hamming(tt.a, tt.b); got != tt.want {
			t.Errorf("Hamming(%b, %b) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCosine(t *testing.T) {
	tests := []struct {
		name string
		a, b []int8
		want float64
	}{
		{"same", []int8{3, 4}, []int8{3, 4}, 1},
		{"opposite", []int8{3, 4}, []int8{-3, -4}, -1},
		{"orthogonal", []int8{7, 0}, []int8{0, -7}, 0},
		{"3-4-5", []int8{3, 4}, []int8{5, 0}, 0.6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Cosine(tt.a, tt.b, Norm(tt.a), Norm(tt.b)); math.Abs(got-tt.want) > 1e-6 {
				t.Errorf("Cosine = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCosineClose: the cosine of quantized random vectors of 128
// components is on average within 0.02 of the exact one, and never more
// than 0.05 from it.
func TestCosineClose(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 500
	var sum float64
	for range n {
		a, b := make([]float32, 128), make([]float32, 128)
		for i := range a {
			a[i] = float32(r.NormFloat64())
			b[i] = a[i] + float32(r.NormFloat64())
		}
		qa, qb := Quantize(a), Quantize(b)
		got, want := Cosine(qa, qb, Norm(qa), Norm(qb)), exact(a, b)
		if math.Abs(got-want) > 0.05 {
			t.Errorf("cosine %v, exact %v", got, want)
		}
		sum += math.Abs(got - want)
	}
	if sum/n > 0.02 {
		t.Errorf("mean error %v, want at most 0.02", sum/n)
	}
}

func exact(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}
