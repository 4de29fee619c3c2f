package revisit

import (
	"fmt"
	"math"
)

// Snapshot is one page as a recorded night (a revisit: all run) saw it.
type Snapshot struct {
	Key       string
	Hash      string  // content hash: equal hashes, same page
	Revision  int64   // the page's revision id (0: not known)
	Relevance float64 // as judged that night
	// StructureChanged says the page's elements differ from the night
	// before's.
	StructureChanged bool
	// Modified is the page's Last-Modified date, in days since the Unix
	// epoch (0: none given).
	Modified float64
}

// Night is every page of one recorded run, in vertex order.
type Night []Snapshot

// NightScore is how a policy did on one replayed night.
type NightScore struct {
	Night   int // 1 for the second recorded night: the first is the full crawl replays start from
	Fetched int // revisits and new pages together
	// ChangeRecall: of the pages whose stored copy was current after the
	// night before and that have changed since, the share refetched.
	// BacklogRecall: of all pages whose stored copy was out of date, the
	// share refetched. NaN when there was nothing to catch.
	ChangeRecall, BacklogRecall float64
	// Freshness is the share of pages whose stored copy equals the live
	// one after the night; MeanAge the mean, in nights, of how long each
	// page's stored copy has been out of date (0 for a fresh one: Cho and
	// Garcia-Molina's age).
	Freshness, MeanAge float64
}

// Score is a policy's replay: one score per night after the first, and
// their means (of the nights where each is defined).
type Score struct {
	Policy Policy
	Nights []NightScore
	Mean   NightScore
}

// Replay replays recorded nights under policy: night 0 is crawled whole;
// each later night may fetch budget pages (budget(n) of night n's pages,
// at least 1), new pages first from a share newShare of it, the rest
// revisiting known pages in the order the policy gives. Only what the
// replayed crawler fetched is known to the policy, exactly as in a live
// budgeted run.
func Replay(nights []Night, policy Policy, budget func(pages int) int, newShare float64) (Score, error) {
	if len(nights) < 2 {
		return Score{}, fmt.Errorf("revisit: replaying needs at least 2 recorded nights, have %d", len(nights))
	}
	r := replayer{index: map[string]int{}, nights: make([]map[string]Snapshot, len(nights)), server: map[int]float64{}}
	for m, night := range nights {
		r.nights[m] = make(map[string]Snapshot, len(night))
		for _, s := range night {
			r.nights[m][s.Key] = s
			r.server[m] = max(r.server[m], s.Modified)
		}
	}
	for _, s := range nights[0] {
		r.learn(s, 0)
	}
	sc := Score{Policy: policy}
	for n := 1; n < len(nights); n++ {
		sc.Nights = append(sc.Nights, r.night(nights, n, policy, budget(len(nights[n])), newShare))
	}
	sc.Mean = mean(sc.Nights)
	return sc, nil
}

// replayer is the replayed crawler's state: what it has stored of each
// page it knows, in the order it first saw them.
type replayer struct {
	index   map[string]int
	hist    []History
	stored  []string // hash of the stored copy
	rev     []int64  // its revision id
	storedN []int    // night the stored copy was fetched
	nights  []map[string]Snapshot
	server  map[int]float64 // the newest Last-Modified date of each night
}

func (r *replayer) learn(s Snapshot, n int) {
	r.index[s.Key] = len(r.hist)
	h := New(s.Key, n, s.Relevance)
	if s.Modified > 0 {
		h.SawModified(n, s.Modified)
	}
	r.hist = append(r.hist, h)
	r.stored = append(r.stored, s.Hash)
	r.rev = append(r.rev, s.Revision)
	r.storedN = append(r.storedN, n)
}

