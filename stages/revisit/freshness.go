package revisit

import (
	"math"
	"slices"
)

// freshness spends the budget where it buys the most expected freshness,
// from each page's estimated rate of change. Which pages deserve visits at
// all is Cho and Garcia-Molina's optimal refresh allocation ("Effective
// page refresh policies for Web crawlers", ACM TODS 2003): a page changing
// at rate λ and visited at frequency f is fresh a share F(λ,f) =
// (f/λ)(1-e^{-λ/f}) of the time; the frequencies that maximise ΣF under
// Σf = budget equalise the marginal gain ∂F/∂f = g(λ/f)/λ, with g(x) =
// 1-(1+x)e^{-x}, and give nothing to a page that changes too fast to keep
// fresh (λ·μ ≥ 1 for the multiplier μ). Among the pages it gives visits,
// a run fetches those most likely out of date now (the posterior
// probability of a change since the last visit): the freshness a visit
// tonight buys. Pages it gives no visits come last.
//
// Ordering by frequency times staleness caught more changes in the first
// ten nights, but it is a short-sighted choice: it keeps revisiting the
// fast pages and starves the slow ones, and over sixty simulated nights
// its freshness fell below oldest-first's, even given the true rates
// (docs/revisit.md has the figures; TestReplayHundredthNight).
func freshness(pages []History, now, budget int, clock *ServerClock) []Choice {
	post := Fit(pages, clock)
	rates := make([]float64, len(pages))
	for i := range rates {
		rates[i] = post.Rate(i)
	}
	f := Allocate(rates, float64(budget))
	prio := make([]float64, len(pages))
	idx := make([]int, len(pages))
	for i := range pages {
		idx[i] = i
		if prio[i] = -1; f[i] > 0 {
			prio[i] = post.Stale(i, now-pages[i].LastVisit)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return desc(prio[a], prio[b]) })
	out := make([]Choice, len(idx))
	for i, j := range idx {
		out[i] = Choice{j, ReasonRate}
	}
	return out
}

// grid are the rates (per tick) of the prior: log-spaced from a change
// in 1,000 runs to about two a run.
var grid = func() []float64 {
	var g []float64
	for r := 0.001; r < 2.5; r *= 1.6 {
		g = append(g, r)
	}
	return g
}()

// Posterior is what the pages' visits say of their rates: a prior over
// grid fitted to every page at once (nonparametric empirical Bayes, by
// EM), and each page's posterior under it. A page's likelihood is exact
// for checks at known times: Π over changed intervals t of (1-e^{-λt}),
// times e^{-λ·(ticks it was seen unchanged)}. Rates of change are
// heavy-tailed (most pages rarely change, a few most nights); the fitted
// prior learns that shape from all pages, so one change seen in a short
// interval lifts a page far above those seen unchanged, and a page never
// seen twice takes the mix of all.
type Posterior struct {
	Prior []float64   // weight of each grid rate
	post  [][]float64 // per page
}

// ServerClock places ticks on the server's clock, read off the pages'
// Last-Modified dates: Now[t] is the newest date any page gave at tick t
// (the server's time then, as near as its pages tell) and DaysPerTick the
// clock's mean advance per tick. Against a server whose dates are its own
// (an archive, a mirror), this is the only clock they can be read by.
type ServerClock struct {
	Now         map[int]float64 // days since the Unix epoch, by tick
	DaysPerTick float64
	floor       float64 // the oldest date of the pages being fitted
}

// NewServerClock returns the clock of the newest dates by tick, or nil
// when there are none or it went backwards. Until two ticks tell how fast
// it moves, it is taken to move a day a tick (a nightly job): on the first
// revisit every page is judged at the same tick, so the guess only scales
// all rates alike.
func NewServerClock(now map[int]float64) *ServerClock {
	if len(now) == 0 {
		return nil
	}
	first, last := math.MaxInt, math.MinInt
	for t := range now {
		first, last = min(first, t), max(last, t)
	}
	if last == first {
		return &ServerClock{Now: now, DaysPerTick: 1}
	}
	if !(now[last] > now[first]) {
		return nil
	}
	return &ServerClock{Now: now, DaysPerTick: (now[last] - now[first]) / float64(last-first)}
}

