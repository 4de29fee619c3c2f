package dump

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/topicrank/topicrank/stages/graph"
)

// Stats counts what reading a wiki's dumps kept and dropped.
type Stats struct {
	Articles      int // namespace-0 pages that are not redirects: the vertices
	Redirects     int // namespace-0 redirects, folded into their targets
	Links         int // pagelinks rows read
	Edges         int // article-to-article links kept (before duplicates)
	NotArticle    int // links from or to another namespace, or from a redirect
	Missing       int // links to a title no page has, or to a redirect with no target
	ViaRedirect   int // links that followed one redirect or more
	RedirectChain int // redirects that lead to another redirect
	RedirectLoop  int // redirects that never reach an article
}

// Files are the dump files of one wiki.
type Files struct{ Page, PageLinks, LinkTarget, Redirect string }

// FindFiles finds a wiki's *-page.sql.gz, *-pagelinks.sql.gz,
// *-redirect.sql.gz and (for dumps since 2024) *-linktarget.sql.gz in dir;
// plain .sql files are read too.
func FindFiles(dir string) (Files, error) {
	find := func(table string, required bool) (string, error) {
		for _, ext := range []string{".sql.gz", ".sql"} {
			m, _ := filepath.Glob(filepath.Join(dir, "*-"+table+ext))
			if len(m) > 1 {
				return "", fmt.Errorf("%s: %d files for table %s (%s): keep one wiki's dump per directory", dir, len(m), table, strings.Join(m, ", "))
			}
			if len(m) == 1 {
				return m[0], nil
			}
		}
		if required {
			return "", fmt.Errorf("%s: no *-%s.sql.gz", dir, table)
		}
		return "", nil
	}
	var f Files
	var err error
	if f.Page, err = find("page", true); err != nil {
		return f, err
	}
	if f.PageLinks, err = find("pagelinks", true); err != nil {
		return f, err
	}
	if f.Redirect, err = find("redirect", false); err != nil {
		return f, err
	}
	f.LinkTarget, err = find("linktarget", false)
	return f, err
}

// open opens a dump file, gunzipping a .gz one.
func open(path string) (io.Reader, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, f.Close, nil
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: not gzip: %w", path, err)
	}
	return z, f.Close, nil
}