func (r *replayer) night(nights []Night, n int, policy Policy, budget int, newShare float64) NightScore {
	now := r.nights[n]
	prev := func(key string) string { return r.nights[n-1][key].Hash }
	// The pages known before tonight and alive tonight are judged; a
	// policy plans over every page it knows that is still in the graph.
	var known []int
	for i, h := range r.hist {
		if _, ok := now[h.Key]; ok {
			known = append(known, i)
		}
	}
	cands := make([]History, len(known))
	for k, i := range known {
		cands[k] = r.hist[i]
	}
	budget = max(budget, 1)
	fresh := 0 // pages never fetched: they take up to newShare of the budget first
	for _, s := range nights[n] {
		if _, ok := r.index[s.Key]; !ok {
			fresh++
		}
	}
	slots := budget - min(fresh, int(math.Ceil(newShare*float64(budget))))
	if policy == All {
		slots = len(known)
	}
	clock := make(map[int]float64, n) // the server's clock as known before tonight
	for m := range n {
		clock[m] = r.server[m]
	}
	refetched := map[int]bool{}
	for _, c := range PlanWith(policy, cands, n, slots, NewServerClock(clock)) {
		refetched[known[c.Index]] = true
	}
	var ns NightScore
	ns.Night = n
	var catch, caught, stale, staleCaught int
	for _, i := range known {
		live := now[r.hist[i].Key].Hash
		current := r.stored[i] == prev(r.hist[i].Key)
		if current && live != prev(r.hist[i].Key) {
			catch++
			if refetched[i] {
				caught++
			}
		}
		if r.stored[i] != live {
			stale++
			if refetched[i] {
				staleCaught++
			}
		}
	}
	for i := range refetched {
		s := now[r.hist[i].Key]
		structural := false
		for m := r.storedN[i] + 1; m <= n; m++ {
			structural = structural || r.nights[m][s.Key].StructureChanged
		}
		changed := Changed(r.stored[i], s.Hash, r.rev[i], s.Revision)
		r.hist[i].Observe(n, changed, changed && structural, s.Relevance)
		if s.Modified > 0 {
			r.hist[i].SawModified(n, s.Modified)
		}
		r.stored[i], r.rev[i], r.storedN[i] = s.Hash, s.Revision, n
	}
	ns.Fetched = len(refetched)
	for _, s := range nights[n] { // new pages, while the budget lasts
		if _, ok := r.index[s.Key]; !ok && (policy == All || ns.Fetched < budget) {
			r.learn(s, n)
			ns.Fetched++
		}
	}
	ns.ChangeRecall = ratio(caught, catch)
	ns.BacklogRecall = ratio(staleCaught, stale)
	current, age := 0, 0
	for _, i := range known {
		key := r.hist[i].Key
		if r.stored[i] == now[key].Hash {
			current++
			continue
		}
		for m := r.storedN[i] + 1; m <= n; m++ { // age: nights since the copy went out of date
			if r.nights[m][key].Hash != r.stored[i] {
				age += n - m + 1
				break
			}
		}
	}
	ns.Freshness = ratio(current, len(known))
	ns.MeanAge = float64(age) / float64(max(len(known), 1))
	return ns
}

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// mean averages each score over the nights where it is defined.
func mean(nights []NightScore) NightScore {
	var m NightScore
	avg := func(get func(NightScore) float64) float64 {
		s, n := 0.0, 0
		for _, ns := range nights {
			if v := get(ns); !math.IsNaN(v) {
				s, n = s+v, n+1
			}
		}
		if n == 0 {
			return math.NaN()
		}
		return s / float64(n)
	}
	m.ChangeRecall = avg(func(n NightScore) float64 { return n.ChangeRecall })
	m.BacklogRecall = avg(func(n NightScore) float64 { return n.BacklogRecall })
	m.Freshness = avg(func(n NightScore) float64 { return n.Freshness })
	m.MeanAge = avg(func(n NightScore) float64 { return n.MeanAge })
	m.Fetched = int(math.Round(avg(func(n NightScore) float64 { return float64(n.Fetched) })))
	return m
}
