package wikitest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Shared returns the path of ../shared beside the repository, or skips the
// test when it is absent (a user's clone has none; CI has it) or with
// -short: the tests on its real data are the long ones, and the README's
// test command is what a user's clone runs.
func Shared(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the test on ../shared's real data")
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test directory")
		}
		dir = parent
	}
	shared := filepath.Join(filepath.Dir(dir), "shared")
	if _, err := os.Stat(filepath.Join(shared, "DESIGN.md")); err != nil {
		t.Skipf("%s is absent: skipping the test on real data", shared)
	}
	return shared
}

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// Mirror starts ../shared/tools/wikimirror serving the real 2018 corpus
// with Wikipedia's 2023 robots.txt, plus extra flags, and returns its base
// URL. It skips the test when ../shared is absent and stops the mirror when
// the test ends.
func Mirror(t testing.TB, flags ...string) string {
	t.Helper()
	shared := Shared(t)
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "wikimirror")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "wikimirror")
		cmd := exec.Command("go", "build", "-o", binary, ".")
		cmd.Dir = filepath.Join(shared, "tools", "wikimirror")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("building wikimirror: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	args := append([]string{
		"-corpus", filepath.Join(shared, "data", "wikipedia-2018", "uw-cse373-en-wikipedia-2018.tar.zst"),
		"-robots", filepath.Join(shared, "data", "robots", "en.wikipedia.org-robots-2023.txt"),
	}, flags...)
	cmd := exec.Command(binary, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// The mirror prints "wikimirror: N pages at URL" once it listens,
	// after other notes (such as -closed's).
	rd := bufio.NewReader(stdout)
	for {
		line, err := rd.ReadString('\n')
		if _, url, ok := strings.Cut(strings.TrimSpace(line), " pages at "); ok {
			go io.Copy(io.Discard, rd) // never block the mirror on a full pipe
			return url
		}
		if err != nil {
			t.Fatalf("wikimirror did not start: last line %q: %v", line, err)
		}
	}
}

// MirrorStats is the part of the mirror's /_mirror/stats that tests check.
type MirrorStats struct {
	Requests         int            `json:"requests"`
	MaxInflight      int            `json:"max_inflight"`
	MaxRequestsIn1s  int            `json:"max_requests_in_1s"`
	RobotsViolations int            `json:"robots_violations"`
	Throttled        int            `json:"throttled"`
	Statuses         map[string]int `json:"statuses"`
}

// Stats fetches the mirror's counters.
func Stats(t testing.TB, base string) MirrorStats {
	t.Helper()
	resp, err := http.Get(base + "/_mirror/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s MirrorStats
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}
