package store

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
)

// benchDim is the dimension of the fixture's vectors: the default, 128,
// or FACTBOT_BENCH_DIM.
var benchDim = func() int {
	if n, err := strconv.Atoi(os.Getenv("FACTBOT_BENCH_DIM")); err == nil && n > 0 {
		return n
	}
	return 128
}()

// benchEmbedModel is the model of the fixture's vectors.
var benchEmbedModel = "bench/" + strconv.Itoa(benchDim)

// benchVector is a random unit vector of benchDim components.
func benchVector(rng *rand.Rand) []float32 {
	v := make([]float32, benchDim)
	var sum float64
	for i := range v {
		x := rng.NormFloat64()
		v[i] = float32(x)
		sum += x * x
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(sum))
	}
	return v
}

// near returns a unit vector at a cosine of about 0.95 to v.
func near(rng *rand.Rand, v []float32) []float32 {
	noise := benchVector(rng)
	out := make([]float32, len(v))
	var sum float64
	for i := range v {
		out[i] = v[i] + 0.33*noise[i]
		sum += float64(out[i]) * float64(out[i])
	}
	for i := range out {
		out[i] /= float32(math.Sqrt(sum))
	}
	return out
}

// BenchmarkEarlier is one claim's lookup among the vectors of the 100,000
// checks of tenant T1 (about 200,000 claims), as a chat request asks it (a
// person in a channel, the tenant's public channels included), every
// check within the window: the tenant's vectors in memory, brought up to
// date from the store, then the check of the nearest claim read. Goal
// ≤ 5 ms.
func BenchmarkEarlier(b *testing.B) {
	db, ids := benchFixture(b)
	rng := rand.New(rand.NewPCG(3, 4))
	target, err := db.Check(ctx, "T1", ids[len(ids)/2])
	if err != nil {
		b.Fatal(err)
	}
	// The stored vector is not in the check's JSON: read it back.
	tv := db.vectors.tenant("T1")
	e := db.Earlier("T1", &Audience{User: target.User, Channel: target.Channel, TenantWide: true})
	q := factcheck.EarlierQuery{Model: benchEmbedModel, Vector: make([]float32, benchDim), Min: 0.85, Limit: 5}
	if _, err := e.Nearest(ctx, q); err != nil { // loads the tenant's vectors
		b.Fatal(err)
	}
	for i, en := range tv.entries {
		if en.id == target.ID {
			for j, x := range tv.comps[i*benchDim : (i+1)*benchDim] {
				q.Vector[j] = float32(x)
			}
			break
		}
	}
	q.Vector = near(rng, factcheckUnit(q.Vector))
	for b.Loop() {
		found, err := e.Nearest(ctx, q)
		if err != nil || len(found) == 0 || found[0].CheckID != target.ID {
			b.Fatalf("Nearest = %+v, %v; want %s", found, err, target.ID)
		}
	}
	b.ReportMetric(float64(len(tv.entries)), "vectors")
}

// BenchmarkEarlierLoad is the first lookup of a tenant after a start: its
// 100,000 checks' vectors read into memory.
func BenchmarkEarlierLoad(b *testing.B) {
	db, _ := benchFixture(b)
	e := db.Earlier("T1", nil)
	q := factcheck.EarlierQuery{Model: benchEmbedModel, Vector: benchVector(rand.New(rand.NewPCG(5, 6))), Min: 0.85, Limit: 5}
	for b.Loop() {
		db.vectors.tenant("T1").markStale()
		if _, err := e.Nearest(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// factcheckUnit is v at length 1.
func factcheckUnit(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(sum))
	}
	return v
}
