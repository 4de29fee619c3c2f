package deploy_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// buildRunner builds the runner as the Dockerfile's build command does,
// outside Docker: its RUN line with the cache mounts taken out and /out
// under dir. It returns the binary's path.
func buildRunner(t *testing.T, dir string) string {
	t.Helper()
	cmd := dockerfileBuild(t)
	cmd = strings.ReplaceAll(cmd, "/out/", dir+"/")
	sh := exec.Command("sh", "-c", cmd)
	sh.Dir = ".."
	sh.Env = append(os.Environ(), "VERSION=v0.0.0-deploytest")
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("the Dockerfile's build command %q: %v\n%s", cmd, err, out)
	}
	return filepath.Join(dir, "runner")
}

// dockerfileBuild returns the Dockerfile's RUN command that builds the
// runner, continuation lines joined and --mount options removed.
func dockerfileBuild(t *testing.T) string {
	t.Helper()
	f, err := os.Open("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	var cur string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		lines = append(lines, cur+l)
		cur = ""
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "RUN ") && strings.Contains(l, "go build") {
			return regexp.MustCompile(`--mount=\S+\s*`).ReplaceAllString(strings.TrimPrefix(l, "RUN "), "")
		}
	}
	t.Fatal("no RUN line with go build in the Dockerfile")
	return ""
}

// The Dockerfile: its build command works as written (outside Docker),
// the version reaches --version, caches are mounted, /data belongs to the
// image's user.
func TestDockerfile(t *testing.T) {
	b, _ := os.ReadFile("../Dockerfile")
	df := string(b)
	for _, want := range []string{
		"--mount=type=cache,target=/go/pkg/mod",
		"--mount=type=cache,target=/root/.cache/go-build",
		"COPY --from=runner --chown=" + strconv.Itoa(imageUID(t)) + ":",
	} {
		if !strings.Contains(df, want) {
			t.Errorf("the Dockerfile lacks %q", want)
		}
	}
	if !regexp.MustCompile(`(?m)^COPY --from=runner --chown=\S+ /out/data /data$`).MatchString(df) {
		t.Error("/data is not copied in owned by the image's user")
	}
	// The offline build builds the runner with the Dockerfile's own command.
	script, _ := os.ReadFile("container/build-offline.sh")
	offline := strings.ReplaceAll(strings.ReplaceAll(string(script), "\\\n", " "), `"$out/`, "/out/")
	offline = strings.ReplaceAll(offline, `runner"`, "runner")
	offline = strings.ReplaceAll(offline, `outputs")`, "outputs")
	if want := dockerfileBuild(t); !strings.Contains(strings.Join(strings.Fields(offline), " "), strings.Join(strings.Fields(want), " ")) {
		t.Errorf("container/build-offline.sh does not build with the Dockerfile's command %q", want)
	}
	if testing.Short() {
		t.Skip("-short: the Dockerfile's build command rebuilds every package with its flags (minutes)")
	}
	bin := buildRunner(t, t.TempDir())
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "topicrank runner v0.0.0-deploytest" {
		t.Errorf("runner --version: %q, %v", out, err)
	}
	if st, err := os.Stat(filepath.Join(filepath.Dir(bin), "data", "outputs")); err != nil || !st.IsDir() {
		t.Errorf("the build command made no data/outputs: %v", err)
	}
}

// The systemd units pass `systemd-analyze verify` (with the runner built
// where ExecStart names it) without a warning, and score "OK" or better
// in `systemd-analyze security`.
func TestSystemd(t *testing.T) {
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Skip("systemd-analyze is not installed")
	}
	dir := t.TempDir()
	bin := buildRunner(t, t.TempDir())
	units, _ := filepath.Glob("systemd/*")
	var names []string
	for _, u := range units {
		b, err := os.ReadFile(u)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.ReplaceAll(string(b), "/usr/local/bin/runner", bin)
		os.WriteFile(filepath.Join(dir, filepath.Base(u)), []byte(s), 0o644)
		names = append(names, filepath.Base(u))
		for _, want := range []string{"DynamicUser=yes", "StateDirectory=topicrank", "ProtectSystem=strict", "NoNewPrivileges=yes"} {
			if strings.HasSuffix(u, ".service") && !strings.Contains(s, want+"\n") && !strings.Contains(s, want+" ") {
				t.Errorf("%s lacks %s", u, want)
			}
		}
	}
	verify := exec.Command("systemd-analyze", append([]string{"verify"}, names...)...)
	verify.Dir = dir
	if out, err := verify.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	for _, n := range names {
		if !strings.HasSuffix(n, ".service") {
			continue
		}
		sec := exec.Command("systemd-analyze", "security", "--offline=yes", n)
		sec.Dir = dir
		out, _ := sec.CombinedOutput()
		m := regexp.MustCompile(`Overall exposure level for \S+: ([0-9.]+)`).FindSubmatch(out)
		if m == nil {
			t.Errorf("%s: no exposure level in\n%s", n, out)
			continue
		}
		if level, _ := strconv.ParseFloat(string(m[1]), 64); level > 2 {
			t.Errorf("%s: exposure %v, want 2 or less (OK)", n, level)
		}
	}
}
