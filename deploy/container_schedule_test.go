//go:build linux && cgo

package deploy_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cronJob is what the test takes from deploy/kubernetes/cronjob.yaml, so
// that the container it runs is the one the CronJob describes.
type cronJob struct {
	args            []string
	uid, gid        int
	readOnlyRoot    bool
	dropAll, noPriv bool
	env             []string
	mounts          map[string]string // mount path -> "emptyDir", "ro" or "rw"
}

func cronJobSpec(t *testing.T) cronJob {
	objs := objects(t)
	pod := get(objs["CronJob/topicrank-en-wikipedia"], "spec", "jobTemplate", "spec", "template", "spec")
	c := get(pod, "containers", 0)
	cj := cronJob{args: toStrings(get(c, "args")), mounts: map[string]string{},
		uid: get(pod, "securityContext", "runAsUser").(int), gid: get(pod, "securityContext", "runAsGroup").(int)}
	cj.readOnlyRoot, _ = get(c, "securityContext", "readOnlyRootFilesystem").(bool)
	priv, _ := get(c, "securityContext", "allowPrivilegeEscalation").(bool)
	cj.noPriv = !priv
	cj.dropAll = strings.Join(toStrings(get(c, "securityContext", "capabilities", "drop")), ",") == "ALL"
	for i := 0; get(c, "env", i) != nil; i++ {
		cj.env = append(cj.env, fmt.Sprintf("%s=%s", get(c, "env", i, "name"), get(c, "env", i, "value")))
	}
	for path, backing := range mountsOf(t, objs, pod, c) {
		cj.mounts[path] = "rw"
		if backing == "emptyDir" {
			cj.mounts[path] = "emptyDir"
		}
	}
	for i := 0; get(c, "volumeMounts", i) != nil; i++ {
		if ro, _ := get(c, "volumeMounts", i, "readOnly").(bool); ro {
			cj.mounts[get(c, "volumeMounts", i, "mountPath").(string)] = "ro"
		}
	}
	if cj.uid != imageUID(t) || len(cj.args) == 0 || cj.args[0] != "run" {
		t.Fatalf("the CronJob runs %v as uid %d; the image's user is %d", cj.args, cj.uid, imageUID(t))
	}
	return cj
}

// podmanArgs are `run`'s flags for the CronJob's container, its volumes
// backed by the host folders given by mount path.
func (cj cronJob) podmanArgs(host map[string]string) []string {
	args := []string{"run", "--rm", "--network", "host", "--user", fmt.Sprintf("%d:%d", cj.uid, cj.gid)}
	if cj.readOnlyRoot {
		args = append(args, "--read-only")
	}
	if cj.dropAll {
		args = append(args, "--cap-drop", "ALL")
	}
	if cj.noPriv {
		args = append(args, "--security-opt", "no-new-privileges")
	}
	for _, e := range cj.env {
		args = append(args, "-e", e)
	}
	for path, kind := range cj.mounts {
		switch kind {
		case "emptyDir":
			args = append(args, "--tmpfs", path)
		case "ro":
			args = append(args, "-v", host[path]+":"+path+":ro")
		default:
			args = append(args, "-v", host[path]+":"+path)
		}
	}
	return args
}

