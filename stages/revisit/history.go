package revisit

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// History is what the crawl state knows of one page's changes. Ticks are
// the job's runs (see the package doc).
type History struct {
	Key string
	// Relevance is the page's last judged relevance, in [0,1].
	Relevance float64
	// Visits counts fetches that gave the page's content (a 304 included).
	Visits int
	// Textual counts visits that found the page changed (Changed: a new
	// revision where both visits read one, else a new content hash);
	// Structural those of them that found its elements changed.
	Textual, Structural int
	// Edits counts visits that found a new revision of the page (its
	// MediaWiki revision id changed): an edit, where a textual change may
	// also be a re-render (a template or module changed the HTML).
	Edits int `json:",omitempty"`
	// FirstSeen, LastVisit and LastChange are ticks; LastChange is -1
	// until a change is seen.
	FirstSeen, LastVisit, LastChange int
	// Interval is the adaptive policy's current revisit interval, in
	// ticks (0: not yet set, read as MinInterval).
	Interval float64
	// Unchanged is the total length, in ticks, of the intervals between
	// visits that found no change; Changed counts the intervals that did,
	// by length. Rate needs nothing else, and both stay small: Changed
	// has one entry per distinct interval length.
	Unchanged int
	Changed   Intervals
	// Eras are the distinct Last-Modified dates the page's answers gave,
	// oldest first, each with the last tick it was still the page's date:
	// each is an edit, and the server clock at that tick less the date is
	// time the page was seen not to change (Posterior's likelihood).
	Eras []Era `json:",omitempty"`
}

// Era is one Last-Modified date (days since the Unix epoch, the server's
// clock) and the last tick a visit found it.
type Era struct {
	Modified float64
	Tick     int
}

// MaxEras bounds the eras kept: the newest, which say most of the rate now.
const MaxEras = 64

// SawModified records that a visit at tick now found Last-Modified date
// modified (days since the Unix epoch).
func (h *History) SawModified(now int, modified float64) {
	if n := len(h.Eras); n > 0 && h.Eras[n-1].Modified == modified {
		h.Eras[n-1].Tick = max(h.Eras[n-1].Tick, now)
		return
	}
	h.Eras = append(h.Eras, Era{modified, now})
	if len(h.Eras) > MaxEras {
		h.Eras = h.Eras[len(h.Eras)-MaxEras:]
	}
}

// Intervals counts intervals between visits by their length in ticks.
type Intervals map[int]int

// Total returns the number of intervals and their summed length.
func (iv Intervals) Total() (n, length int) {
	for k, c := range iv {
		n += c
		length += k * c
	}
	return n, length
}

// MarshalText and UnmarshalText keep Intervals in the crawl state as
// JSON, keys in ascending order.
func (iv Intervals) MarshalText() ([]byte, error) {
	keys := make([]int, 0, len(iv))
	for k := range iv {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	pairs := make([][2]int, len(keys))
	for i, k := range keys {
		pairs[i] = [2]int{k, iv[k]}
	}
	return json.Marshal(pairs)
}

func (iv *Intervals) UnmarshalText(b []byte) error {
	var pairs [][2]int
	if err := json.Unmarshal(b, &pairs); err != nil {
		return err
	}
	*iv = Intervals{}
	for _, p := range pairs {
		if p[0] < 1 || p[1] < 1 {
			return fmt.Errorf("revisit: interval %d counted %d times", p[0], p[1])
		}
		(*iv)[p[0]] += p[1]
	}
	return nil
}

// New returns the history of a page first fetched at tick now.
func New(key string, now int, relevance float64) History {
	return History{Key: key, Relevance: relevance, Visits: 1, FirstSeen: now, LastVisit: now, LastChange: -1}
}

// Observe records a visit at tick now that found the page changed (its
// content, and structural if its elements too) or not, and moves the
// adaptive interval. A second visit in the same tick (a resumed run) only
// updates the counters it must.
func (h *History) Observe(now int, changed, structural bool, relevance float64) {
	h.Relevance = relevance
	gap := now - h.LastVisit
	if gap <= 0 {
		return // already visited this tick
	}
	h.Visits++
	h.LastVisit = now
	if changed {
		h.Textual++
		if structural {
			h.Structural++
		}
		h.LastChange = now
		if h.Changed == nil {
			h.Changed = Intervals{}
		}
		h.Changed[gap]++
	} else {
		h.Unchanged += gap
	}
	h.Interval = nextInterval(h.Interval, changed)
}

// Changed says whether a visit found the page changed, as histories count
// changes: where both the stored copy and the visit read the page's
// revision id, a new revision (an edit; a new hash under the same revision
// is a re-render, the parser cache or a template, which predicts no change
// of the page's own links: TestEditsPredictGraphChanges), else a new
// content hash. newHash "" is a 304: unchanged.
func Changed(oldHash, newHash string, oldRevision, newRevision int64) bool {
	if newHash == "" {
		return false
	}
	if oldRevision != 0 && newRevision != 0 {
		return newRevision != oldRevision
	}
	return newHash != oldHash
}

// Changes is the number of changes registered: textual and structural
// ones counted apart, as the dynamicity dissertation counts them.
func (h *History) Changes() int { return h.Textual + h.Structural }

// Rate estimates the page's rate of change per tick from its visits: the
// estimator of Cho and Garcia-Molina ("Estimating frequency of change",
// ACM TOIT 2003) for a page checked at known, irregular times, with the
// bias correction of their estimator for regular checks. It is the λ that
// solves
//
//	Σ over changed intervals t of t/(e^{λt}-1) = Σ unchanged t + ½·t̄
//
// (t̄ the mean interval). The left side is the maximum-likelihood
// equation's; the ½·t̄ is the correction: with every interval of length I
// it gives their λ = -ln((n-X+½)/(n+½))/I for X changes in n checks, which
// stays finite when every check found a change and is far less biased
// than the plain X/(nI) when pages change more often than they are
// checked. It is 0 when no change was seen, and NaN before any interval.
func (h *History) Rate() float64 {
	nc, lc := h.Changed.Total()
	nu := h.Visits - 1 - nc // unchanged intervals
	if nc+nu <= 0 {
		return math.NaN()
	}
	if nc == 0 {
		return 0
	}
	mean := float64(lc+h.Unchanged) / float64(nc+max(nu, 0))
	rhs := float64(h.Unchanged) + mean/2
	lhs := func(l float64) float64 {
		s := 0.0
		for t, c := range h.Changed {
			x := l * float64(t)
			s += float64(c) * float64(t) / math.Expm1(x)
		}
		return s
	}
	// lhs falls from +inf (λ→0) to 0 (λ→inf): bisect on a log scale.
	lo, hi := 1e-9, 1.0
	for lhs(hi) > rhs {
		hi *= 2
	}
	lo, hi = bisectLog(lo, hi, 1e-12, func(l float64) bool { return lhs(l) > rhs })
	return math.Sqrt(lo * hi)
}

// bisectLog narrows [lo, hi] on a log scale, to a ratio of 1+tol, around
// where below turns from true (at lo) to false (at hi).
func bisectLog(lo, hi, tol float64, below func(float64) bool) (float64, float64) {
	for range 200 {
		mid := math.Sqrt(lo * hi)
		if below(mid) {
			lo = mid
		} else {
			hi = mid
		}
		if hi/lo < 1+tol {
			break
		}
	}
	return lo, hi
}
