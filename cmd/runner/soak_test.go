package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// soakFaults is the bad host of the soak: the fault mix of a night that
// must survive it, slow answers included.
const soakFaults = "503=0.02,429=0.01,reset=0.01,slow=0.01,trunc=0.01,garbage=0.01"

const soakJobs = `defaults:
  user_agent: "topicrank-test/0.1 (ops@example.org)"
  politeness: {max_rps: 1000, concurrency: 4}
  max_pages: 40
  epsilons: [0.01]
max_parallel_jobs: 2
jobs:
  - {name: seattle, schedule: "@every 1s", seeds: [/wiki/Seattle], topics: [seattle]}
  - {name: science, schedule: "@every 1s", seeds: [/wiki/Computer_science], topics: [computer]}
`

// TestSoak is a week of nights, compressed: runner schedule runs two jobs
// against the mirror with faults, its epochs (nights) advancing. First it
// is killed with SIGKILL at random moments and restarted: every published
// run stays whole, and each job's run after a restart (which resumes the
// killed one) has the graph of an uninterrupted run at the same epoch.
// Then one process runs on: its RSS and goroutines stay flat from its
// 10th run on (growth under 10%), its metrics equal its manifests, and a
// SIGTERM leaves no run half-written.
//
// TOPICRANK_SOAK_RUNS sets the runs (default 16, CI's short version); the
// README gives the long one.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("soak")
	}
	runs := 16
	if v := os.Getenv("TOPICRANK_SOAK_RUNS"); v != "" {
		var err error
		if runs, err = strconv.Atoi(v); err != nil || runs < 4 {
			t.Fatalf("TOPICRANK_SOAK_RUNS=%q: want a number of runs, at least 4", v)
		}
	}
	base := wikitest.Mirror(t, "-dynamic", "-faults", soakFaults)
	bin := buildRunner(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "jobs.yaml")
	if err := os.WriteFile(config, []byte(soakJobs), 0o644); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(runs), 7))
	epoch := 1
	setEpoch := func(e int) {
		resp, err := http.Get(fmt.Sprintf("%s/_mirror/epoch?set=%d", base, e))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	setEpoch(epoch)
	start := func(out string) (*exec.Cmd, *logLines, string) { return startSchedule(t, bin, config, out, base) }

	// Kills at random moments, each followed by a restart at the same
	// epoch whose first runs resume the killed ones.
	killed := filepath.Join(dir, "killed")
	published := 0
	cmd, logs, _ := start(killed)
	for published < runs/2 {
		for range 1 + rng.IntN(3) {
			logs.waitFor("a run", msg("run published"))
			published++
		}
		time.Sleep(time.Duration(rng.IntN(1500)) * time.Millisecond) // a random moment to kill at
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		for _, job := range []string{"seattle", "science"} {
			checkPublished(t, filepath.Join(killed, job))
		}
		cmd, logs, _ = start(killed)
		for _, job := range []string{"seattle", "science"} {
			run := logs.waitFor("the run of "+job+" after the restart", msg("run published", "job", job))
			published++
			if run["status"] != "complete" {
				continue
			}
			got, err := os.ReadFile(filepath.Join(fmt.Sprint(run["dir"]), "graph.txt"))
			if err != nil {
				t.Fatal(err)
			}
			ref := filepath.Join(dir, fmt.Sprintf("ref-%d", published))
			if out, err := exec.Command(bin, "run", "-config", config, "-job", job, "-out", ref, "-base-url", base).CombinedOutput(); err != nil {
				t.Fatalf("reference run: %v\n%s", err, out)
			}
			want, _ := filepath.Glob(filepath.Join(ref, job, "2*", "graph.txt"))
			if len(want) != 1 {
				t.Fatalf("reference run of %s: %v", job, want)
			}
			if b, err := os.ReadFile(want[0]); err != nil || string(b) != string(got) {
				t.Errorf("epoch %d: %s's run after a kill has another graph than an uninterrupted run (%v)", epoch, job, err)
			}
		}
		epoch++
		setEpoch(epoch) // the next night, while the restarted process runs on
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	// One process, run after run, epochs advancing.
	steady := filepath.Join(dir, "steady")
	cmd, logs, addr := start(steady)
	var rss, goroutines []float64
	for n := 1; n <= runs-published || n <= 12; n++ {
		logs.waitFor("a run", msg("run published"))
		r, g := processMetrics(t, addr)
		rss, goroutines = append(rss, r), append(goroutines, g)
		if n%4 == 0 {
			epoch++
			setEpoch(epoch)
		}
	}
	checkMetricsMatchManifests(t, addr, steady, []string{"seattle", "science"})
	cmd.Process.Signal(syscall.SIGTERM)
	logs.waitFor("the stop", msg("stopping: running jobs publish what they have"))
	for range logs.lines {
	}
	cmd.Wait()
	for _, job := range []string{"seattle", "science"} {
		checkRunsWhole(t, filepath.Join(steady, job))
	}
	t.Logf("RSS MB by run: %v", scaled(rss, 1<<20))
	t.Logf("goroutines by run: %v", goroutines)
	// RSS follows the collector's cycles (±20% run to run here): the
	// medians of ten runs from the 10th on and of the last ten are
	// compared, which a leak moves and a collection does not.
	if len(rss) >= 29 {
		for name, s := range map[string][]float64{"RSS": rss, "goroutines": goroutines} {
			early, late := median(s[9:19]), median(s[len(s)-10:])
			if late > 1.1*early {
				t.Errorf("%s grew %.0f%% from the 10th run to the last (medians of ten runs): %v", name, 100*(late/early-1), s)
			}
		}
	}
}

// processMetrics scrapes the process's resident memory and goroutines.
func processMetrics(t *testing.T, addr string) (rss, goroutines float64) {
	t.Helper()
	_, body := httpGet(t, "http://"+addr+"/metrics")
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) float64 {
		f := families[name]
		if f == nil || len(f.Metric) == 0 {
			t.Fatalf("no %s in /metrics", name)
		}
		return f.Metric[0].GetGauge().GetValue()
	}
	return get("process_resident_memory_bytes"), get("go_goroutines")
}

func scaled(s []float64, by float64) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%.0f", v/by)
	}
	return out
}

func median(s []float64) float64 {
	s = slices.Sorted(slices.Values(s))
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}
