//go:build linux && cgo

package deploy_test

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/marcboeker/go-duckdb" // real DuckDB, for tests only

	"github.com/topicrank/topicrank/internal/snapshot"
)

// TestContainer builds the image from the Dockerfile (offline, as
// deploy/container/build-offline.sh does) and runs it as the Kubernetes
// CronJob describes, against the demo's snapshot served on the loopback:
// validate, a read-only run into volumes, schedule with metrics, reload,
// SIGTERM and resume, a job in another time zone, and bad volumes. It
// needs podman (TOPICRANK_PODMAN gives the command, e.g. "podman
// --runtime runc"; .ci/run installs and sets it).
func TestContainer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds an image and runs containers (minutes)")
	}
	c := newEngine(t)
	image := "localhost/topicrank:test"
	build := exec.Command("container/build-offline.sh", image)
	build.Env = append(os.Environ(), "ENGINE="+strings.Join(c.cmd, " "), "VERSION=v0.0.0-containertest")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build-offline.sh: %v\n%s", err, out)
	}
	size, _ := c.output(t, "image", "inspect", "--format", "{{.Size}}", image)
	t.Logf("image %s: %s bytes", image, strings.TrimSpace(size))
	if v, _ := c.output(t, "run", "--rm", image, "--version"); !strings.Contains(v, "v0.0.0-containertest") {
		t.Fatalf("the image's runner: %q", v)
	}
	cj := cronJobSpec(t)
	url := serveSnapshot(t)

	t.Run("validate", func(t *testing.T) {
		cfg := c.folder(t, jobsFor(t, ""), 0)
		if out, err := c.output(t, "run", "--rm", "-v", cfg+":/config:ro", image, "validate", "-config", "/config/jobs.yaml"); err != nil {
			t.Errorf("validate: %v\n%s", err, out)
		}
		bad := c.folder(t, strings.Replace(jobsFor(t, ""), "max_pages: 60", "max_pages: lots", 1), 0)
		out, err := c.output(t, "run", "--rm", "-v", bad+":/config:ro", image, "validate", "-config", "/config/jobs.yaml")
		if exitCode(err) != 2 || !strings.Contains(out, "/config/jobs.yaml:") || !strings.Contains(out, `want a whole number, got "lots"`) {
			t.Errorf("a broken jobs.yaml: exit %d\n%s", exitCode(err), out)
		}
		asDir := t.TempDir()
		out, err = c.output(t, "run", "--rm", "-v", asDir+":/config/jobs.yaml:ro", image, "validate", "-config", "/config/jobs.yaml")
		if exitCode(err) != 2 || !strings.Contains(out, "/config/jobs.yaml is a folder, not a file") {
			t.Errorf("jobs.yaml mounted as a folder: exit %d\n%s", exitCode(err), out)
		}
	})

	t.Run("run", func(t *testing.T) {
		cfg, out, state := c.folder(t, jobsFor(t, ""), 0), c.folder(t, "", cj.uid), c.folder(t, "", cj.uid)
		args := cj.podmanArgs(map[string]string{"/config": cfg, "/data/outputs": out, "/data/state": state})
		got, err := c.output(t, append(append(args, image), append(cj.args, "-base-url", url)...)...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(cj.args, " "), err, got)
		}
		checkRunWhole(t, out, "seattle", cj.uid)
		if _, err := os.Stat(filepath.Join(state, "seattle", "crawl-state.sqlite")); err != nil {
			t.Errorf("the crawl state is not in its volume: %v", err)
		}
		// A volume the image's user cannot write: an error naming it and the uid.
		rootOwned := c.folder(t, "", 0)
		args = cj.podmanArgs(map[string]string{"/config": cfg, "/data/outputs": rootOwned, "/data/state": state})
		got, err = c.output(t, append(append(args, image), append(cj.args, "-base-url", url)...)...)
		if exitCode(err) != 2 || !strings.Contains(got, "/data/outputs/seattle is not writable by uid 65532") {
			t.Errorf("an output volume owned by root: exit %d\n%s", exitCode(err), got)
		}
	})

	t.Run("schedule", func(t *testing.T) { testSchedule(t, c, image, url, cj) })
}

// engine runs podman (or what TOPICRANK_PODMAN names).
type engine struct{ cmd []string }

