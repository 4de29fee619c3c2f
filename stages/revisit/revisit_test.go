package revisit

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// visit replays a page that changes as a Poisson process of rate lambda,
// checked at the given ticks, into a History.
func visit(rng *rand.Rand, lambda float64, ticks []int) History {
	h := New("/wiki/P", ticks[0], 0.5)
	for k := 1; k < len(ticks); k++ {
		gap := float64(ticks[k] - ticks[k-1])
		changed := rng.Float64() < -math.Expm1(-lambda*gap)
		h.Observe(ticks[k], changed, false, 0.5)
	}
	return h
}

func TestRateRegularClosedForm(t *testing.T) {
	// Checked every tick, n checks, X changes: Cho and Garcia-Molina's
	// -ln((n-X+0.5)/(n+0.5)), by hand for n = 10.
	for _, x := range []int{0, 1, 5, 10} {
		h := History{Visits: 11, Unchanged: 10 - x}
		if x > 0 {
			h.Changed = Intervals{1: x}
		}
		want := -math.Log((10 - float64(x) + 0.5) / 10.5)
		if got := h.Rate(); math.Abs(got-want) > 1e-9 {
			t.Errorf("X=%d: rate %v, want %v", x, got, want)
		}
	}
	// Every 3 ticks: the same, over 3.
	h := History{Visits: 5, Unchanged: 3, Changed: Intervals{3: 3}}
	if got, want := h.Rate(), -math.Log(1.5/4.5)/3; math.Abs(got-want) > 1e-9 {
		t.Errorf("interval 3: rate %v, want %v", got, want)
	}
	if r := (&History{Visits: 1}).Rate(); !math.IsNaN(r) {
		t.Errorf("one visit: rate %v, want NaN", r)
	}
}

// TestRateKnownPages checks the estimator on pages whose true rate is
// known, visited at irregular times: its mean is within 10% of the truth
// where the naive changes/time is far below it.
func TestRateKnownPages(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, lambda := range []float64{0.05, 0.2, 0.7} {
		var sum, naive float64
		const pages = 4000
		for range pages {
			ticks := []int{0}
			for len(ticks) < 40 {
				ticks = append(ticks, ticks[len(ticks)-1]+1+rng.IntN(3))
			}
			h := visit(rng, lambda, ticks)
			sum += h.Rate()
			naive += float64(h.Textual) / float64(ticks[len(ticks)-1])
		}
		mean := sum / pages
		if math.Abs(mean-lambda)/lambda > 0.1 {
			t.Errorf("rate %v: estimator's mean %v", lambda, mean)
		}
		if lambda == 0.7 && naive/pages > 0.7*lambda {
			t.Errorf("rate %v: naive estimate %v is not biased: the test checks nothing", lambda, naive/pages)
		}
	}
}

func TestObserve(t *testing.T) {
	h := New("/wiki/A", 0, 0.3)
	h.Observe(1, true, true, 0.4)
	h.Observe(1, true, false, 0.4) // same tick again: a resumed run
	h.Observe(3, false, false, 0.5)
	h.Observe(4, true, false, 0.5)
	if h.Visits != 4 || h.Textual != 2 || h.Structural != 1 || h.LastVisit != 4 || h.LastChange != 4 ||
		h.Unchanged != 2 || !maps.Equal(h.Changed, Intervals{1: 2}) || h.Relevance != 0.5 {
		t.Fatalf("history %+v", h)
	}
	// Intervals: 1 -> 0.8, bounded at 1 (changed) -> 1.4 (not) -> 1.12.
	if want := 1.4 * 0.8; math.Abs(h.Interval-want) > 1e-12 {
		t.Errorf("interval %v, want %v", h.Interval, want)
	}
	b, err := h.Changed.MarshalText()
	var back Intervals
	if err != nil || back.UnmarshalText(b) != nil || !maps.Equal(back, h.Changed) {
		t.Errorf("intervals %s do not round-trip: %v", b, err)
	}
	if back.UnmarshalText([]byte(`[[0,1]]`)) == nil {
		t.Error("an interval of 0 ticks was accepted")
	}
}

