package evaluate

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// Summary is one strategy's nights over several topics: the means
// docs/relevance.md reports. Harvest, "of the way" and F1 are means over
// the topics (macro), night by night; the Jaccard figures are over every
// topic's nights after the first. Judged by people's labels (Labelled),
// harvest is people's; without them it is the crawl's own (relevance
// over the threshold), and there is no F1.
type Summary struct {
	Strategy string
	Topics   int
	Labelled bool
	// LabelJudge says the crawls judged their pages by people's labels.
	LabelJudge bool
	// BFS and Oracle are the yardsticks' mean harvests (NaN when a topic
	// lacks one).
	BFS, Oracle float64
	Harvest, F1 []float64 // by night
	// LowestF1 is the lowest topic's F1 on each night, and which topic.
	LowestF1      []float64
	LowestF1Topic []string
	Jaccard       float64 // mean
	LowestJaccard float64
	LowestTopic   string // of LowestJaccard
}

// Summarize returns the summary of strategy over reports, one per topic,
// each over the same number of nights and judged alike.
func Summarize(strategy string, reports []*Report) (*Summary, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("no topic to summarize")
	}
	nights := max(reports[0].Nights, 1)
	s := &Summary{Strategy: strategy, Topics: len(reports), Harvest: make([]float64, nights), F1: make([]float64, nights),
		LowestF1: make([]float64, nights), LowestF1Topic: make([]string, nights), LowestJaccard: math.Inf(1)}
	for i := range s.LowestF1 {
		s.LowestF1[i] = math.Inf(1)
	}
	n := float64(len(reports))
	var bfs, oracle, seen, jaccards int
	for _, r := range reports {
		if max(r.Nights, 1) != nights || r.Labelled != reports[0].Labelled || r.LabelJudge != reports[0].LabelJudge {
			return nil, fmt.Errorf("%s: want %d nights, all judged alike (by people's labels or not, with the same judge)", r.Job, nights)
		}
		s.Labelled, s.LabelJudge = r.Labelled, r.LabelJudge
		for i, h := range r.Harvests {
			harvest := h.Rate()
			if r.Labelled {
				harvest = r.People[i].Harvest()
			}
			switch h.Strategy {
			case "bfs":
				s.BFS += harvest / n
				bfs++
			case Oracle:
				s.Oracle += harvest / n
				oracle++
			case strategy:
				night := max(h.Night, 1) - 1
				seen++
				s.Harvest[night] += harvest / n
				if r.Labelled {
					f1 := r.People[i].F1()
					s.F1[night] += f1 / n
					if f1 < s.LowestF1[night] {
						s.LowestF1[night], s.LowestF1Topic[night] = f1, r.Job
					}
				}
				if c := h.Churn; c != nil {
					s.Jaccard += c.Jaccard
					jaccards++
					if c.Jaccard < s.LowestJaccard {
						s.LowestJaccard, s.LowestTopic = c.Jaccard, r.Job
					}
				}
			}
		}
	}
	if seen != len(reports)*nights {
		return nil, fmt.Errorf("strategy %s: %d crawls, want %d (a night per topic)", strategy, seen, len(reports)*nights)
	}
	if bfs != len(reports) {
		s.BFS = math.NaN()
	}
	if oracle != len(reports) {
		s.Oracle = math.NaN()
	}
	if jaccards > 0 {
		s.Jaccard /= float64(jaccards)
	} else {
		s.Jaccard, s.LowestJaccard = math.NaN(), math.NaN()
	}
	return s, nil
}

// Way is night i's (from 0) mean harvest as a share of the way from
// bfs's mean harvest to the oracle's (NaN without both).
func (s *Summary) Way(i int) float64 { return (s.Harvest[i] - s.BFS) / (s.Oracle - s.BFS) }

// Print writes the summary as a table, a row per night.
func (s *Summary) Print(w io.Writer) error {
	judge := ""
	if s.LabelJudge {
		judge = ", crawled with people's labels as the judge"
	}
	if s.Labelled {
		fmt.Fprintf(w, "\n%s over %d topics%s, means judged by people's labels (bfs %.3f, oracle %.3f)\n\n", s.Strategy, s.Topics, judge, s.BFS, s.Oracle)
	} else {
		fmt.Fprintf(w, "\n%s over %d topics, means judged by the crawls' own relevance (bfs %.3f)\n\n", s.Strategy, s.Topics, s.BFS)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	way := !math.IsNaN(s.BFS) && !math.IsNaN(s.Oracle)
	head := "night\tharvest\t"
	if way {
		head += "of the way\t"
	}
	if s.Labelled {
		head += "macro F1\tlowest F1\t"
	}
	fmt.Fprintln(tw, head)
	for i := range s.Harvest {
		row := []string{fmt.Sprint(i + 1), fmt.Sprintf("%.3f", s.Harvest[i])}
		if way {
			cell := ""
			if w := s.Way(i); !math.IsNaN(w) && !math.IsInf(w, 0) {
				cell = fmt.Sprintf("%.0f%%", 100*w)
			}
			row = append(row, cell)
		}
		if s.Labelled {
			row = append(row, fmt.Sprintf("%.3f", s.F1[i]), fmt.Sprintf("%.3f (%s)", s.LowestF1[i], s.LowestF1Topic[i]))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !math.IsNaN(s.Jaccard) {
		_, err := fmt.Fprintf(w, "\nconsecutive nights' Jaccard: %.3f on the mean, lowest %.3f (%s)\n", s.Jaccard, s.LowestJaccard, s.LowestTopic)
		return err
	}
	return nil
}