func newEngine(t *testing.T) *engine {
	c := &engine{strings.Fields(os.Getenv("TOPICRANK_PODMAN"))}
	if len(c.cmd) == 0 {
		c.cmd = []string{"podman"}
	}
	if _, err := exec.LookPath(c.cmd[0]); err != nil {
		t.Skipf("%s is not installed: the image is not built or run (apt-get install podman runc)", c.cmd[0])
	}
	if out, err := exec.Command(c.cmd[0], append(c.cmd[1:], "info")...).CombinedOutput(); err != nil {
		t.Skipf("%s cannot run containers here: %v\n%s", c.cmd[0], err, out)
	}
	return c
}

// output runs the engine with args and returns its output, stdout and
// stderr together.
func (c *engine) output(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, err := exec.Command(c.cmd[0], append(c.cmd[1:], args...)...).CombinedOutput()
	return string(out), err
}

// folder makes a host folder for a volume, owned by uid, holding
// jobs.yaml if given.
func (c *engine) folder(t *testing.T, jobs string, uid int) string {
	dir := t.TempDir()
	if jobs != "" {
		if err := os.WriteFile(filepath.Join(dir, "jobs.yaml"), []byte(jobs), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(dir, uid, uid); err != nil {
		t.Fatal(err)
	}
	return dir
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// serveSnapshot serves the demo's snapshot on the loopback (a container
// on the host's network reaches it) and returns its URL.
func serveSnapshot(t *testing.T) string {
	snap, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: snapshot.NewServer(snap)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// checkRunWhole checks the job's newest complete run under out: every file
// its manifest lists has its sha256, everything is owned by uid, and
// DuckDB on the host reads its pages.
func checkRunWhole(t *testing.T, out, job string, uid int) {
	t.Helper()
	latest, err := os.ReadFile(filepath.Join(out, job, "LATEST"))
	if err != nil {
		t.Fatalf("no complete run of %s: %v", job, err)
	}
	dir := filepath.Join(out, job, strings.TrimSpace(string(latest)))
	var m struct {
		Counts struct{ Vertices int }
		Files  []struct{ Path, SHA256 string }
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil || json.Unmarshal(b, &m) != nil || len(m.Files) == 0 {
		t.Fatalf("manifest: %v", err)
	}
	for _, f := range m.Files {
		b, err := os.ReadFile(filepath.Join(dir, f.Path))
		sum := sha256.Sum256(b)
		if err != nil || hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Errorf("%s: %v, or its sha256 differs from the manifest's", f.Path, err)
		}
	}
	filepath.Walk(filepath.Join(out, job), func(path string, fi os.FileInfo, err error) error {
		if st, ok := fi.Sys().(*syscall.Stat_t); err == nil && ok && int(st.Uid) != uid {
			t.Errorf("%s is owned by uid %d, want the image's %d", path, st.Uid, uid)
		}
		return nil
	})
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(fmt.Sprintf("SELECT count(*) FROM read_parquet('%s/pages.parquet')", dir)).Scan(&n); err != nil || n != m.Counts.Vertices {
		t.Errorf("DuckDB on the host reads %d pages (%v), the manifest says %d", n, err, m.Counts.Vertices)
	}
}

// jobsFor is the ConfigMap's jobs.yaml at a mirror's pace and size, with
// extra jobs appended.
func jobsFor(t *testing.T, extra string) string {
	cm := objects(t)["ConfigMap/topicrank-jobs"]
	jobs := get(cm, "data", "jobs.yaml").(string)
	for old, new := range map[string]string{
		"max_pages: 1000":                          "max_pages: 60",
		"politeness: {max_rps: 2, concurrency: 2}": "politeness: {max_rps: 100, concurrency: 4}",
	} {
		if !strings.Contains(jobs, old) {
			t.Fatalf("the ConfigMap's jobs.yaml has no %q to change", old)
		}
		jobs = strings.Replace(jobs, old, new, 1)
	}
	return jobs + extra
}

// podmanLogs returns the container's log so far.
func (c *engine) logs(t *testing.T, name string) string {
	out, _ := c.output(t, "logs", name)
	return out
}

// waitFor polls cond every 100 ms until it holds or the deadline passes
// (a bound on failure, not a synchronisation: the container is another
// process, and its log and files are how it speaks).
func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(within); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s: not within %s", what, within)
		}
	}
}

// has reports whether the log holds a JSON line with msg and the fields.
func has(log, msg string, fields ...string) bool {
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, `"msg":"`+msg) {
			continue
		}
		ok := true
		for _, f := range fields {
			ok = ok && strings.Contains(line, f)
		}
		if ok {
			return true
		}
	}
	return false
}