// Fit fits the prior to pages and returns their posteriors; with a
// server clock, pages with Last-Modified dates are judged by them.
func Fit(pages []History, clock *ServerClock) *Posterior {
	k := len(grid)
	if clock != nil { // the oldest date any page gave: the start of the record, not an edit
		clock.floor = math.Inf(1)
		for i := range pages {
			if len(pages[i].Eras) > 0 {
				clock.floor = min(clock.floor, pages[i].Eras[0].Modified)
			}
		}
	}
	lik := make([][]float64, len(pages))
	for i := range pages {
		lik[i] = likelihood(&pages[i], clock)
	}
	prior := make([]float64, k)
	for j := range prior {
		prior[j] = 1 / float64(k)
	}
	post := make([][]float64, len(pages))
	for i := range post {
		post[i] = make([]float64, k)
	}
	for range 50 {
		next := make([]float64, k)
		for i := range pages {
			s := 0.0
			for j := range k {
				post[i][j] = prior[j] * lik[i][j]
				s += post[i][j]
			}
			for j := range k {
				post[i][j] /= s
				next[j] += post[i][j]
			}
		}
		for j := range next {
			prior[j] = (next[j] + 1e-3) / (float64(len(pages)) + 1e-3*float64(k))
		}
	}
	return &Posterior{Prior: prior, post: post}
}

// likelihood returns a page's likelihood at each grid rate, scaled so
// that its largest is 1: Π over changed intervals t of (1-e^{-λt}), times
// e^{-λ·(ticks seen unchanged)}. With a Last-Modified date at the first
// visit (and a clock to read it by), the time from that date to the
// visit is time without a change too: what a single visit already tells
// of a page (Cho and Garcia-Molina's last-modified evidence).
func likelihood(h *History, clock *ServerClock) []float64 {
	events, quiet := -1.0, float64(h.Unchanged) // events < 0: judged by the intervals
	if clock != nil && len(h.Eras) > 0 {
		events, quiet = 0, 0
		if h.Eras[0].Modified <= clock.floor {
			events = -1 // the oldest date of all: where the server's record starts, not an edit
		}
		dated := false
		for _, e := range h.Eras {
			if now, ok := clock.Now[e.Tick]; ok {
				events++
				quiet += max(now-e.Modified, 0) / clock.DaysPerTick
				dated = true
			}
		}
		if !dated {
			events, quiet = -1, float64(h.Unchanged)
		}
	}
	l := make([]float64, len(grid))
	top := math.Inf(-1)
	for j, r := range grid {
		ll := -r * quiet
		if events >= 0 {
			ll += events * math.Log(r) // Last-Modified dates: λ^X·e^{-λT}
		} else {
			for t, c := range h.Changed {
				ll += float64(c) * math.Log(-math.Expm1(-r*float64(t)))
			}
		}
		l[j] = ll
		top = max(top, ll)
	}
	for j := range l {
		l[j] = math.Exp(l[j] - top)
	}
	return l
}

// Rate is page i's posterior mean rate per tick.
func (p *Posterior) Rate(i int) float64 {
	s := 0.0
	for j, w := range p.post[i] {
		s += w * grid[j]
	}
	return s
}

// Stale is the posterior probability that page i changed in the last
// ticks ticks.
func (p *Posterior) Stale(i int, ticks int) float64 {
	s := 0.0
	for j, w := range p.post[i] {
		s += w * -math.Expm1(-grid[j]*float64(ticks))
	}
	return s
}

// Allocate returns the visit frequencies (per tick, each in [0,1]) that
// maximise the expected freshness of pages changing at rates, with their
// sum at most budget.
func Allocate(rates []float64, budget float64) []float64 {
	f := make([]float64, len(rates))
	if budget >= float64(len(rates)) {
		for i := range f {
			f[i] = 1
		}
		return f
	}
	sum := func(mu float64) float64 {
		s := 0.0
		for i, l := range rates {
			f[i] = frequency(l, mu)
			s += f[i]
		}
		return s
	}
	// μ: the sum falls as μ grows.
	_, hi := bisectLog(1e-12, 1e12, 1e-9, func(mu float64) bool { return sum(mu) > budget })
	sum(hi)
	return f
}

// frequency is the f ≤ 1 with ∂F/∂f = μ for a page of rate l.
func frequency(l, mu float64) float64 {
	if l <= 0 {
		return 0
	}
	target := mu * l // g(l/f) = μl, g rising from 0 to 1
	if target >= 1 {
		return 0
	}
	if g(l) >= target { // the optimum is at f ≥ 1: visit every tick
		return 1
	}
	lo, hi := l, 2*l // x = l/f > l since f < 1
	for g(hi) < target {
		hi *= 2
	}
	for range 100 {
		mid := (lo + hi) / 2
		if g(mid) < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return min(1, l/hi)
}

func g(x float64) float64 { return -math.Expm1(-x) - x*math.Exp(-x) }
