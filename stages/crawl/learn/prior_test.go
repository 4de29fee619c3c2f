package learn

import (
	"math"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/page"
)

// The shipped prior reads and has the weights a prior is for; a model
// started from it still ranks by similarity until it has labels enough,
// and then by the prior's weights.
func TestPrior(t *testing.T) {
	shipped, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	if shipped == nil || shipped.Models == 0 || shipped.Sim <= 0 {
		t.Fatalf("the shipped prior: %+v", shipped)
	}
	l := New([]string{"senate"}, nil)
	e := Example{Sim: 0.5, ParentRel: 0.2, Depth: 1, Terms: []uint32{page.HashFeature("t|", "senat")}}
	l.UsePrior(Prior{Bias: -1.5, Sim: 3.9, Rel: -0.3, Title: 0.4})
	if got := l.Score(e); l.Trained() || got != 0.5 {
		t.Fatalf("with a prior and no labels: trained %v, score %v, want the similarity weight", l.Trained(), got)
	}
	l.m.labels, l.m.relevant = minLabels, minRelevant
	z := -1.5 + 3.9*0.5 - 0.3*0.2 + 0.4*math.Log(2) // one topic term in the title
	if got, want := l.Score(e), 1/(1+math.Exp(-z)); math.Abs(got-want) > 1e-12 {
		t.Errorf("trained from the prior: score %v, want %v", got, want)
	}
	b, err := l.Model()
	if err != nil {
		t.Fatal(err)
	}
	if p, err := Dense(b); err != nil || p.Bias != -1.5 || p.Sim != 3.9 || p.Rel != -0.3 || p.Title != 0.4 {
		t.Errorf("Dense = %+v, %v", p, err)
	}
}

// The topic-term features count the topic's terms (stemmed, as the
// link's features are) in the anchor, the context and the title apart.
func TestTopicTerms(t *testing.T) {
	m := newModel(topicFeatures([]string{"Senators", "court rulings"}))
	e := Example{Terms: []uint32{
		page.HashFeature("a|", "senat"), page.HashFeature("a|", "court"), page.HashFeature("a|", "vote"),
		page.HashFeature("c|", "rule"),
		page.HashFeature("t|", "elect"),
	}}
	got := m.topicTerms(e)
	if want := [3]float64{math.Log(3), math.Log(2), 0}; got != want {
		t.Errorf("topic terms %v, want %v", got, want)
	}
	if newModel(nil).topicTerms(e) != [3]float64{} {
		t.Error("a model without topic words counts topic terms")
	}
}

// Average takes the mean of the topic-free weights over the models that
// learned from enough relevant pages, and says how many it averaged.
func TestAverage(t *testing.T) {
	model := func(rel int, bias, title float64) []byte {
		l := New(nil, nil)
		l.m.d[dBias], l.m.d[dTitle], l.m.relevant = bias, title, rel
		b, err := l.Model()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	p, err := Average([][]byte{model(12, -1, 0.2), model(3, -9, 9), model(30, -2, 0.4)}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if p.Models != 2 || p.MinRelevant != 10 || p.Bias != -1.5 || math.Abs(p.Title-0.3) > 1e-12 || p.Sim != priorSim {
		t.Errorf("Average = %+v", p)
	}
	if _, err := Average([][]byte{model(3, -1, 0)}, 10); err == nil {
		t.Error("Average of no model that met the bar: no error")
	}
	if _, err := Average([][]byte{[]byte("{")}, 0); err == nil {
		t.Error("Average of a broken model: no error")
	}
}
