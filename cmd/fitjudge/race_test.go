//go:build race

package main

// raceBuild is true under the race detector, which slows the
// fit several-fold: .ci/run runs it without it.
const raceBuild = true
