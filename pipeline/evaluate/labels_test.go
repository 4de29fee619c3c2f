package evaluate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An assessments file as people edit it (a byte-order mark, CRLF line
// ends, a blank line, spaces around a label) reads as its clean twin; a
// wrong label or a short line is an error naming the file, line and
// topic.
func TestReadAssessments(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	messy := write("messy.tsv", "\ufeffpage\tpolitics\tlaw \r\nBarack_Obama\t2\t1\r\n\r\nSeattle\t0 \t0\r\n")
	names, labels, err := ReadAssessments(messy)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, ",") != "politics,law" || len(labels) != 2 ||
		labels["/wiki/Barack_Obama"][0] != 2 || labels["/wiki/Barack_Obama"][1] != 1 || labels["/wiki/Seattle"][1] != 0 {
		t.Errorf("read %v %v", names, labels)
	}
	law, err := ReadLabels(messy, "law")
	if err != nil || law["/wiki/Barack_Obama"] != 1 {
		t.Errorf("law: %v %v", law, err)
	}
	if _, err := ReadLabels(messy, "film-tv"); err == nil || !strings.Contains(err.Error(), "politics, law") {
		t.Errorf("a topic the file lacks: %v", err)
	}
	for _, c := range []struct{ body, want string }{
		{"page\tpolitics\nSeattle\t3\n", `bad.tsv:2: label "3" of politics: want 0, 1 or 2`},
		{"page\tpolitics\tlaw\nSeattle\t1\n", "bad.tsv:2: 2 fields, want 3"},
		{"page\n", "bad.tsv:1: want a header"},
		{"", "bad.tsv: empty"},
	} {
		if _, _, err := ReadAssessments(write("bad.tsv", c.body)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.body, err, c.want)
		}
	}
}