func TestAdaptiveInterval(t *testing.T) {
	iv := 0.0
	for range 3 {
		iv = nextInterval(iv, false)
	}
	if want := 1.4 * 1.4 * 1.4; math.Abs(iv-want) > 1e-12 {
		t.Errorf("three unchanged visits: %v, want %v", iv, want)
	}
	if iv = nextInterval(iv, true); math.Abs(iv-0.8*1.4*1.4*1.4) > 1e-12 {
		t.Errorf("then a change: %v", iv)
	}
	for range 100 {
		iv = nextInterval(iv, false)
	}
	if iv != MaxInterval {
		t.Errorf("bounded above at %v, got %v", MaxInterval, iv)
	}
	// Due pages only, by the tick they fell due; ties in given order.
	pages := []History{
		{Key: "a", LastVisit: 8, Interval: 1},   // due at 9
		{Key: "b", LastVisit: 5, Interval: 6},   // due at 11: not yet
		{Key: "c", LastVisit: 2, Interval: 5},   // due at 7
		{Key: "d", LastVisit: 9, Interval: 0},   // due at 10
		{Key: "e", LastVisit: 7, Interval: 2.5}, // due at 9.5
	}
	if got := keys(pages, Plan(Adaptive, pages, 10, 10)); !slices.Equal(got, []string{"c", "a", "e", "d"}) {
		t.Errorf("adaptive plan %v", got)
	}
}

func keys(pages []History, cs []Choice) []string {
	var out []string
	for _, c := range cs {
		out = append(out, pages[c.Index].Key)
	}
	return out
}

// TestDynamicityFrontiers checks the dissertation's two frontiers by hand:
// pages with registered changes first, by relevance + change count; then
// the rest by similarity, a page already visited more often waiting.
func TestDynamicityFrontiers(t *testing.T) {
	pages := []History{
		{Key: "static-low", Relevance: 0.1, Visits: 2},
		{Key: "dyn-1-high", Relevance: 0.9, Visits: 3, Textual: 1},                // IC 1.9
		{Key: "dyn-2-low", Relevance: 0.0, Visits: 3, Textual: 2},                 // IC 2.0
		{Key: "dyn-struct", Relevance: 0.2, Visits: 3, Textual: 1, Structural: 1}, // IC 2.2
		{Key: "static-high", Relevance: 0.8, Visits: 2},
		{Key: "static-swept", Relevance: 0.95, Visits: 3}, // visited this sweep already
		{Key: "static-mid", Relevance: 0.5, Visits: 2},
	}
	plan := Plan(Dynamicity, pages, 5, 100)
	want := []string{"dyn-struct", "dyn-2-low", "dyn-1-high", "static-high", "static-mid", "static-low", "static-swept"}
	if got := keys(pages, plan); !slices.Equal(got, want) {
		t.Fatalf("plan %v\nwant %v", got, want)
	}
	for i, c := range plan {
		if r := map[bool]string{true: ReasonDynamic, false: ReasonStatic}[i < 3]; c.Reason != r {
			t.Errorf("%s: reason %q, want %q", pages[c.Index].Key, c.Reason, r)
		}
	}
	if got := keys(pages, Plan(Dynamicity, pages, 5, 2)); !slices.Equal(got, want[:2]) {
		t.Errorf("budget 2: %v", got)
	}
	if got := Plan(Oldest, pages, 5, 0); got != nil {
		t.Errorf("budget 0: %v", got)
	}
}

func TestAllocate(t *testing.T) {
	rates := []float64{0.01, 0.05, 0.2, 0.7, 5, 40}
	f := Allocate(rates, 1.5)
	sum := 0.0
	for i, x := range f {
		if x < 0 || x > 1 {
			t.Errorf("rate %v: frequency %v", rates[i], x)
		}
		sum += x
	}
	if math.Abs(sum-1.5) > 1e-6 {
		t.Errorf("frequencies sum to %v, want 1.5", sum)
	}
	if f[5] != 0 {
		t.Errorf("a page changing 40 times a tick got %v: too fast to keep fresh, it should get nothing", f[5])
	}
	// Optimality: the marginal gain is equal among pages given visits
	// strictly between 0 and 1.
	var mu []float64
	for i, x := range f {
		if x > 1e-9 && x < 1-1e-9 {
			mu = append(mu, g(rates[i]/x)/rates[i])
		}
	}
	for _, m := range mu[1:] {
		if math.Abs(m-mu[0])/mu[0] > 1e-4 {
			t.Errorf("marginal gains differ: %v", mu)
		}
	}
	if f := Allocate(rates, 10); slices.Min(f) != 1 {
		t.Errorf("budget above the pages: %v", f)
	}
}

