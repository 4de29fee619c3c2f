package evaluate

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/publish"
)

// Truth is what an evaluation judges crawls by besides the crawl's own
// relevance. Oracle, when set, is each page's true priority for the
// oracle strategy; Labels, when set, are people's labels of the job's
// topic (0, 1 or 2 by page key): harvest and agreement are then measured
// by them, and the oracle fetches by them. LabelJudge, with Labels, has
// every crawl judge its pages by them (crawl.Config.Judge): how far a
// strategy gets with a perfect judge.
type Truth struct {
	Oracle     map[string]float64
	Labels     map[string]int
	LabelJudge bool
}

// oracle returns the oracle's priorities: people's labels where given.
func (t Truth) oracle() map[string]float64 {
	if t.Labels == nil {
		return t.Oracle
	}
	m := make(map[string]float64, len(t.Labels))
	for k, l := range t.Labels {
		m[k] = float64(l) / 2
	}
	return m
}

// judge returns people's labels as the relevance of the pages a crawl
// fetches (LabelJudge), for a crawl that counts a page relevant from
// threshold (> 0): 0 for "not relevant", twice the threshold (at most 1)
// for "relevant", 1 for "highly relevant". So relevant is exactly
// labelled at least 1, and a page labelled 1 teaches the learned model
// as a page judged well over the threshold does.
func (t Truth) judge(threshold float64) map[string]float64 {
	m := make(map[string]float64, len(t.Labels))
	for k, l := range t.Labels {
		switch {
		case l >= 2:
			m[k] = 1
		case l == 1:
			m[k] = min(1, 2*threshold)
		default:
			m[k] = 0
		}
	}
	return m
}

// Judged is how a crawl's vertices fare by people's labels.
type Judged struct {
	Labelled int // fetched vertices people labelled
	Relevant int // of those, labelled at least 1
	// The published relevant against people's "at least 1", over the
	// labelled fetched vertices.
	TP, FP, FN int
}

// Harvest is the share of labelled fetched vertices people call relevant.
func (j Judged) Harvest() float64 { return ratio(j.Relevant, j.Labelled) }

// Precision, Recall and F1 of the published relevant against people.
func (j Judged) Precision() float64 { return ratio(j.TP, j.TP+j.FP) }
func (j Judged) Recall() float64    { return ratio(j.TP, j.TP+j.FN) }
func (j Judged) F1() float64 {
	p, r := j.Precision(), j.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// judge measures res's fetched vertices by labels.
func judge(res *crawl.Result, labels map[string]int) Judged {
	var j Judged
	for _, p := range res.Pages {
		l, ok := labels[p.Key]
		if !ok || !p.State.Usable() {
			continue
		}
		j.Labelled++
		rel := l >= 1
		if rel {
			j.Relevant++
		}
		switch {
		case p.Relevant && rel:
			j.TP++
		case p.Relevant:
			j.FP++
		case rel:
			j.FN++
		}
	}
	return j
}

// vertexKeys returns res's vertices.
func vertexKeys(res *crawl.Result) []string {
	keys := make([]string, 0, len(res.Pages))
	for _, p := range res.Pages {
		keys = append(keys, p.Key)
	}
	return keys
}

// churn compares a night's vertices with the night before's.
func churn(prev, cur []string) publish.Churn {
	was := make(map[string]bool, len(prev))
	for _, k := range prev {
		was[k] = true
	}
	return publish.CompareVertices(was, cur)
}

// ReadLabels reads people's labels of one topic from an assessments file
// (tab-separated: a header "page" and topic names, then a line per page
// of its key and one label, 0, 1 or 2, per topic).
func ReadLabels(path, topic string) (map[string]int, error) {
	names, all, err := ReadAssessments(path)
	if err != nil {
		return nil, err
	}
	return LabelsOf(path, names, all, topic)
}

// LabelsOf returns one topic's labels out of every topic's, as
// ReadAssessments returns them from the file at path (named in errors).
func LabelsOf(path string, names []string, all map[string][]int, topic string) (map[string]int, error) {
	i := slices.Index(names, topic)
	if i < 0 {
		return nil, fmt.Errorf("%s: no topic %q (it has %s)", path, topic, strings.Join(names, ", "))
	}
	out := make(map[string]int, len(all))
	for k, l := range all {
		out[k] = l[i]
	}
	return out, nil
}

// ReadAssessments reads every topic's labels: the topic names, and by
// page key (normalised as the crawl keys pages) one label per topic.
func ReadAssessments(path string) ([]string, map[string][]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	if !sc.Scan() {
		return nil, nil, fmt.Errorf("%s: empty; want a header line", path)
	}
	head := fields(strings.TrimPrefix(sc.Text(), "\ufeff"))
	if len(head) < 2 {
		return nil, nil, fmt.Errorf("%s:1: want a header of page and topic names, tab-separated", path)
	}
	labels := map[string][]int{}
	for n := 2; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		f := fields(sc.Text())
		if len(f) != len(head) {
			return nil, nil, fmt.Errorf("%s:%d: %d fields, want %d", path, n, len(f), len(head))
		}
		l := make([]int, len(f)-1)
		for i, s := range f[1:] {
			v, err := strconv.Atoi(s)
			if err != nil || v < 0 || v > 2 {
				return nil, nil, fmt.Errorf("%s:%d: label %q of %s: want 0, 1 or 2", path, n, s, head[i+1])
			}
			l[i] = v
		}
		if key, ok := page.ArticleKey("/wiki/"+f[0], nil); ok { // else never a vertex (a title with a colon)
			labels[key] = l
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return head[1:], labels, nil
}

// fields splits a line of the assessments at its tabs, each field
// trimmed of spaces and a CRLF file's carriage return.
func fields(line string) []string {
	f := strings.Split(strings.TrimRight(line, "\r"), "\t")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f
}
