package report

import (
	"fmt"
	"html/template"
	"math"
	"strings"
)

// palette: Okabe and Ito's colours, apart for common colour blindness,
// then two greys.
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000", "#777777", "#BBBBBB"}

// chart geometry, in SVG units.
const (
	chartW, chartH         = 760, 320
	padL, padR, padT, padB = 120, 20, 20, 70
)

// historyChart draws one polyline per page (class "series", data-page)
// with one circle per run it was ranked in (class "point"), runs along x,
// rank along y, and a legend.
func historyChart(h History) template.HTML {
	if len(h.Runs) == 0 || len(h.Series) == 0 {
		return ""
	}
	top := 0.0
	for _, s := range h.Series {
		for _, r := range s.Ranks {
			if !math.IsNaN(r) {
				top = math.Max(top, r)
			}
		}
	}
	top = niceCeil(top)
	x := func(i int) float64 {
		if len(h.Runs) == 1 {
			return padL + (chartW-padL-padR)/2
		}
		return padL + float64(i)*(chartW-padL-padR)/float64(len(h.Runs)-1)
	}
	y := func(r float64) float64 { return padT + (1-r/top)*(chartH-padT-padB) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" role="img" aria-label="rank history" viewBox="0 0 %d %d" width="%d" height="%d" xmlns="http://www.w3.org/2000/svg">`,
		chartW, chartH+20*len(h.Series)/2+20, chartW, chartH+20*len(h.Series)/2+20)
	axes(&b, top, y)
	for i, id := range h.Runs {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="end" transform="rotate(-30 %.1f %d)" class="tick">%s</text>`,
			x(i), chartH-padB+16, x(i), chartH-padB+16, template.HTMLEscapeString(id))
	}
	for k, s := range h.Series {
		colour := palette[k%len(palette)]
		var pts []string
		var circles strings.Builder
		for i, r := range s.Ranks {
			if math.IsNaN(r) {
				continue
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(r)))
			fmt.Fprintf(&circles, `<circle class="point" cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s, %s: %.5f</title></circle>`,
				x(i), y(r), colour, template.HTMLEscapeString(s.Page), template.HTMLEscapeString(h.Runs[i]), r)
		}
		fmt.Fprintf(&b, `<polyline class="series" data-page="%s" fill="none" stroke="%s" stroke-width="2" points="%s"/>%s`,
			template.HTMLEscapeString(s.Page), colour, strings.Join(pts, " "), circles.String())
		lx, ly := padL+float64(k%2)*(chartW-padL)/2, chartH+float64(k/2)*20+10
		fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="14" height="4" fill="%s"/><text x="%.0f" y="%.0f" class="legend">%s</text>`,
			lx, ly, colour, lx+20, ly+5, template.HTMLEscapeString(strings.TrimPrefix(s.Page, "/wiki/")))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// axes draws the y axis with five labelled ticks from 0 to top, and the x
// axis line.
func axes(b *strings.Builder, top float64, y func(float64) float64) {
	for i := 0; i <= 4; i++ {
		v := top * float64(i) / 4
		fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" class="grid"/><text x="%d" y="%.1f" text-anchor="end" class="tick">%.4g</text>`,
			padL, chartW-padR, y(v), y(v), padL-6, y(v)+4, v)
	}
	fmt.Fprintf(b, `<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle" class="axis">PageRank</text>`,
		(chartH-padB+padT)/2, (chartH-padB+padT)/2)
}

// barChart draws one bar per count (class "bar"), labelled.
func barChart(counts []Count) template.HTML {
	if len(counts) == 0 {
		return ""
	}
	most := 1
	for _, c := range counts {
		most = max(most, c.N)
	}
	const rowH, labelW, barW = 26, 140, 460
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" role="img" aria-label="fetch outcomes" viewBox="0 0 %d %d" width="%d" height="%d" xmlns="http://www.w3.org/2000/svg">`,
		labelW+barW+80, rowH*len(counts)+10, labelW+barW+80, rowH*len(counts)+10)
	for i, c := range counts {
		w := float64(barW) * float64(c.N) / float64(most)
		yy := i*rowH + 5
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" class="tick">%s</text><rect class="bar" x="%d" y="%d" width="%.1f" height="%d" fill="%s"/><text x="%.1f" y="%d" class="tick">%d</text>`,
			labelW-8, yy+15, template.HTMLEscapeString(c.Label), labelW, yy, w, rowH-8, palette[i%len(palette)], float64(labelW)+w+6, yy+15, c.N)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// niceCeil rounds up to a round multiple (1, 1.25, ... 8) of a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}
