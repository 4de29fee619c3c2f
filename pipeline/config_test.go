package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const validYAML = `defaults:
  user_agent: "topicrank/0.1 (https://example.org; ops@example.org)"
  politeness: {max_rps: 3, concurrency: 4}
  max_pages: 50
jobs:
  - name: tennis
    schedule: "0 2 * * *"
    seeds: [/wiki/Tennis]
    topics: [tennis, grand slam]
    max_pages: 1000
  - name: plain
    schedule: "@daily"
    seeds: [/wiki/Seattle, /wiki/Tacoma]
    weighted: false
    link_scope: legacy
    keep: 3
    epsilons: [0.001]
    politeness: {max_rps: 1}
`

func TestParseConfigMergesDefaults(t *testing.T) {
	cfg, err := ParseConfig("jobs.yaml", []byte(validYAML))
	if err != nil {
		t.Fatal(err)
	}
	tennis, _ := cfg.Job("tennis")
	plain, _ := cfg.Job("plain")
	if tennis.MaxPages != 1000 || tennis.MaxRPS != 3 || tennis.Concurrency != 4 || !tennis.Weighted ||
		tennis.BaseURL != "https://en.wikipedia.org" || tennis.Beta != 0.85 || len(tennis.Epsilons) != 2 || tennis.LinkScope != "prose" ||
		tennis.Strategy != "weighted" || tennis.Admission != "discovery" || tennis.RelevanceThreshold != DefaultRelevanceThreshold {
		t.Errorf("tennis = %+v", tennis)
	}
	// A job's politeness block replaces only the keys it names.
	if plain.MaxPages != 50 || plain.MaxRPS != 1 || plain.Concurrency != 4 || plain.Weighted || plain.Keep != 3 ||
		plain.LinkScope != "legacy" || len(plain.Epsilons) != 1 || tennis.Line != 6 || plain.Line != 11 {
		t.Errorf("plain = %+v", plain)
	}
	again, err := ParseConfig("jobs.yaml", []byte(validYAML))
	if err != nil {
		t.Fatal(err)
	}
	tennisAgain, _ := again.Job("tennis")
	if tennis.Digest() == plain.Digest() || tennis.Digest() != tennisAgain.Digest() {
		t.Error("digests must differ between jobs and be the same for the same job parsed twice")
	}
}

