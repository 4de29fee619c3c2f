package publish

import (
	"cmp"
	"errors"
	"math"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Digest is what changed in a run since the previous complete run, read
// from its changes.parquet: what the feed, the report's first section and
// a message say first. Every entry carries its cause.
type Digest struct {
	PreviousRun string  // "" for a job's first run
	Epsilon     float64 // movers are ranked at the smallest epsilon
	Edited      []Edit  // new revisions
	Changed     []string
	Entered     []Moved // pages that became vertices, with their cause
	Left        []Moved // pages that are vertices no more
	Failed      []Moved // vertices of both runs whose fetch failed now (gone: 404 or 410)
	Movers      []Mover // the biggest moves among sound vertices of both runs
}

// Edit is a page with a new revision: its revision ids where known.
type Edit struct {
	Page                       string
	Revision, PreviousRevision int64
}

// Moved is a page that entered or left, and why (a Cause).
type Moved struct{ Page, Cause string }

// Mover is a sound page whose position changed.
type Mover struct {
	Page                       string
	Rank, PreviousRank         float64
	Position, PreviousPosition int32
}

// ErrNoCauses says a run was published before changes.parquet had
// causes: what changed cannot be told by cause.
var ErrNoCauses = errors.New("published before changes had causes: see its changes.parquet")

// DigestMovers is how many movers a digest holds.
const DigestMovers = 10

// Empty reports whether nothing changed.
func (d *Digest) Empty() bool {
	return len(d.Edited) == 0 && len(d.Changed) == 0 && len(d.Entered) == 0 && len(d.Left) == 0 && len(d.Failed) == 0 && len(d.Movers) == 0
}

// ReadDigest reads the digest of the published run in dir; prev, the
// previous complete run (nil if gone or none), gives the revisions the
// edits are compared with.
func ReadDigest(dir string, prev *Previous) (*Digest, error) {
	d := &Digest{Epsilon: math.Inf(1)}
	type change struct {
		eps                 float64
		page, change, cause string
		rank, prevRank      float64
		pos, prevPos        int32
	}
	var rows []change
	causes := true
	err := readTable(filepath.Join(dir, "changes.parquet"), func(r row) {
		if id, ok := r.str("previous_run_id"); ok {
			d.PreviousRun = id
		}
		cause := ""
		if _, ok := r.cols["cause"]; ok {
			cause = r.mustStr("cause")
		} else {
			causes = false
		}
		rows = append(rows, change{r.float64("epsilon"), r.mustStr("page"), r.mustStr("change"), cause,
			r.optFloat64("rank"), r.optFloat64("previous_rank"), r.optInt32("position"), r.optInt32("previous_position")})
		d.Epsilon = min(d.Epsilon, r.float64("epsilon"))
	})
	if err != nil {
		return nil, err
	}
	if d.PreviousRun == "" {
		return &Digest{}, nil
	}
	if !causes {
		return nil, ErrNoCauses
	}
	revision := map[string]int64{}
	if err := readTable(filepath.Join(dir, "pages.parquet"), func(r row) {
		if v := r.optInt64("revision_id"); v != 0 {
			revision[r.mustStr("page")] = v
		}
	}); err != nil {
		return nil, err
	}
	for _, r := range rows {
		if r.eps != d.Epsilon {
			continue
		}
		switch r.cause {
		case CauseEdited:
			e := Edit{Page: r.page, Revision: revision[r.page]}
			if prev != nil {
				e.PreviousRevision = prev.Revision[r.page]
			}
			d.Edited = append(d.Edited, e)
		case CauseChanged:
			d.Changed = append(d.Changed, r.page)
		}
		switch {
		case r.change == ChangeNew:
			d.Entered = append(d.Entered, Moved{r.page, r.cause})
		case r.change == ChangeRemoved:
			d.Left = append(d.Left, Moved{r.page, r.cause})
		case r.cause == CauseGone || r.cause == CauseFailed:
			d.Failed = append(d.Failed, Moved{r.page, r.cause})
		case Sound(r.cause) && r.pos != r.prevPos:
			d.Movers = append(d.Movers, Mover{r.page, r.rank, r.prevRank, r.pos, r.prevPos})
		}
	}
	slices.SortFunc(d.Movers, func(a, b Mover) int {
		return cmp.Or(cmp.Compare(math.Abs(b.Rank-b.PreviousRank), math.Abs(a.Rank-a.PreviousRank)), strings.Compare(a.Page, b.Page))
	})
	d.Movers = d.Movers[:min(DigestMovers, len(d.Movers))]
	return d, nil
}

// DiffURL returns where the wiki at base shows an edit: the diff between
// the two revisions where both are known, the page's history otherwise.
func (e Edit) DiffURL(base string) string {
	if e.Revision != 0 && e.PreviousRevision != 0 {
		return base + "/w/index.php?diff=" + strconv.FormatInt(e.Revision, 10) + "&oldid=" + strconv.FormatInt(e.PreviousRevision, 10)
	}
	title := strings.TrimPrefix(e.Page, "/wiki/")
	if t, err := url.PathUnescape(title); err == nil {
		title = t
	}
	return base + "/w/index.php?title=" + url.QueryEscape(title) + "&action=history"
}
