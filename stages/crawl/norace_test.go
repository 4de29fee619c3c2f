//go:build !race

package crawl

const raceBuild = false
