//go:build race

package crawl

// raceBuild is true under the race detector, which slows the corpus-wide
// tests about tenfold: they then check every tenth page.
const raceBuild = true
