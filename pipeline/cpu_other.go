//go:build !unix

package pipeline

// cpuSeconds is not measured here.
func cpuSeconds() float64 { return 0 }
