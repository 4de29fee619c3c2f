package crawl

import (
	"cmp"
	"math"
	"slices"
)

// A plan is what a best-first night keeps of the last complete one, so
// that on an unchanged wiki the graph holds still (DESIGN.md, "Memory"):
// the last night's vertices, except those displaced by known pages
// expected to be better, and a share of the night left for exploring.
// Memory admits the planned pages first (each at planBoost plus its
// value), exploration takes the rest of max_pages.
//
// Which pages stay: every candidate (a last-night vertex, or a known
// relevant page one of them links to) has a value: a relevant page 2 plus
// its relevance; a bridge or hub (a page linking to relevant candidates)
// 1 plus a share that grows with those links; any other page its
// relevance, below 1. Candidates are kept best first, each with the path
// that reaches it from a seed through kept pages (a breadth-first tree
// over the last night's links), while they fit. A relevant vertex of the
// last night comes before every page that was not one (it stays while it
// stays relevant and reachable), and at equal value a vertex comes
// first: only a better page displaces one. So nothing that holds the
// topic's pages together is dropped for being judged not relevant, and
// the pages an exploration found not relevant are the first to go.
//
// How much is explored: when the last night judged pages beyond its
// graph (judgeBeyond), those it found relevant are candidates already,
// so the night explores the minimum and the pages entering by the plan
// displace at most the rest of ExploreShare of max_pages: a night
// replaces no more than new_share of its graph (a graph short of
// max_pages takes what fits besides). Otherwise exploring has to earn
// its share (explore): a minimum, plus more the more of the last
// night's explored pages were relevant (a first night explored all its
// pages), at most ExploreShare of max_pages and no more than there are
// pages to displace: more while exploring finds relevant pages, little
// once the topic's reachable pages are known.
type plan struct {
	keep    map[string]float64 // key -> value
	explore int                // pages left for exploring
}

// minExploreShare is the share of max_pages explored even when the last
// exploration found nothing: the wiki may have grown a relevant page.
const minExploreShare = 0.02

// planBoost puts planned pages above every strategy weight (in [0,1]) and
// above memory's other priorities.
const planBoost = 3

// makePlan returns the plan of a night whose memory is known, or nil
// when memory holds no last night's vertices (a first night, or a state
// from before plans); beyond says the nights judge pages beyond their
// graphs.
func makePlan(known map[string]Known, seeds []string, maxPages int, share, threshold float64, beyond bool) *plan {
	vertices := 0
	explored, found := 0, 0 // the last night's exploration: pages, relevant ones
	for _, kn := range known {
		if kn.Vertex && !kn.Gone {
			vertices++
		}
		if kn.Vertex && kn.Explored {
			explored++
			if kn.Relevance >= threshold {
				found++
			}
		}
	}
	if vertices == 0 {
		return nil
	}
	parent := tree(known, seeds)
	value := values(known, parent, threshold)
	p := &plan{keep: map[string]float64{}}
	entering := maxPages // pages not vertices last night the plan may take
	if beyond {
		most, least := shares(maxPages, share)
		stay := 0 // last night's vertices among the candidates
		for k := range value {
			if known[k].Vertex {
				stay++
			}
		}
		// The room the last graph leaves free, and most-least displaced.
		p.explore, entering = least, max(0, maxPages-least-stay)+most-least
	} else {
		p.explore = explore(value, maxPages, share, explored, found)
	}
	rank := func(k string) float64 {
		if known[k].Vertex && value[k] >= 2 {
			return value[k] + 1 // a relevant vertex before any newcomer
		}
		return value[k]
	}
	order := make([]string, 0, len(value))
	for k := range value {
		order = append(order, k)
	}
	slices.SortFunc(order, func(a, b string) int { // at equal value, last night's vertex stays
		return cmp.Or(cmp.Compare(rank(b), rank(a)), compareBool(known[b].Vertex, known[a].Vertex), cmp.Compare(a, b))
	})
	room := maxPages - p.explore
	for _, s := range seeds { // seeds are vertices whatever their value
		if _, ok := p.keep[s]; !ok && len(p.keep) < room {
			p.keep[s] = 3
		}
	}
	for _, k := range order {
		var path []string
		enter := 0
		for a := k; a != ""; a = parent[a] {
			if _, ok := p.keep[a]; ok {
				break
			}
			path = append(path, a)
			if !known[a].Vertex {
				enter++
			}
		}
		if len(p.keep)+len(path) > room || enter > entering {
			continue
		}
		entering -= enter
		for _, a := range path {
			p.keep[a] = value[a]
		}
	}
	return p
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// explore returns how many pages a night explores: minExploreShare of
// maxPages, plus twice the last exploration's hit rate times share of
// maxPages, at most share of maxPages, and no more than the pages there
// are to displace (candidates neither relevant nor bridges) beyond the
// minimum.
func explore(value map[string]float64, maxPages int, share float64, explored, found int) int {
	most, least := shares(maxPages, share)
	displaceable := 0
	for _, v := range value {
		if v < 1 {
			displaceable++
		}
	}
	rate := 0.0
	if explored > 0 {
		rate = float64(found) / float64(explored)
	}
	e := least + int(math.Round(2*rate*float64(most)))
	return min(e, most, least+displaceable)
}

// shares returns the most a night explores (share of maxPages) and the
// least (minExploreShare of it, at least 1 and at most the most).
func shares(maxPages int, share float64) (most, least int) {
	most = int(math.Round(share * float64(maxPages)))
	return most, min(most, max(1, int(math.Round(minExploreShare*float64(maxPages)))))
}

// tree returns, for each candidate reachable from a seed through the last
// night's links, the page it is reached from ("" for a seed): a
// breadth-first tree, links taken in document order.
func tree(known map[string]Known, seeds []string) map[string]string {
	parent := map[string]string{}
	var queue []string
	for _, s := range seeds {
		if _, ok := parent[s]; !ok {
			parent[s] = ""
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range known[u].Out {
			if _, ok := parent[v]; !ok {
				parent[v] = u
				if known[v].Vertex { // a relevant page beyond the last graph is a leaf
					queue = append(queue, v)
				}
			}
		}
	}
	return parent
}

// values returns the value of every reachable candidate (the plan's
// doc comment says how it is made).
func values(known map[string]Known, parent map[string]string, threshold float64) map[string]float64 {
	v := make(map[string]float64, len(parent))
	for k := range parent {
		kn, ok := known[k]
		if !ok || kn.Gone || kn.Alias {
			continue // a seed not fetched before, a page gone, an article's other title
		}
		switch {
		case kn.Relevance >= threshold:
			v[k] = 2 + kn.Relevance
		default:
			n := 0
			for _, t := range kn.Out {
				if _, reach := parent[t]; reach && known[t].Relevance >= threshold {
					n++
				}
			}
			if n > 0 {
				v[k] = 1 + float64(n)/float64(n+4)
			} else {
				v[k] = kn.Relevance
			}
		}
	}
	return v
}