// testSchedule runs `runner schedule` in the CronJob's container: health
// and metrics from the host, a reload of the mounted jobs.yaml, a job in
// another time zone firing on time, and SIGTERM during a crawl (a partial
// run, exit 0) followed by a start that resumes it.
func testSchedule(t *testing.T, c *engine, image, url string, cj cronJob) {
	zone, err := time.LoadLocation("Asia/Kathmandu") // UTC+5:45: no other zone's hour gives its minute
	if err != nil {
		t.Fatal(err)
	}
	fire := time.Now().Add(90 * time.Second).In(zone).Truncate(time.Minute)
	jobs := "max_parallel_jobs: 4\n" + strings.Replace(strings.Replace(strings.Replace(jobsFor(t, fmt.Sprintf(
		"  - {name: tz, schedule: \"%d %d * * *\", timezone: Asia/Kathmandu, seeds: [/wiki/Seattle], topics: [seattle], max_pages: 5}\n",
		fire.Minute(), fire.Hour())),
		`schedule: "30 2 * * *"`, `schedule: "@every 15s"`, 1), "max_pages: 60", "max_pages: 150", 1),
		"politeness: {max_rps: 100, concurrency: 4}", "politeness: {max_rps: 5, concurrency: 2}", 1)
	cfg, out, state := c.folder(t, jobs, 0), c.folder(t, "", cj.uid), c.folder(t, "", cj.uid)
	port := freePort(t)
	name := "topicrank-test-" + strconv.Itoa(os.Getpid())
	args := cj.podmanArgs(map[string]string{"/config": cfg, "/data/outputs": out, "/data/state": state})
	args = append(append([]string{"run", "-d", "--name", name}, args[2:]...), image,
		"schedule", "-config", "/config/jobs.yaml", "-out", "/data/outputs", "-metrics-addr", "127.0.0.1:"+port,
		"-base-url", url, "-grace", "60s")
	if out, err := c.output(t, args...); err != nil {
		t.Fatalf("podman run: %v\n%s", err, out)
	}
	t.Cleanup(func() { c.output(t, "rm", "-f", name) })
	base := "http://127.0.0.1:" + port
	waitFor(t, "/healthz answering 200", time.Minute, func() bool { code, _ := httpGet(base + "/healthz"); return code == 200 })
	if _, body := httpGet(base + "/metrics"); !strings.Contains(body, "topicrank_build_info") {
		t.Errorf("/metrics from the host: %.200s", body)
	}

	// An edit of the mounted jobs.yaml, as editors make it: a new file renamed over the old.
	tmp := filepath.Join(cfg, "jobs.yaml.new")
	os.WriteFile(tmp, []byte(jobs+"  - {name: second, schedule: \"@daily\", seeds: [/wiki/Seattle]}\n"), 0o644)
	if err := os.Rename(tmp, filepath.Join(cfg, "jobs.yaml")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the reload of the edited jobs.yaml", time.Minute, func() bool {
		return has(c.logs(t, name), "jobs.yaml reloaded", `"added":["second"]`)
	})

	// The job in Kathmandu's time fires at its minute there.
	waitFor(t, "the tz job's run", time.Until(fire)+time.Minute, func() bool { return runIDs(out, "tz") != nil })
	if id := runIDs(out, "tz")[0]; id < fire.UTC().Format("20060102T150405Z") || id > fire.UTC().Add(5*time.Second).Format("20060102T150405Z") {
		t.Errorf("the tz job ran at %s, want %s (%s in Asia/Kathmandu)", id, fire.UTC().Format(time.RFC3339), fire.Format("15:04"))
	}

	// SIGTERM during a crawl: the run is published as partial, exit 0. The
	// frontier gauge is set only while a crawl goes; 20 pages queued at 5
	// requests/s leave it seconds to go, so the stop lands in the crawl,
	// not in the publication after it.
	waitFor(t, "a seattle crawl with 20 pages to go", 2*time.Minute, func() bool {
		_, body := httpGet(base + "/metrics")
		m := regexp.MustCompile(`topicrank_frontier_pages\{job="seattle"\} (\d+)`).FindStringSubmatch(body)
		n := 0
		if m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		return n >= 20
	})
	start := time.Now()
	if out, err := c.output(t, "stop", "-t", "60", name); err != nil {
		t.Fatalf("podman stop: %v\n%s", err, out)
	}
	t.Logf("stopped in %s", time.Since(start).Round(time.Millisecond))
	if code, _ := c.output(t, "inspect", "--format", "{{.State.ExitCode}}", name); strings.TrimSpace(code) != "0" {
		t.Errorf("exit code %s after SIGTERM, want 0\n%s", code, c.logs(t, name))
	}
	partial, _ := filepath.Glob(filepath.Join(out, "seattle", "partial", "*", "manifest.json"))
	if len(partial) == 0 || !has(c.logs(t, name), "run interrupted by the stop and published as partial") {
		t.Fatalf("no partial run after the stop\n%s", c.logs(t, name))
	}
	cut := filepath.Base(filepath.Dir(partial[len(partial)-1]))

	// Started again, the next run resumes the partial one.
	if out, err := c.output(t, "start", name); err != nil {
		t.Fatalf("podman start: %v\n%s", err, out)
	}
	waitFor(t, "a run resuming "+cut, 2*time.Minute, func() bool {
		for _, id := range runIDs(out, "seattle") {
			var m struct {
				ResumedFrom string `json:"resumed_from"`
			}
			b, _ := os.ReadFile(filepath.Join(out, "seattle", id, "manifest.json"))
			if json.Unmarshal(b, &m) == nil && m.ResumedFrom == cut {
				return true
			}
		}
		return false
	})
	c.output(t, "stop", "-t", "60", name)
	checkRunWhole(t, out, "seattle", cj.uid)
}

// runIDs lists a job's complete runs under out.
func runIDs(out, job string) []string {
	ms, _ := filepath.Glob(filepath.Join(out, job, "2*", "manifest.json"))
	var ids []string
	for _, m := range ms {
		ids = append(ids, filepath.Base(filepath.Dir(m)))
	}
	return ids
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

func httpGet(url string) (int, string) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
