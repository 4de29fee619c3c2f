//go:build !linux

package graph

func adviseHugePages[T any](s []T) {}
