package rank

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The radix sort orders as the comparison sort does, ties and zeros of
// either sign included, at sizes around every pass.
func TestRadixOrderMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 40 {
		n := radixMin + r.IntN(3*radixMin)
		score := make([]float64, n)
		distinct := 1 + r.IntN(n)
		pool := make([]float64, distinct)
		for i := range pool {
			switch r.IntN(6) {
			case 0:
				pool[i] = 0
			case 1:
				pool[i] = math.Copysign(0, -1)
			case 2:
				pool[i] = -r.ExpFloat64()
			case 3:
				pool[i] = math.Inf(1 - 2*r.IntN(2))
			default:
				pool[i] = r.Float64() * math.Pow(10, float64(r.IntN(40)-20))
			}
		}
		for v := range score {
			score[v] = pool[r.IntN(distinct)]
		}
		want := make([]uint32, n)
		for i := range want {
			want[i] = uint32(i)
		}
		sortRanked(score, want)
		if got := radixOrder(score); !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d scores, %d distinct): radix order differs from the comparison sort", trial, n, distinct)
		}
	}
}
