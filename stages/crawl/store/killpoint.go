//go:build killpoints

package store

import (
	"os"
	"strconv"
	"syscall"
)

// Builds tagged killpoints (tests of the upgrade path, never a release)
// kill their own process with SIGKILL after the upgrade's statement
// number TOPICRANK_KILL_UPGRADE_AT: a real kill at a chosen instant.
func init() {
	at, err := strconv.Atoi(os.Getenv("TOPICRANK_KILL_UPGRADE_AT"))
	if err != nil {
		return
	}
	upgradeFault = func(n int) error {
		if n == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		return nil
	}
}
