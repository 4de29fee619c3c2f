package text

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
)

// Judge turns a page's Evidence into its relevance: a logistic model,
// relevance = 1/(1+exp(-(bias + Σ weight·feature))), fitted to people's
// assessments (cmd/fitjudge, docs/relevance.md). Its relevance reads as
// the chance that a person would call the page at least partly about the
// topic, so 0.5 is where "more likely than not" begins.
type Judge struct {
	Bias    float64              `json:"bias"`
	Weights map[string]float64   `json:"weights"` // by FeatureNames
	Fit     map[string]any       `json:"fit,omitempty"`
	w       [NumFeatures]float64 // Weights in feature order
}

// Relevance returns the judged relevance of a page showing e, in (0,1).
func (j *Judge) Relevance(e Evidence) float64 {
	z := j.Bias
	for i, x := range e {
		z += j.w[i] * x
	}
	return 1 / (1 + math.Exp(-z))
}

// ParseJudge reads a judge's weights as cmd/fitjudge writes them. Every
// feature needs a weight; a name it does not know is an error.
func ParseJudge(b []byte) (*Judge, error) {
	var j Judge
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	seen := 0
	for i, n := range FeatureNames {
		w, ok := j.Weights[n]
		if !ok {
			return nil, fmt.Errorf("judge: no weight for feature %q", n)
		}
		j.w[i] = w
		seen++
	}
	if seen != len(j.Weights) {
		return nil, fmt.Errorf("judge: %d weights for %d features", len(j.Weights), NumFeatures)
	}
	return &j, nil
}

// NewJudge returns a judge with the given bias and weights in feature order.
func NewJudge(bias float64, w [NumFeatures]float64) *Judge {
	j := &Judge{Bias: bias, Weights: map[string]float64{}, w: w}
	for i, n := range FeatureNames {
		j.Weights[n] = w[i]
	}
	return j
}

// Vector returns the judge's weights in feature order.
func (j *Judge) Vector() [NumFeatures]float64 { return j.w }

//go:embed judge.json
var shippedJudge []byte

// Shipped is the judge the crawl uses: the fit in judge.json.
var Shipped = func() *Judge {
	j, err := ParseJudge(shippedJudge)
	if err != nil {
		panic(err)
	}
	return j
}()