// TestFitLearnsTheMix checks that the fitted prior ranks a page seen
// changing above pages seen unchanged, and an unseen page in between.
func TestFitLearnsTheMix(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	var pages []History
	for i := range 500 {
		lambda := 0.01
		if i%10 == 0 {
			lambda = 0.7
		}
		pages = append(pages, visit(rng, lambda, []int{0, 1, 2, 3}))
	}
	pages = append(pages, New("/wiki/unseen", 3, 0))
	p := Fit(pages, nil)
	hot, cold := 0.0, 0.0
	for i := range 500 {
		if i%10 == 0 {
			hot += p.Rate(i) / 50
		} else {
			cold += p.Rate(i) / 450
		}
	}
	unseen := p.Rate(500)
	if !(hot > 5*cold && cold < unseen && unseen < hot) {
		t.Errorf("mean posterior rates: hot pages %v, cold %v, unseen %v", hot, cold, unseen)
	}
	if s1, s4 := p.Stale(500, 1), p.Stale(500, 4); !(s1 > 0 && s4 > s1 && s4 < 1) {
		t.Errorf("staleness of the unseen page: %v after 1 tick, %v after 4", s1, s4)
	}
}

func TestParsePolicy(t *testing.T) {
	if _, err := ParsePolicy("oldest", false); err == nil {
		t.Error("oldest accepted in jobs.yaml")
	}
	if p, err := ParsePolicy("oldest", true); err != nil || p != Oldest {
		t.Errorf("oldest for evaluation: %v %v", p, err)
	}
	if _, err := ParsePolicy("fresh", false); err == nil {
		t.Error("fresh accepted")
	}
}

// TestFitReadsLastModified checks the last-modified evidence: seen once,
// a page edited the day before the visit is judged faster-changing than
// one last edited long before, and the oldest date of all (where the
// server's record starts) is not taken for an edit.
func TestFitReadsLastModified(t *testing.T) {
	clock := NewServerClock(map[int]float64{0: 20000, 1: 20001})
	if clock == nil || clock.DaysPerTick != 1 {
		t.Fatalf("clock %+v", clock)
	}
	page := func(key string, modified float64) History {
		h := New(key, 1, 0)
		h.SawModified(1, modified)
		return h
	}
	pages := []History{page("floor", 19000), page("old", 19900), page("fresh", 20000.5)}
	for range 30 { // a population to fit the prior to
		pages = append(pages, page("p", 19950))
	}
	p := Fit(pages, clock)
	floor, old, fresh := p.Rate(0), p.Rate(1), p.Rate(2)
	if !(fresh > 5*old && floor < old) {
		t.Errorf("posterior rates: fresh %v, old %v, floor %v", fresh, old, floor)
	}
	if c := NewServerClock(map[int]float64{3: 20000}); c == nil || c.DaysPerTick != 1 {
		t.Errorf("a clock from one tick: %+v, want a day a tick", c)
	}
	if NewServerClock(map[int]float64{1: 20000, 2: 19999}) != nil || NewServerClock(nil) != nil {
		t.Error("a clock going backwards, or of no ticks")
	}
}

// A change is a new revision where both visits read one, else a new
// content hash; a 304 is none.
func TestChanged(t *testing.T) {
	for _, c := range []struct {
		oldHash, newHash string
		oldRev, newRev   int64
		want             bool
	}{
		{"a", "b", 7, 8, true},  // an edit
		{"a", "b", 7, 7, false}, // a re-render
		{"a", "a", 7, 8, true},  // a new revision, the same bytes (a null edit's re-save)
		{"a", "b", 0, 8, true},  // the stored copy named no revision: the hash decides
		{"a", "a", 7, 0, false}, // the page names none now
		{"a", "", 7, 0, false},  // a 304
		{"a", "", 0, 0, false},
	} {
		if got := Changed(c.oldHash, c.newHash, c.oldRev, c.newRev); got != c.want {
			t.Errorf("Changed(%q, %q, %d, %d) = %v, want %v", c.oldHash, c.newHash, c.oldRev, c.newRev, got, c.want)
		}
	}
}
