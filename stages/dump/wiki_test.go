package dump

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/topicrank/topicrank/stages/graph"
	"github.com/topicrank/topicrank/stages/rank"
)

// The loginwiki 2024 excerpt (pagelinks by pl_target_id): one article,
// Main_Page; its three links all start outside namespace 0.
func TestLoginwiki2024(t *testing.T) {
	f := Files{Page: "testdata/loginwiki-20240901-page.sql", PageLinks: "testdata/loginwiki-20240901-pagelinks.sql",
		LinkTarget: "testdata/loginwiki-20240901-linktarget.sql"}
	g, st, err := Read(t.Context(), f)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != 1 || g.Name(0) != "/wiki/Main_Page" || g.NumEdges() != 0 || st.Links != 3 || st.NotArticle != 3 ||
		len(st.PageIDs) != 1 || st.PageIDs[0] != 1 {
		t.Errorf("vertices %v, %d edges, stats %+v", g.Names(), g.NumEdges(), st)
	}
	f.LinkTarget = ""
	if _, _, err := Read(t.Context(), f); err == nil || !strings.Contains(err.Error(), "linktarget") {
		t.Errorf("the 2024 schema without linktarget: %v", err)
	}
	// A pagelinks table of neither schema: its columns are named.
	f.PageLinks = "testdata/loginwiki-20240901-linktarget.sql"
	if _, _, err := Read(t.Context(), f); err == nil || !strings.Contains(err.Error(), "a dump of table `linktarget`, want `pagelinks`") {
		t.Errorf("linktarget as pagelinks: %v", err)
	}
	dir := t.TempDir()
	odd := filepath.Join(dir, "w-pagelinks.sql")
	os.WriteFile(odd, []byte("CREATE TABLE `pagelinks` (\n  `pl_source` int,\n  `pl_dest` int\n);\nINSERT INTO `pagelinks` VALUES (1,2);\n"), 0o644)
	f.PageLinks = odd
	if _, _, err := Read(t.Context(), f); err == nil || !strings.Contains(err.Error(), "has no column pl_from (it has pl_source, pl_dest)") || !strings.Contains(err.Error(), odd) {
		t.Errorf("unknown columns: %v", err)
	}
}

// dumpOf writes a wiki of n articles and some redirects (a chain, a loop,
// one to a missing page) as dumps in both pagelinks schemas, and returns
// the graph they describe, built by hand.
func dumpOf(t *testing.T, n int, schema2024 bool) (Files, *graph.Graph) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	dir := t.TempDir()
	title := func(i int) string {
		return fmt.Sprintf("Article_%d_%s", i, []string{"plain", "it's", `back\slash`, "ünï"}[i%4])
	}
	quote := func(s string) string {
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
	}
	var page, red, pl, lt []string
	for i := range n {
		page = append(page, fmt.Sprintf("(%d,0,%s,0,0,0.5)", i+1, quote(title(i))))
	}
	// Redirects: R1 -> Article 0; R2 -> R1 (a chain); R3 <-> R4 (a loop);
	// R5 -> a title no page has; and a talk page (namespace 1).
	reds := []struct {
		id     int
		name   string
		target string
	}{{1001, "R1", title(0)}, {1002, "R2", "R1"}, {1003, "R3", "R4"}, {1004, "R4", "R3"}, {1005, "R5", "Nowhere"}}
	for _, r := range reds {
		page = append(page, fmt.Sprintf("(%d,0,%s,1,0,0.5)", r.id, quote(r.name)))
		red = append(red, fmt.Sprintf("(%d,0,%s,'','')", r.id, quote(r.target)))
	}
	page = append(page, "(2000,1,'Article_1_it\\'s',0,0,0.5)")
	b := graph.NewBuilder()
	for i := range n {
		b.Vertex("/wiki/" + title(i))
	}
	targets := map[string]int{}
	add := func(from int, ns int, to string) {
		id, ok := targets[fmt.Sprint(ns, to)]
		if !ok {
			id = len(targets) + 10
			targets[fmt.Sprint(ns, to)] = id
			lt = append(lt, fmt.Sprintf("(%d,%d,%s)", id, ns, quote(to)))
		}
		if schema2024 {
			pl = append(pl, fmt.Sprintf("(%d,0,%d)", from, id))
		} else {
			pl = append(pl, fmt.Sprintf("(%d,%d,%s,0)", from, ns, quote(to)))
		}
	}
	for i := range n {
		for range rng.IntN(6) {
			j := rng.IntN(n)
			add(i+1, 0, title(j))
			b.AddEdge(uint32(i), uint32(j))
		}
		switch rng.IntN(8) {
		case 0:
			add(i+1, 0, "R2") // through the chain to Article 0
			b.AddEdge(uint32(i), 0)
		case 1:
			add(i+1, 0, "R3") // into the loop: dropped
		case 2:
			add(i+1, 0, "Missing_page") // dropped
		case 3:
			add(i+1, 1, title(1)) // a talk page: dropped
		}
	}
	add(2000, 0, title(2)) // from a talk page: dropped
	add(1001, 0, title(3)) // from a redirect: dropped
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, table, cols string, values []string) string {
		var sb strings.Builder
		sb.WriteString("-- generated\nCREATE TABLE `" + table + "` (\n")
		for _, c := range strings.Split(cols, ",") {
			sb.WriteString("  `" + c + "` int,\n")
		}
		sb.WriteString("  PRIMARY KEY (`x`)\n) ENGINE=InnoDB;\n")
		for len(values) > 0 { // INSERTs of at most 7 rows, as mysqldump splits them
			k := min(len(values), 7)
			sb.WriteString("INSERT INTO `" + table + "` VALUES " + strings.Join(values[:k], ",") + ";\n")
			values = values[k:]
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(sb.String()), 0o644)
		return p
	}
	f := Files{
		Page:     write("w-page.sql", "page", "page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_random", page),
		Redirect: write("w-redirect.sql", "redirect", "rd_from,rd_namespace,rd_title,rd_interwiki,rd_fragment", red),
	}
	if schema2024 {
		f.PageLinks = write("w-pagelinks.sql", "pagelinks", "pl_from,pl_from_namespace,pl_target_id", pl)
		f.LinkTarget = write("w-linktarget.sql", "linktarget", "lt_id,lt_namespace,lt_title", lt)
	} else {
		f.PageLinks = write("w-pagelinks.sql", "pagelinks", "pl_from,pl_namespace,pl_title,pl_from_namespace", pl)
	}
	return f, g
}

