package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// buildRunner builds the runner binary as the Dockerfile does.
func buildRunner(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "runner")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// logLines reads a runner's JSON log lines as they come.
type logLines struct {
	t     *testing.T
	lines chan map[string]any
	all   bytes.Buffer
}

func readLogs(t *testing.T, r io.Reader) *logLines {
	l := &logLines{t: t, lines: make(chan map[string]any, 1000)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				l.lines <- m
			}
		}
		close(l.lines)
	}()
	return l
}

// waitFor returns the next line for which match is true; two minutes
// without one fail the test (a bound on failure, not a synchronisation).
func (l *logLines) waitFor(what string, match func(map[string]any) bool) map[string]any {
	l.t.Helper()
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case m, ok := <-l.lines:
			if !ok {
				l.t.Fatalf("the runner ended before logging %s\n%s", what, l.all.String())
			}
			b, _ := json.Marshal(m)
			l.all.Write(append(b, '\n'))
			if match(m) {
				return m
			}
		case <-deadline:
			l.t.Fatalf("no %s logged within two minutes\n%s", what, l.all.String())
		}
	}
}

func msg(text string, kv ...string) func(map[string]any) bool {
	return func(m map[string]any) bool {
		if m["msg"] != text {
			return false
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if fmt.Sprint(m[kv[i]]) != kv[i+1] {
				return false
			}
		}
		return true
	}
}

const scheduledJobs = `defaults:
  user_agent: "topicrank-test/0.1 (ops@example.org)"
  politeness: {max_rps: 1000, concurrency: 4}
  max_pages: 30
max_parallel_jobs: 2
jobs:
  - {name: one, schedule: "@every 2s", seeds: [/wiki/Page_0], topics: [tennis]}
  - {name: two, schedule: "@every 3s", seeds: [/wiki/Page_1], topics: [tennis]}
`

// runner schedule, as an operator runs it: two jobs on short schedules
// survive an added job, an invalid edit and SIGHUP, serve metrics that
// match the manifests, and stop on SIGTERM with every published run whole.
func TestScheduleEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the runner")
	}
	w := wikitest.New(t, 200)
	bin := buildRunner(t)
	dir, out := t.TempDir(), t.TempDir()
	config := filepath.Join(dir, "jobs.yaml")
	replace := func(content string) { // as editors do: a new file renamed over the old
		tmp := config + ".new"
		if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, config); err != nil {
			t.Fatal(err)
		}
	}
	replace(scheduledJobs)
	cmd, logs, addr := startSchedule(t, bin, config, out, w.URL())
	logs.waitFor("a run of one", msg("run published", "job", "one"))
	logs.waitFor("a run of two", msg("run published", "job", "two"))

	withThree := scheduledJobs + "  - {name: three, schedule: \"@every 2s\", seeds: [/wiki/Page_2]}\n"
	replace(withThree)
	logs.waitFor("the reload adding three", msg("jobs.yaml reloaded", "added", "[three]"))
	replace(strings.Replace(withThree, "max_pages: 30", "max_pages: -1", 1))
	bad := logs.waitFor("the invalid edit", msg("jobs.yaml not reloaded: the jobs stay as they were; fix the file"))
	if !strings.Contains(fmt.Sprint(bad["err"]), "jobs.yaml:7: job \"one\": max_pages") {
		t.Errorf("the invalid edit's error names no file:line: %v", bad["err"])
	}
	cmd.Process.Signal(syscall.SIGHUP)
	logs.waitFor("the SIGHUP reload", msg("jobs.yaml not reloaded: the jobs stay as they were; fix the file", "trigger", "SIGHUP"))
	logs.waitFor("a run of three", msg("run published", "job", "three"))
	logs.waitFor("a run of one after the edits", msg("run published", "job", "one"))

	if code, body := httpGet(t, "http://"+addr+"/healthz"); code != 200 {
		t.Errorf("/healthz: %d %s", code, body)
	}
	checkMetricsMatchManifests(t, addr, out, []string{"one", "two", "three"})

	cmd.Process.Signal(syscall.SIGTERM)
	logs.waitFor("the stop", msg("stopping: running jobs publish what they have"))
	for range logs.lines { // drain to the end
	}
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit %d (%v) after SIGTERM, want 0: a run cut short is published as partial, not failed", code, err)
	}
	for _, job := range []string{"one", "two", "three"} {
		checkRunsWhole(t, filepath.Join(out, job))
	}
}

