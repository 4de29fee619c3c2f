package evaluate

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	_ "gonum.org/v1/plot/vg/vgimg" // draw.NewFormattedCanvas's "png"
	_ "gonum.org/v1/plot/vg/vgsvg" // and "svg"
)

// palette gives each strategy a colour that stays apart from the others in
// print and for common colour blindness (Okabe and Ito).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermilion
	color.RGBA{0, 158, 115, 255},   // green
	color.RGBA{204, 121, 167, 255}, // purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
}

// glyphs give each revisit policy's points a shape of their own.
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PyramidGlyph{}, draw.PlusGlyph{},
}

// chart draws cumulative relevant pages against pages fetched, one line
// per strategy, into path as format ("png" or "svg"). A dashed diagonal
// marks a harvest rate of 1 and, with bfs and the oracle in the report, a
// dotted line halfway between their curves. The y axis ends a little
// above the highest curve, so that a topic with few relevant pages still
// fills the chart, and the legend stands beside the plot, where no curve
// runs through it.
func (r *Report) chart(path, format string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: relevant pages as the crawl goes (%s admission)", r.Job, r.Admission)
	p.X.Label.Text = "pages fetched"
	p.Y.Label.Text = fmt.Sprintf("relevant pages (relevance ≥ %g)", r.Threshold)
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	for i, h := range r.Harvests {
		pts := make(plotter.XYs, len(h.Curve)+1)
		for j, rel := range h.Curve {
			pts[j+1] = plotter.XY{X: float64(j + 1), Y: float64(rel)}
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		line.Color = palette[i%len(palette)]
		line.Width = vg.Points(2)
		p.Add(line)
		legend.Add(fmt.Sprintf("%s (harvest %.2f)", h.Strategy, h.Rate()), line)
	}
	if half := r.halfwayCurve(); half != nil {
		line, err := plotter.NewLine(half)
		if err != nil {
			return err
		}
		line.Color = color.Black
		line.Width = vg.Points(1)
		line.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
		p.Add(line)
		legend.Add("halfway between bfs and oracle", line)
	}
	yMax := r.yMax()
	ideal, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: yMax, Y: yMax}})
	if err != nil {
		return err
	}
	ideal.Color = color.Gray{Y: 160}
	ideal.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	p.Add(ideal)
	legend.Add("every page relevant", ideal)
	p.X.Min, p.Y.Min = 0, 0
	p.X.Max, p.Y.Max = float64(max(r.fetched(), 1)), yMax

	c, err := draw.NewFormattedCanvas(10*vg.Inch, 5*vg.Inch, format)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	side := legendStrip(dc, legend)
	top := chartMargin / 2 // above the title
	area := draw.Crop(dc, 0, -side, 0, -top)
	p.Draw(area)
	drawLegend(dc, area, p, side, legend)
	return saveTo(path, c)
}

// chartMargin separates a chart's legend from its plot and the canvas's
// edge.
const chartMargin = vg.Length(12)

// legendStrip is the width of the strip right of a chart's plot that
// holds the widest of legends, with a margin either side.
func legendStrip(c draw.Canvas, legends ...plot.Legend) vg.Length {
	var w vg.Length
	for _, l := range legends {
		w = max(w, l.Rectangle(c).Size().X)
	}
	return w + 2*chartMargin
}

// drawLegend draws the legend of plot p, drawn in area, in the strip of
// the given width right of it on c, its top level with p's data below
// the title: where no curve runs through it.
func drawLegend(c, area draw.Canvas, p *plot.Plot, side vg.Length, l plot.Legend) {
	title := p.Title.TextStyle.Height(p.Title.Text) + p.Title.Padding
	strip := draw.Crop(c, c.Max.X-c.Min.X-side+chartMargin, 0, 0, 0)
	strip.Min.Y, strip.Max.Y = area.Min.Y, area.Max.Y-title-chartMargin
	l.Top, l.Left = true, true
	l.Draw(strip)
}

// fetched is the most pages any strategy fetched: the x axis's end.
func (r *Report) fetched() int {
	most := 0
	for _, h := range r.Harvests {
		most = max(most, len(h.Curve))
	}
	return most
}

// yMax is where the y axis ends: a tenth above the highest curve,
// rounded up, and never past the pages fetched (where the diagonal of
// every page relevant ends).
func (r *Report) yMax() float64 {
	highest := 0
	for _, h := range r.Harvests {
		for _, rel := range h.Curve {
			highest = max(highest, rel)
		}
	}
	return max(1, min(float64(r.fetched()), math.Ceil(1.1*float64(highest))))
}

// halfwayCurve is the mean of bfs's and the oracle's curves, page by
// page, or nil unless the report has both.
func (r *Report) halfwayCurve() plotter.XYs {
	bfs, oracle := r.bounds()
	if bfs == nil || oracle == nil {
		return nil
	}
	n := min(len(bfs.Curve), len(oracle.Curve))
	pts := make(plotter.XYs, n+1)
	for j := range n {
		pts[j+1] = plotter.XY{X: float64(j + 1), Y: float64(bfs.Curve[j]+oracle.Curve[j]) / 2}
	}
	return pts
}

// saveTo writes a rendered chart to path.
func saveTo(path string, w io.WriterTo) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := w.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
