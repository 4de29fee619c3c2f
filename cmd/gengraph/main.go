// Command gengraph writes a synthetic edge-list file for benchmarks: n
// vertices named like Wikipedia paths, m distinct edges without self-loops,
// targets skewed toward low ids (a few pages collect most links, as on
// Wikipedia) and about 5% sinks. The same flags give the same file.
//
//	go run ./cmd/gengraph -n 1000000 -m 10000000 > /tmp/g1m.txt
//
// With -rmat it writes an R-MAT graph instead (Chakrabarti, Zhan and
// Faloutsos; a=0.57, b=c=0.19, d=0.05, as Graph500): m lines over n
// vertices randomly permuted, with the duplicates and self-loops R-MAT
// makes, named /wiki/Article_number_<base36> (about 26 bytes). Its skew,
// hubs with millions of in-links, is what real link graphs have and
// uniform ones hide. The English Wikipedia's size:
//
//	go run ./cmd/gengraph -rmat -n 6500000 -m 160000000 > /tmp/rmat.txt
//
// With -dump DIR it writes a wiki's SQL dumps instead, in the 2024 schema,
// for rank -dump: n articles linked by R-MAT, with redirects, talk pages,
// templates and links to missing pages (see writeDump). 1.2 GB:
//
//	go run ./cmd/gengraph -dump /tmp/dump24 -n 1000000 -m 60000000
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

func main() {
	n := flag.Int("n", 1_000_000, "vertices")
	m := flag.Int("m", 10_000_000, "edges")
	seed := flag.Uint64("seed", 1, "random seed")
	rmatFlag := flag.Bool("rmat", false, "an R-MAT graph (duplicates and self-loops included)")
	dumpDir := flag.String("dump", "", "write a wiki's SQL dumps (2024 schema) of n articles and m links into this directory instead")
	flag.Parse()
	if *dumpDir != "" {
		if *n < 10 || *m < 0 {
			fmt.Fprintln(os.Stderr, "gengraph: -dump needs n >= 10 and m >= 0")
			os.Exit(2)
		}
		if err := writeDump(*dumpDir, *n, *m, *seed); err != nil {
			fmt.Fprintln(os.Stderr, "gengraph:", err)
			os.Exit(1)
		}
		return
	}
	if *rmatFlag {
		if *n < 2 || *m < 0 {
			fmt.Fprintln(os.Stderr, "gengraph: need n >= 2 and m >= 0")
			os.Exit(2)
		}
		writeRMAT(*n, *m, *seed)
		return
	}
	if *n < 2 || *m < 0 || float64(*m) > 0.5*float64(*n)*float64(*n-1) {
		fmt.Fprintln(os.Stderr, "gengraph: need n >= 2 and m <= n(n-1)/2")
		os.Exit(2)
	}
	rng := rand.New(rand.NewPCG(*seed, 0))
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer w.Flush()
	fmt.Fprintln(w, *n)
	name := func(v int) string { return "/wiki/P" + strconv.Itoa(v) }
	// Each source's out-degree is about m/n; sources are taken in a random
	// order of the non-sink vertices so every vertex is named early enough.
	sources := rng.Perm(*n)
	sinks := *n / 20
	active := sources[sinks:]
	seen := make(map[uint64]struct{}, *m)
	for written := 0; written < *m; {
		u := active[rng.IntN(len(active))]
		x := rng.Float64()
		v := int(float64(*n) * x * x * x) // skewed toward low ids
		key := uint64(u)<<32 | uint64(v)
		if u == v {
			continue
		}
		if _, dup := seen[key]; dup {
			continue
		}
		seen[key] = struct{}{}
		w.WriteString(name(u))
		w.WriteByte(' ')
		w.WriteString(name(v))
		w.WriteByte('\n')
		written++
	}
}

// writeRMAT writes m R-MAT edges over n vertices to standard output.
func writeRMAT(n, m int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer w.Flush()
	fmt.Fprintln(w, n)
	perm := rng.Perm(n) // hubs land anywhere in the id space
	name := func(v int) string { return "/wiki/Article_number_" + strconv.FormatInt(int64(perm[v]), 36) }
	rmat(rng, n, m, func(u, v int) {
		w.WriteString(name(u))
		w.WriteByte(' ')
		w.WriteString(name(v))
		w.WriteByte('\n')
	})
}

// rmat calls edge with m R-MAT edges over vertices 0..n-1.
func rmat(rng *rand.Rand, n, m int, edge func(u, v int)) {
	scale := 0
	for 1<<scale < n {
		scale++
	}
	for written := 0; written < m; {
		u, v := 0, 0
		for range scale {
			u, v = u<<1, v<<1
			switch x := rng.Float64(); {
			case x < 0.57:
			case x < 0.76:
				v |= 1
			case x < 0.95:
				u |= 1
			default:
				u, v = u|1, v|1
			}
		}
		if u >= n || v >= n {
			continue // outside the n of the 2^scale grid
		}
		edge(u, v)
		written++
	}
}
