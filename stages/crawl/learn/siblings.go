package learn

// Sibling locality (Aggarwal et al.'s intelligent crawler; Chakrabarti's
// sibling links): links that sit near each other on a page, a list of
// albums or a paragraph of court cases, tend to lead to pages alike. Two
// of the learned model's features are, among a link's neighbours on its
// parent page (siblingWindow links either side, in document order), the
// shares of those already judged that were relevant and that were not.
// Words cannot carry this: each album in a discography has a title of its
// own. The shares change as neighbours are judged, so a judged page's
// neighbours still in the frontier are scored again.
const siblingWindow = 10

// siblings holds what the feature reads: each fetched page's links and
// each judged page's label. Best-first admission keeps a page's links;
// under discovery admission none are kept, and the shares stay 0.
type siblings struct {
	links  func(parent uint32) []string // a fetched page's links in document order; nil if unknown
	judged map[string]bool              // judged pages: relevant or not
}

// around returns the keys of the links near link idx of parent, the link
// itself left out.
func (s *siblings) around(parent uint32, idx int) []string {
	if s.links == nil {
		return nil
	}
	keys := s.links(parent)
	if idx < 0 || idx >= len(keys) {
		return nil
	}
	var near []string
	for j := max(idx-siblingWindow, 0); j < min(idx+siblingWindow+1, len(keys)); j++ {
		if j != idx {
			near = append(near, keys[j])
		}
	}
	return near
}

// shares returns, of the judged links near link idx of parent, the share
// that were relevant and the share that were not; both 0 when none is
// judged. The one added to their count keeps a single judged neighbour
// from counting as certainty.
func (s *siblings) shares(parent uint32, idx int) (relevant, irrelevant float64) {
	for _, k := range s.around(parent, idx) {
		if r, ok := s.judged[k]; ok && r {
			relevant++
		} else if ok {
			irrelevant++
		}
	}
	n := relevant + irrelevant + 1
	return relevant / n, irrelevant / n
}
