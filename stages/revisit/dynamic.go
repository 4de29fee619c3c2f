package revisit

import "slices"

// dynamicity is the method of "Using Web Pages Dynamicity to Prioritise
// Web Crawling": two frontiers. The dynamic frontier holds the pages with
// registered changes, ordered by IC(p) = IS(p) + ID(p), the page's
// relevance (similarity to the topic, in [0,1]) plus its number of
// registered changes, textual and structural; it is crawled first. The
// static frontier holds the rest, ordered by similarity.
//
// The dissertation crawls its static frontier whole in each cycle; a
// budget spreads that cycle over nights, so the static frontier is
// ordered by visits first (a page visited in the current sweep waits for
// the next) and by similarity within a sweep. Links found on changed
// pages are new pages: the crawl fetches them from the new-page share.
func dynamicity(pages []History) []Choice {
	var dyn, stat []int
	for i := range pages {
		if pages[i].Changes() > 0 {
			dyn = append(dyn, i)
		} else {
			stat = append(stat, i)
		}
	}
	ic := func(i int) float64 { return pages[i].Relevance + float64(pages[i].Changes()) }
	slices.SortStableFunc(dyn, func(a, b int) int { return desc(ic(a), ic(b)) })
	slices.SortStableFunc(stat, func(a, b int) int {
		if va, vb := pages[a].Visits, pages[b].Visits; va != vb {
			return va - vb
		}
		return desc(pages[a].Relevance, pages[b].Relevance)
	})
	out := make([]Choice, 0, len(pages))
	for _, i := range dyn {
		out = append(out, Choice{i, ReasonDynamic})
	}
	for _, i := range stat {
		out = append(out, Choice{i, ReasonStatic})
	}
	return out
}

// desc compares for a descending sort.
func desc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
