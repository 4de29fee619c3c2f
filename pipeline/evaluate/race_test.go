//go:build race

package evaluate

// raceBuild is true under the race detector, which slows crawls about
// tenfold: the nights of eight held-out topics then run in .ci/run's
// pass without it.
const raceBuild = true
