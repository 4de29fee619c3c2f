package crawl

import "net/http"

// FetchState says what happened to a page in this run: the one fact every
// count of a run (manifest, runs.parquet, metrics, progress, report) is
// made of.
type FetchState string

// The fetch states. A page is usable (its text judged, its links taken)
// in the first four.
const (
	Fetched     FetchState = "fetched"      // a usable answer read in this run
	NotModified FetchState = "not_modified" // 304 to a conditional request: the stored copy
	Carried     FetchState = "carried"      // a budgeted re-crawl kept the stored copy unvisited
	Replayed    FetchState = "replayed"     // taken from an interrupted run's state, not requested again
	Failed      FetchState = "failed"       // no usable answer; Page.Class says why
	NotFetched  FetchState = "not_fetched"  // discovered, never requested (cut short, or out of budget)
)

// FetchStates are the states in the order tables and reports list them.
var FetchStates = []FetchState{Fetched, NotModified, Carried, Replayed, Failed, NotFetched}

// Usable reports whether a page in state s has a document this run read
// or kept: its text was judged, its links taken.
func (s FetchState) Usable() bool {
	return s == Fetched || s == NotModified || s == Carried || s == Replayed
}

// state is the fetch state of a page fetched (or not) as f says.
func (f fetched) state() FetchState {
	switch {
	case f.resp.Class == ClassBudget, f.resp.Class == ClassCancelled && f.resp.Attempts == 0 && !f.replayed:
		return NotFetched
	case f.resp.Err != nil:
		return Failed
	case f.carried:
		return Carried
	case f.replayed:
		return Replayed
	case f.resp.Status == http.StatusNotModified:
		return NotModified
	}
	return Fetched
}

// Tally counts pages by fetch state. Every count a run reports is a
// Tally of its vertices, so no two of them can disagree.
type Tally struct {
	Fetched     int `json:"fetched"`
	NotModified int `json:"not_modified"`
	Carried     int `json:"carried"`
	Replayed    int `json:"replayed"`
	Failed      int `json:"failed"`
	NotFetched  int `json:"not_fetched"`
	// FailedByClass splits Failed by error class.
	FailedByClass map[string]int `json:"failed_by_class"`
	// Relevant usable pages reached the relevance threshold.
	Relevant int `json:"relevant"`
}

// CountPages tallies pages.
func CountPages(pages []Page) Tally {
	var t Tally
	for i := range pages {
		t.Add(&pages[i], 1)
	}
	return t
}

// Add counts page p (sign 1) or takes it back (sign -1).
func (t *Tally) Add(p *Page, sign int) {
	switch p.State {
	case Fetched:
		t.Fetched += sign
	case NotModified:
		t.NotModified += sign
	case Carried:
		t.Carried += sign
	case Replayed:
		t.Replayed += sign
	case Failed:
		t.Failed += sign
		if t.FailedByClass == nil {
			t.FailedByClass = map[string]int{}
		}
		if t.FailedByClass[p.Class] += sign; t.FailedByClass[p.Class] == 0 {
			delete(t.FailedByClass, p.Class)
		}
	default:
		t.NotFetched += sign
	}
	if p.Relevant {
		t.Relevant += sign
	}
}

// Judged is the pages whose text was judged this run: the usable ones,
// read now or kept from the state. The harvest rate divides by it.
func (t Tally) Judged() int { return t.Fetched + t.NotModified + t.Carried + t.Replayed }

// Harvest is the share of judged pages that are relevant.
func (t Tally) Harvest() float64 {
	if t.Judged() == 0 {
		return 0
	}
	return float64(t.Relevant) / float64(t.Judged())
}

// Of returns the count of state s.
func (t Tally) Of(s FetchState) int {
	switch s {
	case Fetched:
		return t.Fetched
	case NotModified:
		return t.NotModified
	case Carried:
		return t.Carried
	case Replayed:
		return t.Replayed
	case Failed:
		return t.Failed
	}
	return t.NotFetched
}
