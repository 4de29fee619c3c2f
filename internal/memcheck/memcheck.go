// Package memcheck lets tests hold the memory figures docs/performance.md gives users
// to what the code really keeps.
package memcheck

import (
	"runtime"
	"testing"
)

// HeapInUse returns the bytes of live heap after a full collection.
func HeapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// Within fails t when used bytes exceed the documented figure by more than
// the fraction slack, and logs both either way.
func Within(t testing.TB, what string, used int64, documented, slack float64) {
	t.Helper()
	t.Logf("%s keeps %.0f MB; the documented formula gives %.0f MB", what, float64(used)/1e6, documented/1e6)
	if float64(used) > (1+slack)*documented {
		t.Errorf("%s keeps %d bytes, more than %.0f%% over the documented %.0f", what, used, 100*slack, documented)
	}
}
