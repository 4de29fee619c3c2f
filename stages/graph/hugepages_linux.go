package graph

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks Linux to back a large slice with huge pages: random
// access over tens of megabytes otherwise misses the TLB on nearly every
// lookup. It is advice; failure changes nothing but speed.
func adviseHugePages[T any](s []T) {
	size := uintptr(len(s)) * unsafe.Sizeof(*new(T))
	if size < 4<<20 {
		return
	}
	const huge = 2 << 20
	base := unsafe.Pointer(unsafe.SliceData(s))
	skip := (huge - uintptr(base)%huge) % huge // to the first aligned huge page
	n := (size - skip) &^ (huge - 1)
	b := unsafe.Slice((*byte)(unsafe.Add(base, skip)), n)
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
}
