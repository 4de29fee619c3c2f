package publish

import "io"

// Judgment is how people's labels judge one crawl of an evaluation
// (runner evaluate -labels): the crawl's fetched vertices people
// labelled, those labelled at least 1 and their share (Harvest), the
// published relevant's agreement with them, and on nights after the
// first the change of vertices since the night before.
type Judgment struct {
	Strategy string
	Night    int // 0 in an evaluation of one crawl per strategy
	// LabelJudge says the crawl judged its pages by the labels
	// themselves (evaluate -label-judge), not by relevance.
	LabelJudge            bool
	Labelled, Relevant    int
	Harvest               float64
	TP, FP, FN            int
	Precision, Recall, F1 float64
	Churn                 *Churn // nil on a first night
}

// WritePeople writes an evaluation's people.parquet into dir: one row per
// crawl as people's labels judge it. churn columns are null on a first
// night and in an evaluation of one crawl per strategy.
func WritePeople(dir, job, runID string, js []Judgment) (File, error) {
	spec := peopleTable(js)
	in := &Input{Job: job, RunID: runID}
	return writeFile(dir, "people.parquet", func(w io.Writer) (int64, error) { return writeTable(w, in, spec) })
}

func peopleTable(js []Judgment) tableSpec {
	fields := []column{
		field("strategy", tString, false),
		field("night", tInt32, true),
		field("label_judge", tBool, false),
		field("labelled", tInt32, false),
		field("relevant", tInt32, false),
		field("harvest", tFloat64, false),
		field("true_positives", tInt32, false),
		field("false_positives", tInt32, false),
		field("false_negatives", tInt32, false),
		field("precision", tFloat64, false),
		field("recall", tFloat64, false),
		field("f1", tFloat64, false),
	}
	fields = append(fields, churnFields()...)
	return tableSpec{fields, func(t *table) {
		for _, j := range js {
			t.str(2).Append(j.Strategy)
			night(t.i32(3), j.Night)
			t.boolean(4).Append(j.LabelJudge)
			for i, n := range []int{j.Labelled, j.Relevant} {
				t.i32(5 + i).Append(int32(n))
			}
			t.f64(7).Append(j.Harvest)
			for i, n := range []int{j.TP, j.FP, j.FN} {
				t.i32(8 + i).Append(int32(n))
			}
			for i, x := range []float64{j.Precision, j.Recall, j.F1} {
				t.f64(11 + i).Append(x)
			}
			appendChurn(t, 14, j.Churn)
			t.endRow()
		}
	}}
}
