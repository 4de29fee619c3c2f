//go:build cgo

package main

import (
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDocsCommands runs every command and query in README.md,
// outputs/README.md and docs/ that runs offline, as a user types it, from
// a folder holding jobs.yaml and the demo's outputs: runner commands
// through sh with a built runner, `duckdb -c` and SQL blocks with DuckDB.
// A runner command that cannot run here (it needs the network, a mirror
// of ../shared, a placeholder filled in, or it never ends) has its flags
// checked against the command's own. So the documentation cannot drift
// from the program.
func TestDocsCommands(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := buildRunner(t)
	dir := t.TempDir()
	if code, out, errs := runner(t, "demo", "-out", filepath.Join(dir, "outputs")); code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	jobs, err := os.ReadFile(filepath.Join(repo, "jobs.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "jobs.yaml"), jobs, 0o644)
	// docs/examples: the files queries read beside the outputs.
	examples, _ := filepath.Glob(filepath.Join(repo, "docs", "examples", "*"))
	os.MkdirAll(filepath.Join(dir, "docs", "examples"), 0o755)
	for _, e := range examples {
		b, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "docs", "examples", filepath.Base(e)), b, 0o644)
	}
	t.Chdir(dir) // relative paths in the docs, for sh and for DuckDB alike
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	docs, _ := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	docs = append([]string{filepath.Join(repo, "README.md"), filepath.Join(repo, "outputs", "README.md")}, docs...)
	ran, checked := 0, 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(repo, doc)
		for _, blk := range fencedBlocks(string(b)) {
			switch blk.lang {
			case "sql":
				if strings.Contains(blk.body, "-- recipe:") { // TestPageRankSQLRecipe runs it, with its checks
					continue
				}
				if _, err := db.Exec(blk.body); err != nil {
					t.Errorf("%s: SQL block: %v\n%s", name, err, blk.body)
				}
				ran++
			case "", "sh":
				for _, cmd := range shellCommands(blk.body) {
					r, c := docCommand(t, name, bin, db, cmd)
					ran, checked = ran+r, checked+c
				}
			}
		}
	}
	if ran < 15 || checked < 3 {
		t.Errorf("ran %d commands and queries and checked %d: the docs' blocks were not found", ran, checked)
	}
	t.Logf("ran %d commands and queries, checked the flags of %d", ran, checked)
}

type block struct{ lang, body string }

var fence = regexp.MustCompile("(?ms)^```([a-z]*)\n(.*?)^```")

// fencedBlocks returns a Markdown file's fenced code blocks.
func fencedBlocks(md string) []block {
	var out []block
	for _, m := range fence.FindAllStringSubmatch(md, -1) {
		out = append(out, block{m[1], m[2]})
	}
	return out
}

// shellCommands splits a shell block into commands: a line ending in a
// backslash, or inside an open double quote, goes on; comments go.
func shellCommands(body string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(body, "\n") {
		if cur.Len() == 0 && (strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#")) {
			continue
		}
		if strings.Count(cur.String(), `"`)%2 == 0 {
			line = stripComment(line)
		}
		cont := strings.HasSuffix(line, "\\")
		cur.WriteString(strings.TrimSuffix(line, "\\"))
		if cont || strings.Count(cur.String(), `"`)%2 == 1 {
			cur.WriteString("\n")
			continue
		}
		out = append(out, strings.TrimSpace(cur.String()))
		cur.Reset()
	}
	return out
}

// stripComment drops a " # ..." comment outside quotes.
func stripComment(line string) string {
	quoted := false
	for i, r := range line {
		switch {
		case r == '"':
			quoted = !quoted
		case r == '#' && !quoted && i > 0 && (line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimRight(line[:i], " \t")
		}
	}
	return line
}

var (
	runnerCall  = regexp.MustCompile(`^(go run \./cmd/runner|\./runner|/tmp/runner|runner) (\S+)(.*)$`)
	duckdbCall  = regexp.MustCompile(`(?s)^duckdb -c "(.*)"$`)
	placeholder = regexp.MustCompile(`(^|[\s=/])([A-Z][A-Z_]+|<[a-z]+>|\.\.\.)(\s|/|$)`)
	flagToken   = regexp.MustCompile(`(?:^|\s)(-[a-z][a-z0-9-]*)`)
)

// docCommand runs one command of the docs, or checks its flags, and
// says which it did.
func docCommand(t *testing.T, doc, bin string, db *sql.DB, cmd string) (ran, checked int) {
	t.Helper()
	if m := duckdbCall.FindStringSubmatch(cmd); m != nil {
		if _, err := db.Exec(m[1]); err != nil {
			t.Errorf("%s: %s: %v", doc, cmd, err)
		}
		return 1, 0
	}
	m := runnerCall.FindStringSubmatch(strings.TrimPrefix(cmd, "$ "))
	if m == nil {
		return 0, 0 // not ours: go build, the mirror, curl, jq...
	}
	sub, args := m[2], m[3]
	if !slices.Contains(commandNames(), sub) {
		t.Errorf("%s: %q: runner has no command %s", doc, cmd, sub)
		return 0, 0
	}
	network := (sub == "run" || sub == "evaluate") && !strings.Contains(args, "-base-url")
	if network || sub == "schedule" || strings.Contains(args, "-serve") || placeholder.MatchString(args) || strings.Contains(args, "../shared") ||
		strings.Contains(strings.ReplaceAll(args, "$(cat outputs/", ""), "$(cat ") || strings.Contains(args, "<mirror>") {
		_, _, help := runner(t, sub, "-h")
		for _, f := range flagToken.FindAllStringSubmatch(args, -1) {
			if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(f[1]) + `\b`).MatchString(help) {
				t.Errorf("%s: %q: runner %s has no flag %s", doc, cmd, sub, f[1])
			}
		}
		return 0, 1
	}
	out, err := exec.Command("sh", "-c", bin+" "+sub+args).CombinedOutput()
	if err != nil {
		t.Errorf("%s: %q: %v\n%s", doc, cmd, err, out)
	}
	return 1, 0
}
