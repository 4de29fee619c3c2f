//go:build !race

package evaluate

const raceBuild = false
