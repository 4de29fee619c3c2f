package evaluate

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/topicrank/topicrank/pipeline"
)

// TestLoadOracle reads a small corpus archive in the 2018 corpus's layout:
// each saved page's relevance is keyed by its METADATA uri, judged as the
// crawl judges a page; files without one are skipped.
func TestLoadOracle(t *testing.T) {
	page := func(uri, prose string) string {
		return "<!-- METADATA\nuri: https://en.wikipedia.org/wiki/" + uri + "\n-->" +
			`<html><body><div id="mw-content-text"><div class="mw-parser-output"><p>` + prose + `</p></div></div></body></html>`
	}
	var buf bytes.Buffer
	zw, _ := zstd.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range map[string]string{
		"a.html":   page("Tennis_court", "tennis court surface grass clay tennis"),
		"b.html":   page("Opera", "opera singer aria stage"),
		"list.sav": "not a page",
		"c.html":   "<html>no metadata</html>",
	} {
		tw.WriteHeader(&tar.Header{Name: "corpus/" + name, Mode: 0o644, Size: int64(len(body))})
		tw.Write([]byte(body))
	}
	tw.Close()
	zw.Close()
	path := filepath.Join(t.TempDir(), "corpus.tar.zst")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rel, err := LoadOracle(path, pipeline.Job{Topics: []string{"tennis"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rel) != 2 || !(rel["/wiki/Tennis_court"] > 0.5) || !(rel["/wiki/Opera"] < pipeline.DefaultRelevanceThreshold) {
		t.Errorf("relevances %v", rel)
	}
	os.WriteFile(path, []byte("not zstd"), 0o644)
	if _, err := LoadOracle(path, pipeline.Job{Topics: []string{"tennis"}}, nil); err == nil {
		t.Error("a file that is no archive was read")
	}
}
