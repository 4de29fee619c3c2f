// Package nobody runs a test again in a child process as the unprivileged
// user nobody, for tests of what a process that may not write a file sees
// (root may write every file, so a test run as root cannot see it
// itself).
package nobody

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// env marks the child: its value is the parent's argument.
const env = "TOPICRANK_AS_NOBODY"

// uid and gid are nobody's on Debian and most Linux systems.
const uid, gid = 65534, 65534

// Arg returns the argument the parent passed, and whether this process
// is the child.
func Arg() (string, bool) { return os.LookupEnv(env) }

// Run runs test (a function of the calling test binary) in a child
// process as nobody, passing arg, and returns its combined output. It
// skips the calling test when this process is not root (it cannot
// become nobody). dir must be a folder nobody can reach.
func Run(t *testing.T, test, arg, dir string) string {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("not root: cannot run a child as nobody")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary sits in a private build folder: a copy nobody can run.
	bin := filepath.Join(dir, "test.bin")
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(bin)
	cmd := exec.Command(bin, "-test.run=^"+test+"$", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env+"="+arg)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child as nobody: %v\n%s", err, out)
	}
	return string(out)
}

// Reachable makes dir and the folders above it searchable by anyone, so
// that nobody can reach dir (t.TempDir's folders are private).
func Reachable(t *testing.T, dir string) {
	t.Helper()
	for d := dir; d != "/" && d != "."; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o001 != 0 {
			continue // others may search it already (/tmp)
		}
		keep := fi.Mode() & (os.ModePerm | os.ModeSticky | os.ModeSetgid)
		if err := os.Chmod(d, keep|0o055); err != nil {
			t.Fatal(err)
		}
	}
}
