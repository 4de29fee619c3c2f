// Package access explains why this process cannot write a file: who owns
// it, its mode, whom the process runs as, and the command that fixes it.
// It names every file of a set at once, so that an operator fixes them
// all the first time: SQLite makes a state's -wal and -shm like the state
// itself, and fixing only the file an error named changes nothing.
package access

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// wOK is access(2)'s W_OK.
const wOK = 2

// Check returns nil when this process can write every path of paths that
// exists, and the folder of each (where SQLite and the locks create
// files); otherwise an error naming each one it cannot write, with its
// owner and mode, and the command that gives them to this process.
func Check(paths ...string) error {
	var all []string
	for _, p := range paths {
		all = append(all, p, filepath.Dir(p))
	}
	return check(all)
}

// Folder is Check for a folder to be made or written into: it names the
// nearest folder of dir that exists (dir itself, or the parent a mkdir
// would write) when this process cannot write it.
func Folder(dir string) error {
	for {
		if _, err := os.Stat(dir); err == nil || filepath.Dir(dir) == dir {
			return check([]string{dir})
		}
		dir = filepath.Dir(dir)
	}
}

// check is Check of exactly paths.
func check(paths []string) error {
	var denied, readOnly []string
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		err := syscall.Access(p, wOK)
		switch {
		case err == nil || errors.Is(err, fs.ErrNotExist):
		case errors.Is(err, syscall.EROFS):
			readOnly = append(readOnly, p)
		default:
			denied = append(denied, p)
		}
	}
	switch {
	case len(readOnly) > 0:
		return fmt.Errorf("%s: on a read-only file system; mount it read-write (a container: the volume without :ro)", strings.Join(readOnly, ", "))
	case len(denied) > 0:
		return deniedError(denied)
	}
	return nil
}

// Explain returns err as it is unless it is a permission error; then it
// adds Check's account of paths (or of err's own path).
func Explain(err error, paths ...string) error {
	if !errors.Is(err, fs.ErrPermission) {
		return err
	}
	var pe *fs.PathError
	if len(paths) == 0 && errors.As(err, &pe) {
		paths = []string{pe.Path}
	}
	if why := Check(paths...); why != nil {
		return fmt.Errorf("%w: %v", err, why)
	}
	return err
}

// deniedError names each path with its owner and mode, and the fix.
func deniedError(paths []string) error {
	var named, quoted []string
	owners := map[string]bool{}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			named = append(named, p)
			continue
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			named = append(named, fmt.Sprintf("%s (%s)", p, fi.Mode()))
			continue
		}
		owner := who(int(st.Uid))
		owners[owner] = true
		named = append(named, fmt.Sprintf("%s (owner %s, group %d, %s)", p, owner, st.Gid, fi.Mode()))
		quoted = append(quoted, strconv.Quote(p))
	}
	me := who(os.Getuid())
	them := "them"
	if len(paths) == 1 {
		them = "it"
	}
	fix := fmt.Sprintf("give %s to this user: chown %d:%d %s (as root)", them, os.Getuid(), os.Getgid(), strings.Join(quoted, " "))
	if len(owners) == 1 {
		for o := range owners {
			fix += ", or run as " + o
		}
	}
	return fmt.Errorf("this process (%s) cannot write %s; %s", me, strings.Join(named, ", "), fix)
}

// who names a user id: "uid 65534 (nobody)", or "uid 1000" without an
// entry in the user database.
func who(uid int) string {
	s := "uid " + strconv.Itoa(uid)
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
		s += " (" + u.Username + ")"
	}
	return s
}
