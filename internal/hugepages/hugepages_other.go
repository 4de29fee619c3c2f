//go:build !linux

package hugepages

// Advise does nothing where huge pages cannot be asked for.
func Advise[T any](s []T) {}
