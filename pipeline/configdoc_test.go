package pipeline

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs/configuration.md has a row for every key the parser accepts, so
// that a key can never be left out of the reference.
func TestConfigurationDocumentsEveryKey(t *testing.T) {
	b, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	row := regexp.MustCompile("(?m)^\\| ([^|]+) \\|")
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		for _, k := range regexp.MustCompile("`([a-z_.]+)`").FindAllStringSubmatch(m[1], -1) {
			documented[k[1]] = true
		}
	}
	var missing []string
	for _, k := range Keys() {
		if !documented[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		t.Errorf("docs/configuration.md has no row for %s", strings.Join(missing, ", "))
	}
	if strings.Contains(string(b), "DESIGN") {
		t.Error("docs/configuration.md points to DESIGN.md, which a user's clone does not have")
	}
}

// No document of the repository points to DESIGN.md, which lives beside
// the repository, not in a user's clone.
func TestDocsPointInside(t *testing.T) {
	docs := []string{"../README.md", "../outputs/README.md", "../jobs.yaml"}
	more, _ := filepath.Glob("../docs/*.md")
	for _, doc := range append(docs, more...) {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "DESIGN.md") {
			t.Errorf("%s points to DESIGN.md", doc)
		}
	}
}
