package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/topicrank/topicrank/stages/dump"
)

// The generated dump is what rank -dump reads: every article a vertex,
// every link counted once as kept or dropped, redirects (chains among
// them) folded in; and the same flags write the same bytes.
func TestWriteDump(t *testing.T) {
	const n, m = 3000, 40000
	dir, again := t.TempDir(), t.TempDir()
	for _, d := range []string{dir, again} {
		if err := writeDump(d, n, m, 7); err != nil {
			t.Fatal(err)
		}
	}
	files, err := dump.FindFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	g, st, err := dump.Read(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	if st.Articles != n || g.NumVertices() != n || st.Redirects != n/10 {
		t.Errorf("%d articles (%d vertices), %d redirects; want %d and %d", st.Articles, g.NumVertices(), st.Redirects, n, n/10)
	}
	if st.Edges+st.NotArticle+st.Missing != st.Links || st.Links < m/2 { // R-MAT repeats some links; pagelinks holds each once
		t.Errorf("%d links read: %d kept, %d not articles, %d missing", st.Links, st.Edges, st.NotArticle, st.Missing)
	}
	if st.ViaRedirect == 0 || st.RedirectChain == 0 || st.Missing == 0 || st.NotArticle == 0 {
		t.Errorf("want links through redirects, chains, missing and other namespaces: %+v", st)
	}
	for _, table := range []string{"page", "redirect", "linktarget", "pagelinks"} {
		a, _ := os.ReadFile(filepath.Join(dir, "gengraph-"+table+".sql"))
		b, _ := os.ReadFile(filepath.Join(again, "gengraph-"+table+".sql"))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: %d and %d bytes from the same flags", table, len(a), len(b))
		}
	}
}
