package learn

import "testing"

// The shipped prior reads (none ships today: docs/learned.md says why),
// and a prior starts a model that scores from the first page on.
func TestPrior(t *testing.T) {
	if _, err := Shipped(); err != nil {
		t.Fatal(err)
	}
	l := New(nil)
	e := Example{Sim: 0.5, ParentRel: 0.2, Depth: 1}
	if l.Score(e) != 0.5 {
		t.Fatalf("an untrained model scores %v, want the similarity weight", l.Score(e))
	}
	l.UsePrior(Prior{Bias: -1.5, Sim: 3.9, Rel: -0.3})
	if got := l.Score(e); !l.Trained() || got <= 0.5 || got >= 0.6 {
		t.Errorf("with a prior: trained %v, score %v", l.Trained(), got)
	}
	b, err := l.Model()
	if err != nil {
		t.Fatal(err)
	}
	if p, err := Dense(b); err != nil || p.Bias != -1.5 || p.Sim != 3.9 || p.Rel != -0.3 {
		t.Errorf("Dense = %+v, %v", p, err)
	}
}
