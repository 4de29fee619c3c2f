package learn

import (
	"encoding/json"
	"fmt"

	"github.com/topicrank/topicrank/stages/crawl/page"
)

// snapshot is a model as a crawl state keeps it between nights: the
// hashed weights that are not zero (with their squared gradients), the
// dense weights and the label counts. A few thousand weights after a
// night of 250 pages: tens of KB, where the whole vectors are 4 MB.
type snapshot struct {
	Index  []uint32        `json:"i"`
	W      []float64       `json:"w"`
	G2     []float64       `json:"g2"`
	Dense  [denseN]float64 `json:"d"` // model.d
	DenseG [denseN]float64 `json:"dg"`
	Labels int             `json:"n"`
	Rel    int             `json:"r"`
}

// Model returns the Learner's model as bytes to keep (Restore reads them).
func (l *Learner) Model() ([]byte, error) {
	m := l.m
	s := snapshot{Dense: m.d, DenseG: m.dg, Labels: m.labels, Rel: m.relevant}
	for i, w := range m.w {
		if w != 0 || m.g2[i] != 0 {
			s.Index = append(s.Index, uint32(i))
			s.W, s.G2 = append(s.W, w), append(s.G2, m.g2[i])
		}
	}
	return json.Marshal(s)
}

// Restore starts the Learner from a model Model returned: a night that
// begins where the last complete one ended.
func (l *Learner) Restore(b []byte) error {
	var s snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("the stored link model: %w", err)
	}
	if len(s.W) != len(s.Index) || len(s.G2) != len(s.Index) {
		return fmt.Errorf("the stored link model: %d indexes, %d weights", len(s.Index), len(s.W))
	}
	m := newModel(l.m.topic)
	for j, i := range s.Index {
		if int(i) >= page.FeatureSpace {
			return fmt.Errorf("the stored link model: feature %d out of range", i)
		}
		m.w[i], m.g2[i] = s.W[j], s.G2[j]
	}
	m.d, m.dg, m.labels, m.relevant = s.Dense, s.DenseG, s.Labels, s.Rel
	l.m = m
	return nil
}
