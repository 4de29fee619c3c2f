package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/topicrank/topicrank/stages/text"
)

// lambda is the L2 penalty on the weights (not the bias): enough to keep
// a feature that separates one topic's pages perfectly from growing
// without bound.
const lambda = 0.001

// threshold is the default relevance_threshold the fit is judged at
// (pipeline.DefaultRelevanceThreshold): a one-in-four chance that a
// person calls the page relevant. The judge's relevance is a calibrated
// chance, and F1 peaks well below even chances; on the assessed topics,
// each left out of the fit in turn, it peaks between 0.2 and 0.25.
const threshold = 0.25

const dim = text.NumFeatures + 1 // the bias, then the features

// fit returns the logistic model of "relevant" that minimises the log
// loss plus lambda·|w|², by Newton steps. Each topic counts as much as
// every other, whatever its number of relevant pages: the judge is for
// topics it has not seen.
func fit(rows []example) *text.Judge {
	perTopic := map[int][2]float64{}
	for _, x := range rows {
		c := perTopic[x.topic]
		if x.relevant {
			c[1]++
		} else {
			c[0]++
		}
		perTopic[x.topic] = c
	}
	var b [dim]float64
	for range 50 {
		var g [dim]float64
		var h [dim][dim]float64
		for _, x := range rows {
			f := features(x.e)
			p := sigmoid(dot(b, f))
			c := perTopic[x.topic]
			wt := 1 / (c[0] + c[1]) // each topic weighs 1 in all
			y := 0.0
			if x.relevant {
				y = 1
			}
			for i := range dim {
				g[i] += wt * (p - y) * f[i]
				for k := range dim {
					h[i][k] += wt * p * (1 - p) * f[i] * f[k]
				}
			}
		}
		for i := 1; i < dim; i++ {
			g[i] += 2 * lambda * b[i]
			h[i][i] += 2 * lambda
		}
		step := solve(h, g)
		for i := range dim {
			b[i] -= step[i]
		}
	}
	var w [text.NumFeatures]float64
	copy(w[:], b[1:])
	return text.NewJudge(b[0], w)
}

func features(e text.Evidence) [dim]float64 {
	var f [dim]float64
	f[0] = 1
	copy(f[1:], e[:])
	return f
}

func dot(a, b [dim]float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// solve returns x with h·x = g, by Gaussian elimination with partial
// pivoting (h is positive definite: the penalty sees to it).
func solve(h [dim][dim]float64, g [dim]float64) [dim]float64 {
	for c := range dim {
		p := c
		for r := c + 1; r < dim; r++ {
			if math.Abs(h[r][c]) > math.Abs(h[p][c]) {
				p = r
			}
		}
		h[c], h[p] = h[p], h[c]
		g[c], g[p] = g[p], g[c]
		for r := c + 1; r < dim; r++ {
			m := h[r][c] / h[c][c]
			for k := c; k < dim; k++ {
				h[r][k] -= m * h[c][k]
			}
			g[r] -= m * g[c]
		}
	}
	var x [dim]float64
	for r := dim - 1; r >= 0; r-- {
		s := g[r]
		for k := r + 1; k < dim; k++ {
			s -= h[r][k] * x[k]
		}
		x[r] = s / h[r][r]
	}
	return x
}

// scores are precision, recall and F1 of "relevance ≥ threshold".
type scores struct{ p, r, f1 float64 }

func score(j *text.Judge, rows []example) scores { return scoreAt(j, rows, threshold) }

func scoreAt(j *text.Judge, rows []example, threshold float64) scores {
	var tp, fp, fn float64
	for _, x := range rows {
		got := j.Relevance(x.e) >= threshold
		switch {
		case got && x.relevant:
			tp++
		case got:
			fp++
		case x.relevant:
			fn++
		}
	}
	s := scores{}
	if tp+fp > 0 {
		s.p = tp / (tp + fp)
	}
	if tp+fn > 0 {
		s.r = tp / (tp + fn)
	}
	if s.p+s.r > 0 {
		s.f1 = 2 * s.p * s.r / (s.p + s.r)
	}
	return s
}

// report prints each topic's scores fitted on all topics and on the
// others only, and their means.
func report(w io.Writer, d *dataset, all *text.Judge) {
	fmt.Fprintf(w, "%-12s %22s %22s   %s\n", "topic", "fitted on all: P R F1", "held out: P R F1", "held out, F1 at other thresholds")
	var mAll, mOut float64
	for t, name := range d.topics {
		rows := d.rows(func(i int) bool { return i == t })
		out := fit(d.rows(func(i int) bool { return i != t }))
		a, o := score(all, rows), score(out, rows)
		mAll += a.f1
		mOut += o.f1
		fmt.Fprintf(w, "%-12s %6.3f %6.3f %6.3f   %6.3f %6.3f %6.3f", name, a.p, a.r, a.f1, o.p, o.r, o.f1)
		for _, th := range []float64{0.15, 0.2, 0.3, 0.4, 0.5} {
			fmt.Fprintf(w, "  %.2f: %.3f", th, scoreAt(out, rows, th).f1)
		}
		fmt.Fprintln(w)
	}
	n := float64(len(d.topics))
	fmt.Fprintf(w, "%-12s %20.3f %22.3f\n", "macro F1", mAll/n, mOut/n)
	fmt.Fprintf(w, "bias %.4f", all.Bias)
	for i, v := range all.Vector() {
		fmt.Fprintf(w, "  %s %.4f", text.FeatureNames[i], v)
	}
	fmt.Fprintln(w)
}

// encode writes the judge as stages/text/judge.json holds it.
func encode(j *text.Judge, d *dataset) ([]byte, error) {
	j.Fit = map[string]any{"topics": d.topics, "examples": len(d.examples), "lambda": lambda, "threshold": threshold}
	b, err := json.MarshalIndent(j, "", "  ")
	return append(b, '\n'), err
}
