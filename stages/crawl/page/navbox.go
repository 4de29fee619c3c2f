package page

import (
	"slices"

	"golang.org/x/net/html/atom"

	"github.com/topicrank/topicrank/stages/text"
)

// A navigation box lists related articles under headings: its title
// ("Television in the United States") and each row's group ("Cable
// networks"). A heading that names a topic says, of every article the
// row lists, what the article's own link seldom does: MSNBC's anchor
// holds no topic word, the box it sits in does. The learned strategy
// reads this (navboxWeight); the other strategies and the graph, whose
// links are the prose's, do not.

// navboxWeight is the least the learned strategy's similarity feature is
// for a link whose target a navigation box on the same page lists under
// a heading that names a topic: a topic word one word from the link, as
// the weighted strategy weighs one (1/(1+2)). At 1/2 (a word beside it)
// the prior no longer helped held-out topics' first nights
// (docs/decisions.md, "The learned strategy reads navigation boxes").
const navboxWeight = 1.0 / 3

// navboxes follows the navigation boxes of a page as its tags go by. A
// box's headings are its title (its first navbox-title cell, without the
// view-talk-edit bar) and each row's group (a navbox-group cell, or the
// title of a box nested in the row). An article is listed under the
// title and the groups of every row it sits in: a nested table's rows
// sit in their outer row.
type navboxes struct {
	depth   int    // <div> depth of the open box; 0 outside one
	bar     int    // <div> depth of the title's bar; 0 outside
	titled  bool   // the box's title has been read
	named   bool   // the title names a topic
	groups  []bool // for each open table of the box, whether its row's group names a topic
	reading bool   // a heading cell is being read, into heading
	isTitle bool   // it is the title
	heading []byte
	// listed are the articles listed under a heading that names a topic.
	listed map[string]bool
}

// div notes a <div> opening at depth: a box, or its title's bar.
func (n *navboxes) div(class string, depth int) {
	switch {
	case n.depth == 0 && hasClass(class, "navbox"):
		n.depth, n.titled, n.named, n.groups, n.reading = depth, false, false, n.groups[:0], false
	case n.reading && n.bar == 0 && hasClass(class, "navbar"):
		n.bar = depth
	}
}

// endDiv notes the <div> at depth closing.
func (n *navboxes) endDiv(depth int) {
	if depth == n.bar {
		n.bar = 0
	}
	if depth == n.depth {
		n.depth, n.reading = 0, false
	}
}

// table notes a table of the box opening (open) or closing.
func (n *navboxes) table(open bool) {
	switch {
	case n.depth == 0:
	case open:
		n.groups = append(n.groups, false)
	case len(n.groups) > 0:
		n.groups = n.groups[:len(n.groups)-1]
	}
}

// row notes a row opening: it has no group yet.
func (n *navboxes) row() {
	if n.depth > 0 && len(n.groups) > 0 {
		n.groups[len(n.groups)-1] = false
	}
}

// th notes a cell opening: the box's title or a row's group is read.
func (n *navboxes) th(class string) {
	if n.depth == 0 || n.reading {
		return
	}
	if hasClass(class, "navbox-title") || hasClass(class, "navbox-group") {
		n.heading, n.isTitle = n.heading[:0], !n.titled && hasClass(class, "navbox-title")
		n.reading = true
	}
}

// endHeading ends the heading being read, if any.
func (n *navboxes) endHeading(topics Topics) {
	if !n.reading {
		return
	}
	n.reading = false
	names := topics.containedIn(string(text.Fold(nil, n.heading)))
	switch {
	case n.isTitle:
		n.titled, n.named = true, names
	case len(n.groups) > 0:
		n.groups[len(n.groups)-1] = names
	}
}

// text reads a heading's text, its first maxHeading bytes.
func (n *navboxes) text(b []byte) {
	if n.reading && n.bar == 0 && len(n.heading) < maxHeading {
		n.heading = append(n.heading, b[:min(len(b), maxHeading-len(n.heading))]...)
	}
}

// link notes an article the box lists.
func (n *navboxes) link(key string) {
	if n.depth == 0 || n.reading || !(n.named || slices.Contains(n.groups, true)) {
		return
	}
	if n.listed == nil {
		n.listed = map[string]bool{}
	}
	n.listed[key] = true
}

// navEnd feeds a table's end tags to the navigation boxes.
func (x *extractor) navEnd(a atom.Atom) {
	x.nav.endHeading(x.topics)
	if a == atom.Table {
		x.nav.table(false)
	}
}

// navStart feeds a table's start tags to the navigation boxes.
func (x *extractor) navStart(a atom.Atom, attrs attrFunc) {
	switch a {
	case atom.Table:
		x.nav.endHeading(x.topics)
		x.nav.table(true)
	case atom.Tr:
		x.nav.endHeading(x.topics)
		x.nav.row()
	case atom.Th:
		x.nav.endHeading(x.topics)
		class, _ := attrs("class", "")
		x.nav.th(class)
	case atom.Td:
		x.nav.endHeading(x.topics)
	}
}
