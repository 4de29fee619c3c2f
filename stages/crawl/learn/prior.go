package learn

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
)

// Prior is the start of a new topic's link model, learned across many
// topics on the features that do not depend on the topic: the weights of
// the similarity strategy's weight, the parent's relevance, the depth
// and the sibling shares, and the bias. cmd/trainprior makes it from
// the corpus (docs/learned.md, "A prior for a new topic"); it ships as
// prior.json.
type Prior struct {
	Bias, Sim, Rel, Depth, SibRel, SibIrr float64
	// Topics are the jobs it was trained on; Corpus says on what.
	Topics []string `json:",omitempty"`
	Corpus string   `json:",omitempty"`
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

// UsePrior starts the Learner's model from p: the model scores links
// from the first page on, where an untrained one uses the similarity
// weight until it has labels enough.
func (l *Learner) UsePrior(p Prior) {
	m := l.m
	m.bias, m.wSim, m.wRel, m.wDepth, m.wSibs = p.Bias, p.Sim, p.Rel, p.Depth, [2]float64{p.SibRel, p.SibIrr}
	m.prior = true
}

// Dense returns the model's topic-free weights as a Prior (cmd/trainprior
// averages them over topics).
func Dense(model []byte) (Prior, error) {
	var s snapshot
	if err := json.Unmarshal(model, &s); err != nil {
		return Prior{}, err
	}
	return Prior{Bias: s.Dense[0], Sim: s.Dense[1], Rel: s.Dense[2], Depth: s.Dense[3], SibRel: s.Dense[4], SibIrr: s.Dense[5]}, nil
}
