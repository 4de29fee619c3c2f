//go:build !race

package page

const raceBuild = false
