//go:build race

package page

// raceBuild is true under the race detector, which slows the corpus-wide
// tests about tenfold: they then check every tenth page.
const raceBuild = true
