package revisit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// rateMix is the edit-rate mix of ../shared/tools/wikimirror's -dynamic
// mode (its dynamic.go): share of pages, chance of an edit per night.
var rateMix = []struct{ share, rate float64 }{{0.02, 0.5}, {0.08, 0.2}, {0.2, 0.05}, {0.7, 0.01}}

// drawRates draws each page's chance of an edit a night from the mix.
func drawRates(rng *rand.Rand, pages int) []float64 {
	rates := make([]float64, pages)
	for i := range rates {
		u, acc := rng.Float64(), 0.0
		rates[i] = rateMix[len(rateMix)-1].rate
		for _, c := range rateMix {
			if acc += c.share; u < acc {
				rates[i] = c.rate
				break
			}
		}
	}
	return rates
}

// simulate records nights of pages editing at the mix's rates, as
// revisit: all runs would see them. The server's record starts `before`
// nights before the first crawl (the mirror's -epoch, or a real wiki's
// history): Last-Modified dates reach back that far.
func simulate(seed uint64, pages, nights, before int) []Night {
	rng := rand.New(rand.NewPCG(seed, 1))
	rates := drawRates(rng, pages)
	edits := make([]int, pages)
	last := make([]int, pages) // day of the last edit, as Last-Modified gives it (0: the record's start)
	for day := 1; day <= before; day++ {
		for i := range pages {
			if rng.Float64() < rates[i] {
				edits[i], last[i] = edits[i]+1, day
			}
		}
	}
	out := make([]Night, nights)
	for n := range out {
		for i := range pages {
			changed := rng.Float64() < rates[i] // night 0 is the mirror's epoch before+1
			if changed {
				edits[i], last[i] = edits[i]+1, before+n+1
			}
			out[n] = append(out[n], Snapshot{Key: fmt.Sprintf("/wiki/P%d", i), Hash: fmt.Sprint(edits[i]),
				Relevance: float64(i%7) / 7, StructureChanged: changed && edits[i]%3 == 0, Modified: float64(17570 + last[i])})
		}
	}
	return out
}

// TestReplayPolicies replays simulated nights of the mirror's rate mix,
// 1,000 pages, a budget of a fifth: the policies that use change history
// catch far more of the next night's changes than oldest-first, freshness
// more than dynamicity over three seeds, and revisit: all catches
// everything.
func TestReplayPolicies(t *testing.T) {
	budget := func(n int) int { return n / 5 }
	var fresh, oldest, recallF, recallD float64 // summed over seeds
	for _, seed := range []uint64{1, 2, 3} {
		nights := simulate(seed, 1000, 10, 0)
		score := map[Policy]NightScore{}
		for _, p := range []Policy{All, Oldest, Dynamicity, Adaptive, Freshness} {
			sc, err := Replay(nights, p, budget, DefaultNewShare)
			if err != nil {
				t.Fatal(err)
			}
			if len(sc.Nights) != 9 {
				t.Fatalf("%s: %d nights scored, want 9", p, len(sc.Nights))
			}
			score[p] = sc.Mean
			t.Logf("seed %d %-10s change recall %.3f backlog %.3f freshness %.3f age %.3f", seed, p,
				sc.Mean.ChangeRecall, sc.Mean.BacklogRecall, sc.Mean.Freshness, sc.Mean.MeanAge)
		}
		if a := score[All]; a.ChangeRecall != 1 || a.Freshness != 1 || a.MeanAge != 0 || a.Fetched != 1000 {
			t.Errorf("seed %d: all: %+v", seed, a)
		}
		if o := score[Oldest]; o.Fetched != 200 || math.Abs(o.BacklogRecall-0.27) > 0.05 {
			t.Errorf("seed %d: oldest: %+v", seed, o)
		}
		if d, o := score[Dynamicity].ChangeRecall, score[Oldest].ChangeRecall; d < 0.35 || d < 2*o {
			t.Errorf("seed %d: dynamicity catches %.3f of next-night changes, oldest-first %.3f", seed, d, o)
		}
		f, o, d := score[Freshness], score[Oldest], score[Dynamicity]
		if f.ChangeRecall < 2*o.ChangeRecall || f.BacklogRecall <= max(o.BacklogRecall, d.BacklogRecall) || f.Freshness < o.Freshness-0.001 {
			t.Errorf("seed %d: freshness %+v, oldest-first %+v, dynamicity %+v", seed, f, o, d)
		}
		fresh, oldest = fresh+f.Freshness, oldest+o.Freshness
		recallF, recallD = recallF+f.ChangeRecall, recallD+d.ChangeRecall
	}
	if recallF <= recallD {
		t.Errorf("freshness catches %.3f of next-night changes over three seeds, dynamicity %.3f", recallF/3, recallD/3)
	}
	// On one seed of three, freshness and oldest-first keep as many
	// copies fresh; over all three, freshness keeps more.
	if fresh <= oldest {
		t.Errorf("freshness keeps %.3f of copies fresh over three seeds, oldest-first %.3f", fresh/3, oldest/3)
	}
}