// Every error names the file, the line, the job and the field.
func TestParseConfigErrors(t *testing.T) {
	cases := []struct {
		old, new, want string
	}{
		{"    max_pages: 1000\n", "    max_pagez: 1000\n", `jobs.yaml:10: job "tennis": max_pagez: unknown key: did you mean max_pages?`},
		{"    max_pages: 1000\n", "    notify: [{url: \"ftp://hooks.example.org/s3cret\"}]\n", `jobs.yaml:10: job "tennis": notify[0]: url ftp://hooks.example.org/…: want http:// or https://`},
		{"    max_pages: 1000\n", "    notify:\n      - url: https://hooks.example.org/x\n        on: [run, chnage]\n", `jobs.yaml:11: job "tennis": notify[0]: on: "chnage" is not an event`},
		{"    max_pages: 1000\n", "    notify:\n      - {url: https://h.example.org/x, colour: red}\n", `jobs.yaml:11: job "tennis": colour: unknown key`},
		{"    max_pages: 1000\n", "    notify: https://h.example.org/x\n", `jobs.yaml:10: job "tennis": notify: want a list of {url: ..., on: [run, failure, change]}`},
		{"    max_pages: 1000\n", "    notify_timeout: 1h\n", `jobs.yaml:10: job "tennis": notify_timeout: 1h0m0s must be in (0, 10m0s]`},
		{"  - name: plain\n", "  - name: " + strings.Repeat("x", 300) + "\n", `jobs.yaml:11: job "` + strings.Repeat("x", 300) + `": name: is 300 characters: at most 100`},
		{"    max_pages: 1000\n", "    feed_entries: 0\n", `jobs.yaml:10: job "tennis": feed_entries: 0 must be in [1, 1000]`},
		{"    max_pages: 1000\n", "    colour: blue\n", `jobs.yaml:10: job "tennis": colour: unknown key (known: admission, base_url,`},
		{"    max_pages: 1000\n", "    max_pages: lots\n", `jobs.yaml:10: job "tennis": max_pages: want a whole number, got "lots"`},
		{"    max_pages: 1000\n", "    max_pages: [1]\n", `jobs.yaml:10: job "tennis": max_pages: want a whole number, got a list`},
		{"    epsilons: [0.001]\n", "    epsilons: [0.01, often]\n", `jobs.yaml:17: job "plain": epsilons: want a list of numbers, got "often" (item 2)`},
		{"    max_pages: 1000\n", "    max_pages: 0\n", `jobs.yaml:10: job "tennis": max_pages: must be between 1 and 10000000, got 0`},
		{"    max_pages: 1000\n", "    max_pages: 1000000000\n", `jobs.yaml:10: job "tennis": max_pages: must be between 1 and 10000000`},
		{"    max_pages: 1000\n", "    max_pages: 1000\n    max_pages: 5\n", `jobs.yaml:11: job "tennis": max_pages: duplicate key (first at line 10)`},
		{"    politeness: {max_rps: 1}\n", "    politeness: {max_rps: 1e-10}\n", `jobs.yaml:18: job "plain": politeness.max_rps: 1e-10 must be between 0.01 and 1000`},
		{"    politeness: {max_rps: 1}\n", "    politeness: {max_rps: 1, max_rps: 2}\n", `jobs.yaml:18: job "plain": max_rps: duplicate key (first at line 18)`},
		{`  user_agent: "topicrank/0.1 (https://example.org; ops@example.org)"`, `  user_agent: "topicrank/0.1 (ops@example.org)\r\nX-Evil: 1"`, `user_agent: holds the control character '\r' at byte 31`},
		{"  - name: plain\n", "  - name: tennis\n", `jobs.yaml:11: job "tennis": name: duplicate job name (first at line 6)`},
		{"  - name: plain\n", "  - name: ../evil\n", `jobs.yaml:11: job "../evil": name: "../evil" is not a safe path segment`},
		{"    seeds: [/wiki/Tennis]\n", "    seeds: []\n", `jobs.yaml:8: job "tennis": seeds: empty`},
		{"    seeds: [/wiki/Tennis]\n", "    seeds: [Tennis]\n", `jobs.yaml:8: job "tennis": seeds: "Tennis" is not an article path`},
		{"    seeds: [/wiki/Tennis]\n", "    seeds: [https://en.wikipedia.org/wiki/Seattle_Seahawks]\n", `jobs.yaml:8: job "tennis": seeds: "https://en.wikipedia.org/wiki/Seattle_Seahawks" is a URL: write its path, /wiki/Seattle_Seahawks`},
		{"    max_pages: 1000\n", "    max_pages: \"500\"\n", `jobs.yaml:10: job "tennis": max_pages: want a whole number, got "500": drop the quotes (500, not "500")`},
		{"    link_scope: legacy\n", "    timezone: PST\n", `jobs.yaml:15: job "plain": timezone: "PST": want an IANA zone such as America/Los_Angeles`},
		{"    seeds: [/wiki/Tennis]\n", "    seeds: [/wiki/Tennis, /wiki/Grand_Slam\n", `jobs.yaml:8: a flow sequence or mapping is not closed: a missing ']' or '}'`},
		{"    topics: [tennis, grand slam]\n", "    topics: [' ', '']\n", `jobs.yaml:9: job "tennis": topics: every entry is blank`},
		{"    epsilons: [0.001]\n", "    epsilons: [0.01, -1]\n", `jobs.yaml:17: job "plain": epsilons: -1 must be between 1e-15 and 2`},
		{"  max_pages: 50\n", "  max_pages: 50\n  beta: 1.5\n", `job "plain": beta: 1.5 must be in (0,1)`},
		{`    schedule: "@daily"`, `    schedule: "61 * * * *"`, `jobs.yaml:12: job "plain": schedule: "61 * * * *"`},
		{`  user_agent: "topicrank/0.1 (https://example.org; ops@example.org)"`, `  user_agent: "topicrank"`, `user_agent: "topicrank" has no contact`},
		{"    link_scope: legacy\n", "    link_scope: sidebar\n", `jobs.yaml:15: job "plain": link_scope: "sidebar": want prose, body or legacy`},
		{"    link_scope: legacy\n", "    timezone: Mars/Olympus\n", `jobs.yaml:15: job "plain": timezone: "Mars/Olympus": want an IANA zone`},
		{"    link_scope: legacy\n", "    timezone: Local\n", `job "plain": timezone: "Local": want an IANA zone`},
		{`    schedule: "@daily"`, `    schedule: "CRON_TZ=Asia/Tokyo 0 2 * * *"`, `job "plain": schedule: "CRON_TZ=Asia/Tokyo 0 2 * * *"`},
		{"    link_scope: legacy\n", "    strategy: greedy\n", `jobs.yaml:15: job "plain": strategy: unknown strategy "greedy": want one of weighted, bfs, word-rank, similarity`},
		{"    link_scope: legacy\n", "    admission: eager\n", `jobs.yaml:15: job "plain": admission: unknown admission "eager": want one of discovery, best-first`},
		{"    link_scope: legacy\n", "    relevance_threshold: 1.5\n", `jobs.yaml:15: job "plain": relevance_threshold: 1.5 must be in [0,1]`},
		{"    link_scope: legacy\n", "    relevance_threshold: -0.1\n", `jobs.yaml:15: job "plain": relevance_threshold: -0.1 must be in [0,1]`},
		{"    link_scope: legacy\n", "    max_frontier: 10\n", `jobs.yaml:15: job "plain": max_frontier: 10 is below max_pages (50)`},
		{"    link_scope: legacy\n", "    topic_pages: [no-such-page.html]\n", `jobs.yaml:15: job "plain": topic_pages: stat no-such-page.html: no such file`},
		{"    politeness: {max_rps: 1}\n", "    politeness: {max_rps: 1, burst: 3}\n", `jobs.yaml:18: job "plain": burst: unknown key`},
		{"defaults:\n", "defaults:\n  colour: blue\n", `jobs.yaml:2: defaults: colour: unknown key`},
		{"defaults:\n", "max_parallel_jobs: 0\ndefaults:\n", `jobs.yaml:1: max_parallel_jobs: 0 must be between 1 and 64`},
		{"defaults:\n", "max_parallel_jobs: many\ndefaults:\n", `jobs.yaml:1: max_parallel_jobs: want a whole number, got "many"`},
		{"    link_scope: legacy\n", "    state_dir: [a]\n", `jobs.yaml:15: job "plain": state_dir: want text, got a list`},
		{"    link_scope: legacy\n", "    max_depth: 0\n", `jobs.yaml:15: job "plain": max_depth: 0 must be at least 1`},
		{"    link_scope: legacy\n", "    include: ['(unclosed']\n", `jobs.yaml:15: job "plain": include: "(unclosed" is not a Go regexp: error parsing regexp: missing closing )`},
		{"    link_scope: legacy\n", "    exclude: ['a**']\n", `jobs.yaml:15: job "plain": exclude: "a**" is not a Go regexp`},
		{"    link_scope: legacy\n", "    near_duplicate_threshold: 1.5\n", `jobs.yaml:15: job "plain": near_duplicate_threshold: 1.5 must be in (0,1]`},
	}
	for _, c := range cases {
		if !strings.Contains(validYAML, c.old) {
			t.Fatalf("test edit %q does not apply", c.old)
		}
		_, err := ParseConfig("jobs.yaml", []byte(strings.Replace(validYAML, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("edit %q: err = %v\nwant it to contain %q", c.new, err, c.want)
		}
		if KindOf(err) != Invalid {
			t.Errorf("edit %q: kind %v, want Invalid", c.new, KindOf(err))
		}
	}
}

func TestParseConfigReportsEveryProblem(t *testing.T) {
	bad := strings.Replace(strings.Replace(validYAML, "max_pages: 1000", "max_pages: -1", 1), "link_scope: legacy", "link_scope: x", 1)
	_, err := ParseConfig("jobs.yaml", []byte(bad))
	if err == nil || !strings.Contains(err.Error(), "max_pages") || !strings.Contains(err.Error(), "link_scope") {
		t.Errorf("err = %v, want both problems", err)
	}
}

// A mis-indented line is named where the file breaks, as indentation;
// the YAML parser names the line its block began on.
func TestParseConfigIndentation(t *testing.T) {
	lines := strings.Split(validYAML, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "    - ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "    ") {
			continue
		}
		for _, indent := range []string{"   ", "     ", "\t"} {
			bad := slices.Clone(lines)
			bad[i] = indent + strings.TrimLeft(l, " ")
			_, err := ParseConfig("jobs.yaml", []byte(strings.Join(bad, "\n")))
			where := fmt.Sprintf("jobs.yaml:%d: ", i+1)
			if err == nil || !strings.Contains(err.Error(), where) || !strings.Contains(err.Error(), "indent") {
				t.Errorf("line %d indented %q: %v\nwant %q and a word on indentation", i+1, indent, err, where)
			}
		}
	}
}

// A folder where jobs.yaml was meant (a volume mounted by mistake) is
// named as such.
func TestLoadConfigFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "jobs.yaml")
	os.Mkdir(dir, 0o755)
	_, err := LoadConfig(dir)
	if err == nil || KindOf(err) != Invalid || !strings.Contains(err.Error(), dir+" is a folder, not a file") {
		t.Errorf("LoadConfig of a folder: %v", err)
	}
}

