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
	row := regexp.MustCompile(`(?m)^\| ([^|]+) \|`)
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

// What is valid but likely not meant is a warning, not an error.
func TestConfigWarnings(t *testing.T) {
	cfg, err := ParseConfig("jobs.yaml", []byte(`defaults:
  user_agent: "x/0.1 (ops@example.org)"
jobs:
  - name: bare
    seeds: [/wiki/A]
  - name: twice
    seeds: [/wiki/A, /wiki/A]
    topics: [tennis, Tennis]
  - name: fine
    seeds: [/wiki/A]
    topics: [tennis]
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`jobs.yaml:4: job "bare": no topics`,
		`jobs.yaml:6: job "twice": seeds: "/wiki/A" is given twice`,
		`jobs.yaml:6: job "twice": topics: "Tennis" is given twice`,
	}
	if len(cfg.Warnings) != len(want) {
		t.Fatalf("warnings %q", cfg.Warnings)
	}
	for i, w := range want {
		if !strings.HasPrefix(cfg.Warnings[i], w) {
			t.Errorf("warning %d: %q, want %q…", i, cfg.Warnings[i], w)
		}
	}
}