// A generated dump of a known graph reads to that graph, in both schemas,
// and ranks exactly as the graph itself does.
func TestGeneratedDump(t *testing.T) {
	for _, schema2024 := range []bool{false, true} {
		f, want := dumpOf(t, 300, schema2024)
		got, st, err := Read(t.Context(), f)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Names(), want.Names()) || got.NumEdges() != want.NumEdges() {
			t.Fatalf("2024 schema %v: %d vertices, %d edges; want %d, %d", schema2024, got.NumVertices(), got.NumEdges(), want.NumVertices(), want.NumEdges())
		}
		for v := range uint32(want.NumVertices()) {
			if !slices.Equal(got.Out(v), want.Out(v)) {
				t.Fatalf("%s: out %v, want %v", want.Name(v), got.Out(v), want.Out(v))
			}
		}
		// The same graph written as an edge list and read back, as
		// runner rank -graph reads one: the ranks are equal.
		var el bytes.Buffer
		if err := graph.WriteEdgeList(&el, want); err != nil {
			t.Fatal(err)
		}
		fromList, _, err := graph.ReadEdgeList(&el, graph.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r1, r2 := rank.PageRank(got, 0.85, []float64{1e-10}), rank.PageRank(fromList, 0.85, []float64{1e-10})
		byName := map[string]float64{}
		for v, r := range r2[0].Ranks {
			byName[fromList.Name(uint32(v))] = r
		}
		if fromList.NumVertices() != got.NumVertices() {
			t.Fatalf("the edge list has %d vertices, the dump %d", fromList.NumVertices(), got.NumVertices())
		}
		for v, r := range r1[0].Ranks {
			if got.InDegree(uint32(v))+got.OutDegree(uint32(v)) == 0 {
				continue // an isolated vertex: an edge list counts it but cannot name it
			}
			// Equal but for the last bit: an edge list numbers vertices by
			// first mention, which orders each sum differently.
			if name := got.Name(uint32(v)); math.Abs(byName[name]-r) > 1e-15 {
				t.Fatalf("%s: rank %v from the dump, %v from its edge list", name, r, byName[name])
			}
		}
		if st.Redirects != 5 || st.RedirectChain != 1 || st.RedirectLoop != 2 || st.ViaRedirect == 0 || st.Missing == 0 || st.NotArticle < 2 {
			t.Errorf("stats %+v", st)
		}
	}
}

func TestIDIndex(t *testing.T) {
	for _, ids := range [][]int64{{5, 6, 9, 7}, {5, 1 << 40, 9, -3}} {
		x := newIDIndex(ids, []uint32{10, 20, 30, otherNamespace})
		for i, id := range ids {
			if v, ok := x.get(id); !ok || v != []uint32{10, 20, 30, otherNamespace}[i] {
				t.Errorf("ids %v: get(%d) = %d, %v", ids, id, v, ok)
			}
		}
		for _, id := range []int64{8, 4, 1 << 41} {
			if _, ok := x.get(id); ok {
				t.Errorf("ids %v: get(%d) found", ids, id)
			}
		}
		if dense := x.dense != nil; dense != (ids[1] == 6) {
			t.Errorf("ids %v: dense %v", ids, dense)
		}
	}
}