// TestReplayHundredthNight replays sixty nights of the mirror's mix, on
// a server whose record starts with the first crawl and on one whose
// pages carry ten nights of dates before it (as a real wiki's carry
// years): freshness keeps more copies fresh than oldest-first, on the
// mean and over the last thirty nights, and catches over half of the
// next-night changes. Ordering by the
// allocation's frequency times staleness (the policy's earlier order)
// starved the slow pages and fell below oldest-first here.
func TestReplayHundredthNight(t *testing.T) {
	if testing.Short() {
		t.Skip("sixty nights")
	}
	budget := func(n int) int { return n / 5 }
	for _, before := range []int{0, 10} {
		nights := simulate(1, 1000, 60, before)
		f, err := Replay(nights, Freshness, budget, DefaultNewShare)
		if err != nil {
			t.Fatal(err)
		}
		o, _ := Replay(nights, Oldest, budget, DefaultNewShare)
		late := func(sc Score) float64 { return mean(sc.Nights[30:]).Freshness }
		t.Logf("record %d nights before: freshness recall %.3f, freshness %.3f (nights 31-59 %.3f); oldest-first %.3f (%.3f)",
			before, f.Mean.ChangeRecall, f.Mean.Freshness, late(f), o.Mean.Freshness, late(o))
		if f.Mean.ChangeRecall < 0.55 || f.Mean.Freshness <= o.Mean.Freshness || late(f) <= late(o) {
			t.Errorf("record %d nights before: freshness %+v, oldest-first %+v", before, f.Mean, o.Mean)
		}
	}
}

// TestReplayHandChecked replays two pages over three nights by hand.
func TestReplayHandChecked(t *testing.T) {
	n := func(a, b string) Night { return Night{{Key: "a", Hash: a}, {Key: "b", Hash: b}} }
	nights := []Night{n("a0", "b0"), n("a1", "b0"), n("a1", "b1"), n("a2", "b1")}
	sc, err := Replay(nights, Oldest, func(int) int { return 1 }, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Night 1: a changed; oldest-first (tie: a first) fetches a: recall 1.
	// Night 2: b changed, a current; fetches b (older): recall 1, fresh 1.
	// Night 3: a changed since night 2, but a's copy was current: fetches
	// a (older than b): recall 1.
	for i, want := range []NightScore{
		{Night: 1, Fetched: 1, ChangeRecall: 1, BacklogRecall: 1, Freshness: 1},
		{Night: 2, Fetched: 1, ChangeRecall: 1, BacklogRecall: 1, Freshness: 1},
		{Night: 3, Fetched: 1, ChangeRecall: 1, BacklogRecall: 1, Freshness: 1},
	} {
		if sc.Nights[i] != want {
			t.Errorf("night %d: %+v, want %+v", i+1, sc.Nights[i], want)
		}
	}
	// With nothing fetched (budget 1, all of it kept for new pages that
	// never come... no: new pages take only what exists), a budget of one
	// page against two changes each night leaves one behind.
	nights = []Night{n("a0", "b0"), n("a1", "b1"), n("a2", "b2")}
	sc, _ = Replay(nights, Oldest, func(int) int { return 1 }, 0)
	// Night 1: both changed; a fetched. recall 1/2, freshness 1/2, age: b
	// out of date since night 1: 1 night over 2 pages.
	// Night 2: a's copy current and changed, b's stale; fetches b (older).
	// recall 0/1 (a not fetched), backlog 1/2, freshness 1/2 (b), age: a
	// out of date since night 2: 0.5.
	want := []NightScore{
		{Night: 1, Fetched: 1, ChangeRecall: 0.5, BacklogRecall: 0.5, Freshness: 0.5, MeanAge: 0.5},
		{Night: 2, Fetched: 1, ChangeRecall: 0, BacklogRecall: 0.5, Freshness: 0.5, MeanAge: 0.5},
	}
	for i := range want {
		if sc.Nights[i] != want[i] {
			t.Errorf("changing nights, night %d: %+v, want %+v", i+1, sc.Nights[i], want[i])
		}
	}
	if _, err := Replay(nights[:1], Oldest, func(int) int { return 1 }, 0); err == nil {
		t.Error("one night replayed")
	}
}
