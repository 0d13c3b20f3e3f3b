package postgres

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

// benchEmbedModel is the model of the fixture's vectors, of the default
// dimension.
const benchEmbedModel = "bench/128"

// benchTarget is a check of T1 halfway through the fixture, and the vector
// of one of its claims.
var (
	benchTarget       string
	benchTargetVector []float32
)

// unitVector is a random unit vector of 128 components.
func unitVector(rng *rand.Rand) []float32 {
	v := make([]float32, 128)
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

// BenchmarkEarlier is one claim's lookup among the vectors of the 100,000
// checks of T1, as a chat request asks it (a person in a channel, the
// public channels included): the tenant's vectors in memory, brought up
// to date from the database (one read of the newest), then the nearest
// claim's check read. Goal ≤ 20 ms.
func BenchmarkEarlier(b *testing.B) {
	db, _ := benchFixture(b)
	ctx := context.Background()
	e := db.Earlier("T1", &store.Audience{User: "U1", Channel: "C1", TenantWide: true})
	q := factcheck.EarlierQuery{Model: benchEmbedModel, Vector: benchTargetVector, Min: 0.85, Limit: 5}
	if _, err := e.Nearest(ctx, q); err != nil { // loads the tenant's vectors
		b.Fatal(err)
	}
	var lat []time.Duration
	for range b.N {
		t := time.Now()
		found, err := e.Nearest(ctx, q)
		lat = append(lat, time.Since(t))
		if err != nil || len(found) == 0 || found[0].CheckID != benchTarget {
			b.Fatalf("Nearest = %+v, %v; want %s", found, err, benchTarget)
		}
	}
	reportLatencies(b, lat)
}
