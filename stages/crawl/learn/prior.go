package learn

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
)

// Prior is the start of a new topic's link model, learned across many
// topics on the features whose weights do not depend on the topic: the
// bias, the similarity strategy's weight, the parent's relevance, the
// depth, the sibling shares and the topic-term features. The hashed
// term features are left at zero: their weights are the topic's own.
// cmd/trainprior makes it from the corpus (docs/learned.md, "A prior for
// a new topic"); it ships as prior.json.
type Prior struct {
	Bias, Sim, Rel, Depth, SibRel, SibIrr float64
	// Anchor, Context and Title weigh the topic's terms in the link's
	// anchor, context and target title.
	Anchor, Context, Title float64
	// Topics are the jobs it was trained on, Models how many of them
	// it averages (those whose models learned from at least MinRelevant
	// links to relevant pages); Corpus says on what.
	Topics      []string `json:",omitempty"`
	Models      int      `json:",omitempty"`
	MinRelevant int      `json:",omitempty"`
	Corpus      string   `json:",omitempty"`
}

//go:embed prior.json
var priorJSON []byte

// Shipped is the prior shipped with topicrank (nil if none).
func Shipped() (*Prior, error) {
	if len(bytes.TrimSpace(priorJSON)) == 0 {
		return nil, nil
	}
	var p Prior
	if err := json.Unmarshal(priorJSON, &p); err != nil {
		return nil, fmt.Errorf("the shipped link-model prior: %w", err)
	}
	return &p, nil
}

// UsePrior starts the Learner's model from p instead of the hand-set
// start. The crawl still ranks by the similarity weight until the model
// has labels enough (minLabels, minRelevant): measured, that first
// stretch is better led by similarity alone (docs/learned.md).
func (l *Learner) UsePrior(p Prior) {
	l.m.d = p.dense()
}

// Average returns the prior of models (Learner.Model's bytes, one per
// training topic): the mean of each topic-free weight over the models
// that learned from at least minRelevant links to relevant pages. A
// topic the crawl found next to nothing of teaches only that every link
// is irrelevant.
func Average(models [][]byte, minRelevant int) (Prior, error) {
	var sum [denseN]float64
	n := 0
	for _, b := range models {
		s, err := decode(b)
		if err != nil {
			return Prior{}, err
		}
		if s.Rel < minRelevant {
			continue
		}
		n++
		for i, w := range s.Dense {
			sum[i] += w
		}
	}
	if n == 0 {
		return Prior{}, fmt.Errorf("none of %d models learned from %d links to relevant pages", len(models), minRelevant)
	}
	for i := range sum {
		sum[i] /= float64(n)
	}
	p := fromDense(sum)
	p.Models, p.MinRelevant = n, minRelevant
	return p, nil
}

// Dense returns a model's topic-free weights as a Prior.
func Dense(model []byte) (Prior, error) {
	s, err := decode(model)
	return fromDense(s.Dense), err
}

func decode(model []byte) (snapshot, error) {
	var s snapshot
	if err := json.Unmarshal(model, &s); err != nil {
		return s, fmt.Errorf("a link model: %w", err)
	}
	return s, nil
}

// fromDense names a model's dense weights.
func fromDense(d [denseN]float64) Prior {
	return Prior{Bias: d[dBias], Sim: d[dSim], Rel: d[dRel], Depth: d[dDepth], SibRel: d[dSibRel], SibIrr: d[dSibIrr],
		Anchor: d[dAnchor], Context: d[dContext], Title: d[dTitle]}
}

// dense is fromDense's inverse.
func (p Prior) dense() [denseN]float64 {
	return [denseN]float64{dBias: p.Bias, dSim: p.Sim, dRel: p.Rel, dDepth: p.Depth, dSibRel: p.SibRel, dSibIrr: p.SibIrr,
		dAnchor: p.Anchor, dContext: p.Context, dTitle: p.Title}
}
