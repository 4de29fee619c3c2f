//go:build race

package main

// raceBuild is true under the race detector, which slows the 243
// training crawls several-fold: .ci/run runs them without it.
const raceBuild = true