func TestParseConfigNotYAML(t *testing.T) {
	for _, in := range []string{"", "jobs: [", "- a\n- b\n", "defaults: {}\n"} {
		if _, err := ParseConfig("jobs.yaml", []byte(in)); err == nil || !strings.Contains(err.Error(), "jobs.yaml") {
			t.Errorf("%q: err = %v", in, err)
		}
	}
}

// topic_pages are found beside jobs.yaml, wherever the runner starts.
func TestTopicPagesResolveAgainstConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "coffee.txt"), []byte("espresso roast"), 0o644); err != nil {
		t.Fatal(err)
	}
	yml := strings.Replace(validYAML, "    link_scope: legacy\n", "    topic_pages: [coffee.txt]\n", 1)
	path := filepath.Join(dir, "jobs.yaml")
	cfg, err := ParseConfig(path, []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := cfg.Job("plain")
	if want := filepath.Join(dir, "coffee.txt"); len(plain.TopicPages) != 1 || plain.TopicPages[0] != want {
		t.Fatalf("topic_pages = %v, want [%s]", plain.TopicPages, want)
	}
	texts, err := TopicTexts(plain.TopicPages)
	if err != nil || len(texts) != 1 || texts[0] != "espresso roast" {
		t.Errorf("topicTexts = %q, %v", texts, err)
	}
}

// TestSearchIndexSetting: search_index defaults to on, a job may turn it
// off, and a value that is not a boolean is an error naming its line.
func TestSearchIndexSetting(t *testing.T) {
	head := "defaults:\n  user_agent: \"t/1 (ops@example.org)\"\njobs:\n  - name: j\n    seeds: [/wiki/A]\n"
	for yaml, want := range map[string]bool{"": true, "    search_index: true\n": true, "    search_index: false\n": false} {
		cfg, err := ParseConfig("jobs.yaml", []byte(head+yaml))
		if err != nil {
			t.Fatalf("%q: %v", yaml, err)
		}
		if got := cfg.Jobs[0].Indexed(); got != want {
			t.Errorf("%q: indexed %v, want %v", yaml, got, want)
		}
	}
	_, err := ParseConfig("jobs.yaml", []byte(head+"    search_index: sometimes\n"))
	if err == nil || !strings.Contains(err.Error(), `jobs.yaml:6: job "j": search_index:`) {
		t.Errorf("search_index: sometimes: %v", err)
	}
}
