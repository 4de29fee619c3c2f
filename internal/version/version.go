// Package version names the topicrank build: the main module's version as
// the Go toolchain recorded it (a tag, or a pseudo-version with the
// commit), or "devel" for a build from a work tree.
package version

import "runtime/debug"

// Override, set at link time (-X .../internal/version.Override=v1.2.3),
// names builds made without the repository's history (a container build).
var Override string

// String returns the running build's version.
func String() string {
	if Override != "" {
		return Override
	}
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Version == "" || info.Main.Version == "(devel)" {
		if ok {
			for _, s := range info.Settings {
				if s.Key == "vcs.revision" && len(s.Value) >= 12 {
					return "devel-" + s.Value[:12]
				}
			}
		}
		return "devel"
	}
	return info.Main.Version
}
