package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/topicrank/topicrank/stages/publish"
)

func main() {
	root := os.Args[1]
	jobs, _ := os.ReadDir(root)
	tk, tr := 0, 0
	for _, j := range jobs {
		runs, _ := filepath.Glob(filepath.Join(root, j.Name(), "2*"))
		sort.Strings(runs)
		var prev map[string]bool
		line := j.Name()
		for _, r := range runs {
			p, err := publish.ReadPrevious(r)
			if err != nil {
				panic(err)
			}
			rel := map[string]bool{}
			for k, v := range p.Relevance {
				if v >= 0.1 {
					rel[k] = true
				}
			}
			if prev != nil {
				kept := 0
				for k := range prev {
					if _, ok := p.InDegree[k]; ok {
						kept++
					}
				}
				tk += kept
				tr += len(prev)
				line += fmt.Sprintf(" %d/%d", kept, len(prev))
			}
			prev = rel
		}
		fmt.Println(line)
	}
	fmt.Printf("kept %d of %d (%.2f%%)\n", tk, tr, 100*float64(tk)/float64(tr))
}