// startSchedule starts runner schedule with metrics on a free port and
// returns it, its logs and the metrics address; it is killed with the test.
func startSchedule(t *testing.T, bin, config, out, base string) (*exec.Cmd, *logLines, string) {
	t.Helper()
	cmd := exec.Command(bin, "schedule", "-config", config, "-out", out, "-base-url", base, "-metrics-addr", "127.0.0.1:0", "-grace", "1m")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	logs := readLogs(t, stderr)
	addr := logs.waitFor("the metrics address", msg("serving metrics"))["addr"].(string)
	return cmd, logs, addr
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// checkMetricsMatchManifests compares runs_total and pages_total with the
// manifests on disk. A run publishes before it is counted, so the scrape
// is repeated until two scrapes agree with the disk between them.
func checkMetricsMatchManifests(t *testing.T, addr, out string, jobs []string) {
	t.Helper()
	var got, want map[string]float64
	for try := 0; try < 50; try++ {
		first := scrape(t, addr)
		want = fromManifests(t, out, jobs)
		got = scrape(t, addr)
		if equal(first, got) && equal(got, want) {
			return
		}
	}
	t.Errorf("metrics %v\nmanifests %v", got, want)
}

func equal(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// scrape returns runs_total and pages_total series as "name{job,label}".
func scrape(t *testing.T, addr string) map[string]float64 {
	_, body := httpGet(t, "http://"+addr+"/metrics")
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, name := range []string{"topicrank_runs_total", "topicrank_pages_total"} {
		f := families[name]
		if f == nil {
			continue
		}
		for _, m := range f.Metric {
			var labels []string
			for _, l := range m.Label {
				labels = append(labels, l.GetValue())
			}
			out[name+"{"+strings.Join(labels, ",")+"}"] = m.Counter.GetValue()
		}
	}
	return out
}

func fromManifests(t *testing.T, out string, jobs []string) map[string]float64 {
	want := map[string]float64{}
	for _, job := range jobs {
		for _, dir := range []string{filepath.Join(out, job), filepath.Join(out, job, "partial")} {
			manifests, _ := filepath.Glob(filepath.Join(dir, "*", "manifest.json"))
			for _, p := range manifests {
				var m pipeline.Manifest
				b, err := os.ReadFile(p)
				if err != nil || json.Unmarshal(b, &m) != nil {
					t.Fatalf("manifest %s: %v", p, err)
				}
				want["topicrank_runs_total{"+job+","+m.Status+"}"]++
				for _, state := range crawl.FetchStates {
					want["topicrank_pages_total{"+job+","+string(state)+"}"] += float64(m.Counts.Of(state))
				}
			}
		}
	}
	return want
}

// checkRunsWhole checks that every published run of a job, complete or
// partial, holds exactly the files its manifest lists, with their sha256,
// and that nothing is left being written.
func checkRunsWhole(t *testing.T, jobDir string) {
	t.Helper()
	if entries, _ := os.ReadDir(filepath.Join(jobDir, ".tmp")); len(entries) > 0 {
		t.Errorf("%s/.tmp holds %d runs being written after the stop", jobDir, len(entries))
	}
	if manifests, _ := filepath.Glob(filepath.Join(jobDir, "*", "manifest.json")); len(manifests) == 0 {
		t.Errorf("%s: no complete run", jobDir)
	}
	checkPublished(t, jobDir)
}

// checkPublished checks that every published run of a job, complete or
// partial, holds exactly the files its manifest lists, with their sha256.
func checkPublished(t *testing.T, jobDir string) {
	t.Helper()
	manifests, _ := filepath.Glob(filepath.Join(jobDir, "*", "manifest.json"))
	partial, _ := filepath.Glob(filepath.Join(jobDir, "partial", "*", "manifest.json"))
	for _, p := range append(manifests, partial...) {
		var m pipeline.Manifest
		b, _ := os.ReadFile(p)
		if err := json.Unmarshal(b, &m); err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		for _, f := range m.Files {
			data, err := os.ReadFile(filepath.Join(filepath.Dir(p), f.Path))
			sum := sha256.Sum256(data)
			if err != nil || hex.EncodeToString(sum[:]) != f.SHA256 {
				t.Errorf("%s: %s is not the file the manifest lists (%v)", filepath.Dir(p), f.Path, err)
			}
		}
	}
}
