package evaluate

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// chartNights draws the harvest rate night by night, one line (with a
// point a night) per strategy crawled night after night, and bfs's and
// the oracle's first-night harvests as flat lines across: the floor and
// the ceiling the nights climb between.
func (r *Report) chartNights(path, format string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: harvest night after night (%s admission, %d pages)", r.Job, r.Admission, r.MaxPages)
	p.X.Label.Text = "night"
	p.Y.Label.Text = fmt.Sprintf("harvest rate (relevance ≥ %g)", r.Threshold)
	p.Add(plotter.NewGrid())
	p.X.Tick.Marker = nightTicks{r.Nights}
	legend := plot.NewLegend()
	top := 0.0
	for i, s := range r.strategies() {
		var pts plotter.XYs
		for n := 1; n <= r.Nights; n++ {
			if h, ok := r.night(s, n); ok {
				pts = append(pts, plotter.XY{X: float64(n), Y: h.Rate()})
				top = max(top, h.Rate())
			}
		}
		if s == "bfs" || s == Oracle { // crawled once: a yardstick across the nights
			pts = plotter.XYs{{X: 1, Y: pts[0].Y}, {X: float64(r.Nights), Y: pts[0].Y}}
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		line.Color, points.Color = palette[i%len(palette)], palette[i%len(palette)]
		line.Width = vg.Points(2)
		points.Shape = glyphs[i%len(glyphs)]
		label := s
		if s == "bfs" || s == Oracle {
			line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			points.Radius = 0
			label += " (first night)"
		}
		p.Add(line, points)
		legend.Add(label, line, points)
	}
	p.X.Min, p.X.Max = 0.8, float64(r.Nights)+0.2
	p.Y.Min, p.Y.Max = 0, max(0.05, top*1.1)
	c, err := draw.NewFormattedCanvas(10*vg.Inch, 5*vg.Inch, format)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	side := legendStrip(dc, legend)
	area := draw.Crop(dc, 0, -side, 0, -chartMargin/2)
	p.Draw(area)
	drawLegend(dc, area, p, side, legend)
	return saveTo(path, c)
}

// nightTicks marks every night, and nothing between.
type nightTicks struct{ nights int }

func (t nightTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for n := 1; n <= t.nights; n++ {
		ticks = append(ticks, plot.Tick{Value: float64(n), Label: fmt.Sprint(n)})
	}
	return ticks
}