// each calls f for every row of table in path, with the indexes of the
// named columns, which must exist.
func each(ctx context.Context, path, table string, columns []string, f func(row []Value, col []int) error) error {
	r, done, err := open(path)
	if err != nil {
		return err
	}
	defer done()
	t, err := OpenTable(path, r, table)
	if err != nil {
		return err
	}
	col := make([]int, len(columns))
	for i, c := range columns {
		if col[i] = t.Column(c); col[i] < 0 {
			return t.errorf("table `%s` has no column %s (it has %s)", table, c, strings.Join(t.Columns(), ", "))
		}
	}
	for n := 0; ; n++ {
		row, err := t.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f(row, col); err != nil {
			return t.wrap(err)
		}
		if n%65536 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

type page struct {
	title    string
	redirect bool
}

// Read reads a wiki's dumps into its article link graph: namespace 0 on
// both ends, redirects followed to their targets (a redirect is no
// vertex; links to it count for its target), links to missing pages
// dropped. Vertices are the articles in page-table order, named
// /wiki/Title.
func Read(ctx context.Context, f Files) (*graph.Graph, Stats, error) {
	var st Stats
	pages := map[int64]page{}     // namespace-0 pages by id
	byTitle := map[string]int64{} // and by title
	var n [3]int64
	err := each(ctx, f.Page, "page", []string{"page_id", "page_namespace", "page_title", "page_is_redirect"}, func(row []Value, c []int) error {
		if err := ints(n[:], row, c[0], c[1], c[3]); err != nil || n[1] != 0 {
			return err
		}
		title := string(row[c[2]].Bytes)
		pages[n[0]] = page{title, n[2] != 0}
		byTitle[title] = n[0]
		return nil
	})
	if err != nil {
		return nil, st, err
	}
	b := graph.NewBuilder()
	vertex := map[int64]uint32{}
	ids := make([]int64, 0, len(pages))
	for id := range pages {
		ids = append(ids, id)
	}
	slices.Sort(ids) // page.sql is in page_id order already; this keeps it whatever the file's
	for _, id := range ids {
		if p := pages[id]; p.redirect {
			st.Redirects++
		} else {
			vertex[id] = b.Vertex("/wiki/" + p.title)
			st.Articles++
		}
	}
	target, err := redirects(ctx, f.Redirect, pages, byTitle, vertex, &st)
	if err != nil {
		return nil, st, err
	}
	// A link's target is found by one lookup of its title: an article's
	// vertex, a resolved redirect's target, or unresolved.
	const unresolved = ^uint32(0)
	byTitle2 := make(map[string]uint32, len(byTitle))
	for title, id := range byTitle {
		switch v, ok := vertex[id]; {
		case ok:
			byTitle2[title] = v
		default:
			if v, ok := target[id]; ok {
				byTitle2[title] = v | 1<<31 // marked: through a redirect
			} else {
				byTitle2[title] = unresolved
			}
		}
	}
	byTitle = nil
	if b.NumVertices() >= 1<<31 {
		return nil, st, fmt.Errorf("%s: %d articles: more than this reader numbers", f.Page, b.NumVertices())
	}
	lastFrom, lastU, lastOK := int64(-1), uint32(0), false
	err = links(ctx, f, func(from int64, ns int64, title []byte) {
		st.Links++
		if from != lastFrom { // pagelinks comes sorted by pl_from
			lastFrom = from
			lastU, lastOK = vertex[from]
		}
		if !lastOK || ns != 0 {
			st.NotArticle++
			return
		}
		v, ok := byTitle2[string(title)]
		switch {
		case !ok || v == unresolved:
			st.Missing++
			return
		case v&(1<<31) != 0:
			st.ViaRedirect++
			v &^= 1 << 31
		}
		b.AddEdge(lastU, v)
		st.Edges++
	})
	if err != nil {
		return nil, st, err
	}
	g, err := b.Build()
	return g, st, err
}

// redirects reads the redirect table and follows each namespace-0
// redirect to the article it ends at, through chains, counting chains and
// loops.
func redirects(ctx context.Context, path string, pages map[int64]page, byTitle map[string]int64, vertex map[int64]uint32, st *Stats) (map[int64]uint32, error) {
	next := map[int64]int64{} // redirect page -> the page it names
	if path != "" {
		var n [2]int64
		err := each(ctx, path, "redirect", []string{"rd_from", "rd_namespace", "rd_title"}, func(row []Value, c []int) error {
			if err := ints(n[:], row, c[0], c[1]); err != nil {
				return err
			}
			from, ns := n[0], n[1]
			if p, ok := pages[from]; !ok || !p.redirect || ns != 0 {
				return nil
			}
			if to, ok := byTitle[string(row[c[2]].Bytes)]; ok {
				next[from] = to
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := map[int64]uint32{}
	for from := range next {
		at, hops := from, 0
		for hops <= 64 {
			to, ok := next[at]
			if !ok {
				break
			}
			if v, ok := vertex[to]; ok {
				out[from] = v
				break
			}
			at, hops = to, hops+1
		}
		switch _, ok := out[from]; {
		case ok && hops > 0:
			st.RedirectChain++
		case !ok && hops > 64:
			st.RedirectLoop++
		}
	}
	return out, nil
}

// links calls f for every pagelinks row with its source page id and its
// target's namespace and title, from either schema.
func links(ctx context.Context, f Files, link func(from, ns int64, title []byte)) error {
	r, done, err := open(f.PageLinks)
	if err != nil {
		return err
	}
	t, err := OpenTable(f.PageLinks, r, "pagelinks")
	done()
	if err != nil {
		return err
	}
	if t.Column("pl_target_id") < 0 {
		var n [2]int64
		return each(ctx, f.PageLinks, "pagelinks", []string{"pl_from", "pl_namespace", "pl_title"}, func(row []Value, c []int) error {
			if err := ints(n[:], row, c[0], c[1]); err != nil {
				return err
			}
			link(n[0], n[1], row[c[2]].Bytes)
			return nil
		})
	}
	if f.LinkTarget == "" {
		return fmt.Errorf("%s: pagelinks by pl_target_id (the 2024 schema) needs the wiki's *-linktarget.sql.gz beside it", f.PageLinks)
	}
	type target struct {
		ns    int64
		title string
	}
	targets := map[int64]target{}
	var n [2]int64
	err = each(ctx, f.LinkTarget, "linktarget", []string{"lt_id", "lt_namespace", "lt_title"}, func(row []Value, c []int) error {
		if err := ints(n[:], row, c[0], c[1]); err != nil {
			return err
		}
		id, ns := n[0], n[1]
		if ns == 0 {
			targets[id] = target{0, string(row[c[2]].Bytes)}
		} else {
			targets[id] = target{ns, ""}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return each(ctx, f.PageLinks, "pagelinks", []string{"pl_from", "pl_target_id"}, func(row []Value, c []int) error {
		if err := ints(n[:], row, c[0], c[1]); err != nil {
			return err
		}
		from, id := n[0], n[1]
		tg, ok := targets[id]
		if !ok {
			link(from, -1, nil) // a target id the linktarget table lacks
			return nil
		}
		link(from, tg.ns, []byte(tg.title))
		return nil
	})
}

// ints reads the integer fields at cols of a row into dst.
func ints(dst []int64, row []Value, cols ...int) error {
	for i, c := range cols {
		v, err := row[c].Int()
		if err != nil {
			return err
		}
		dst[i] = v
	}
	return nil
}
