package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// writeDump writes a wiki of n articles and about m links as SQL dumps
// in the 2024 schema (pagelinks by pl_target_id) into dir, as
// mysqldump writes them: gengraph-page.sql, -redirect.sql,
// -linktarget.sql and -pagelinks.sql, plain, for rank -dump.
//
// Links are R-MAT edges between articles (see writeRMAT), sorted by
// source as pagelinks is by its primary key, without repeats. Besides
// articles the wiki has redirects (one per ten articles, a few in chains)
// and talk pages; of the links, about 4% go through a redirect, 3% to
// titles no page has, 3% to templates (namespace 10), and talk pages
// link too, all of which rank -dump folds in or drops as a real dump's.
func writeDump(dir string, n, m int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 2))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	perm := rng.Perm(n)
	title := func(v int) string { // an article's title; some need escaping
		s := "Article_number_" + strconv.FormatInt(int64(perm[v]), 36)
		switch perm[v] % 50 {
		case 0:
			s += "_(it's)"
		case 1:
			s += `_back\slash`
		case 2:
			s += "_Ünïcode"
		}
		return s
	}
	redirects := n / 10
	// Page ids: articles 1..n, redirects after them, talk pages after those.
	pageID := func(v int) int { return v + 1 }
	redirectID := func(r int) int { return n + r + 1 }
	redirectTitle := func(r int) string { return "Redirect_" + strconv.Itoa(r) }
	// Redirect r names article r*7 mod n; one in twenty names the redirect
	// before it instead (a chain).
	redirectTarget := func(r int) string {
		if r > 0 && r%20 == 0 {
			return redirectTitle(r - 1)
		}
		return title(r * 7 % n)
	}
	talk := n / 50

	w, err := newSQL(dir, "page", "page_id int,page_namespace int,page_title varbinary(255),page_is_redirect tinyint,page_is_new tinyint,page_random double,page_touched binary(14),page_links_updated varbinary(14),page_latest int,page_len int,page_content_model varbinary(32),page_lang varbinary(35)")
	if err != nil {
		return err
	}
	row := func(id, ns int, t string, redirect int) {
		w.row("%d,%d,%s,%d,0,0.%06d,'20240601000000','20240601000000',%d,%d,'wikitext',NULL", id, ns, quote(t), redirect, rng.IntN(1e6), id*3, 100+rng.IntN(9000))
	}
	for v := range n {
		row(pageID(v), 0, title(v), 0)
	}
	for r := range redirects {
		row(redirectID(r), 0, redirectTitle(r), 1)
	}
	for k := range talk {
		row(n+redirects+k+1, 1, title(k), 0)
	}
	if err := w.close(); err != nil {
		return err
	}

	if w, err = newSQL(dir, "redirect", "rd_from int,rd_namespace int,rd_title varbinary(255),rd_interwiki varbinary(32),rd_fragment varbinary(255)"); err != nil {
		return err
	}
	for r := range redirects {
		w.row("%d,0,%s,'',''", redirectID(r), quote(redirectTarget(r)))
	}
	if err := w.close(); err != nil {
		return err
	}

	// Link targets: every article, every redirect, a missing title per
	// hundred articles and a template per thousand, ids in an order of
	// their own (as targets first appeared on the wiki).
	type target struct {
		ns    int
		title string
	}
	missing, templates := max(1, n/100), max(1, n/1000)
	total := n + redirects + missing + templates
	ltID := rng.Perm(total) // target k's id is ltID[k]+1
	targetOf := func(k int) target {
		switch {
		case k < n:
			return target{0, title(k)}
		case k < n+redirects:
			return target{0, redirectTitle(k - n)}
		case k < n+redirects+missing:
			return target{0, "Missing_page_" + strconv.Itoa(k)}
		}
		return target{10, "Template_" + strconv.Itoa(k)}
	}
	byID := make([]int, total)
	for k, id := range ltID {
		byID[id] = k
	}
	if w, err = newSQL(dir, "linktarget", "lt_id bigint,lt_namespace int,lt_title varbinary(255)"); err != nil {
		return err
	}
	for id, k := range byID {
		t := targetOf(k)
		w.row("%d,%d,%s", id+1, t.ns, quote(t.title))
	}
	if err := w.close(); err != nil {
		return err
	}

	// Links: R-MAT edges between articles, by source then target id.
	links := make([]uint64, 0, m+m/10)
	for _, e := range rmatEdges(rng, n, m) {
		u, v := int(e>>32), int(uint32(e))
		to := v // target index: the article,
		switch x := rng.IntN(100); {
		case x < 4: // or a redirect (whichever; most lead to another article),
			to = n + rng.IntN(redirects)
		case x < 7:
			to = n + redirects + rng.IntN(missing)
		case x < 10:
			to = n + redirects + missing + rng.IntN(templates)
		}
		links = append(links, uint64(pageID(u))<<32|uint64(ltID[to]+1))
	}
	for k := range talk { // talk pages link too
		links = append(links, uint64(n+redirects+k+1)<<32|uint64(ltID[k]+1))
	}
	slices.Sort(links)
	links = slices.Compact(links)
	if w, err = newSQL(dir, "pagelinks", "pl_from int,pl_from_namespace int,pl_target_id bigint"); err != nil {
		return err
	}
	for _, l := range links {
		from := int(l >> 32)
		ns := 0
		if from > n+redirects {
			ns = 1
		}
		w.row("%d,%d,%d", from, ns, uint32(l))
	}
	return w.close()
}

// rmatEdges returns m R-MAT edges over n vertices as u<<32|v.
func rmatEdges(rng *rand.Rand, n, m int) []uint64 {
	out := make([]uint64, 0, m)
	rmat(rng, n, m, func(u, v int) { out = append(out, uint64(u)<<32|uint64(v)) })
	return out
}

func quote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// sqlFile writes one table as mysqldump does: a CREATE TABLE, then
// INSERTs of many rows each.
type sqlFile struct {
	f    *os.File
	w    *bufio.Writer
	name string
	rows int // in the open INSERT
}

const rowsPerInsert = 2000

func newSQL(dir, table, cols string) (*sqlFile, error) {
	f, err := os.Create(filepath.Join(dir, "gengraph-"+table+".sql"))
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintf(w, "-- MySQL dump of a generated wiki (cmd/gengraph)\n\nDROP TABLE IF EXISTS `%s`;\nCREATE TABLE `%s` (\n", table, table)
	for _, c := range strings.Split(cols, ",") {
		name, typ, _ := strings.Cut(c, " ")
		fmt.Fprintf(w, "  `%s` %s NOT NULL,\n", name, typ)
	}
	fmt.Fprintf(w, "  PRIMARY KEY (`%s`)\n) ENGINE=InnoDB DEFAULT CHARSET=binary;\n\n", strings.Fields(cols)[0])
	return &sqlFile{f: f, w: w, name: table}, nil
}

func (s *sqlFile) row(format string, args ...any) {
	if s.rows == 0 {
		fmt.Fprintf(s.w, "INSERT INTO `%s` VALUES ", s.name)
	} else {
		s.w.WriteByte(',')
	}
	s.w.WriteByte('(')
	fmt.Fprintf(s.w, format, args...)
	s.w.WriteByte(')')
	if s.rows++; s.rows == rowsPerInsert {
		s.w.WriteString(";\n")
		s.rows = 0
	}
}

func (s *sqlFile) close() error {
	if s.rows > 0 {
		s.w.WriteString(";\n")
	}
	if err := s.w.Flush(); err != nil {
		s.f.Close()
		return err
	}
	return s.f.Close()
}
