package report

import (
	"fmt"
	"html/template"
	"math"
	"strings"
	"time"
)

// palette: Okabe and Ito's colours, apart for common colour blindness,
// without their yellow, then black, indigo, brown and a grey: every line
// reads on white.
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#332288", "#8C564B", "#666666"}

// chart geometry, in SVG units.
const (
	chartW, chartH         = 760, 320
	padL, padR, padT, padB = 120, 20, 20, 70
)

// historyChart draws one polyline per page (class "series", data-page)
// with one circle per run it was ranked in (class "point"): runs along x,
// labelled with their dates, and the page's position along y, first at
// the top. Each line is labelled with its page at its right end, where
// today's positions keep the labels apart. With one run there is no
// history to draw: it says so.
func historyChart(h History) template.HTML {
	if len(h.Series) == 0 {
		return ""
	}
	if len(h.Runs) < 2 {
		return `<p class="note" id="one-run">One run so far: the history is drawn from the next complete run on.</p>`
	}
	var last int32 = 1
	for _, s := range h.Series {
		for _, p := range s.Positions {
			last = max(last, p)
		}
	}
	const w, labelW = chartW - 220, 210 // the plot, and the labels right of it
	x := func(i int) float64 { return padL + float64(i)*float64(w-padL)/float64(len(h.Runs)-1) }
	y := func(p int32) float64 { return padT + float64(p-1)/float64(max(last-1, 1))*(chartH-padT-padB) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" role="img" aria-label="rank history: position by run" viewBox="0 0 %d %d" width="%d" height="%d" xmlns="http://www.w3.org/2000/svg">`,
		chartW, chartH, chartW, chartH)
	for _, p := range positionTicks(last) {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" class="grid"/><text x="%d" y="%.1f" text-anchor="end" class="tick">%d</text>`,
			padL, w, y(p), y(p), padL-6, y(p)+4, p)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" transform="rotate(-90 %d %d)" text-anchor="middle" class="axis">position by PageRank (1 = first)</text>`,
		padL-40, (chartH-padB+padT)/2, padL-40, (chartH-padB+padT)/2)
	for i, id := range h.Runs {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="end" transform="rotate(-30 %.1f %d)" class="tick">%s</text>`,
			x(i), chartH-padB+16, x(i), chartH-padB+16, template.HTMLEscapeString(runDate(id)))
	}
	for k, s := range h.Series {
		colour := palette[k%len(palette)]
		var pts []string
		var circles strings.Builder
		end := -1
		for i, r := range s.Ranks {
			if math.IsNaN(r) {
				continue
			}
			end = i
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(s.Positions[i])))
			fmt.Fprintf(&circles, `<circle class="point" cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s, %s: #%d, PageRank %.5f</title></circle>`,
				x(i), y(s.Positions[i]), colour, template.HTMLEscapeString(Title(s.Page)), template.HTMLEscapeString(runDate(h.Runs[i])), s.Positions[i], r)
		}
		fmt.Fprintf(&b, `<polyline class="series" data-page="%s" fill="none" stroke="%s" stroke-width="2" points="%s"/>%s`,
			template.HTMLEscapeString(s.Page), colour, strings.Join(pts, " "), circles.String())
		if end >= 0 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="legend">%s</text>`, // dark text: the palette's yellow is unreadable on white
				x(end)+8, y(s.Positions[end])+4, template.HTMLEscapeString(clip(Title(s.Page), labelW/7)))
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// positionTicks are the positions the y axis labels, whole and evenly
// spaced from 1: every position up to 12, else 1 and steps of a round
// size.
func positionTicks(last int32) []int32 {
	step := int32(1)
	if last > 12 {
		step = int32(niceCeil(float64(last) / 6))
	}
	var ticks []int32
	for p := int32(1); p <= last; p += step {
		ticks = append(ticks, p)
	}
	return ticks
}

// runDate is a run id (20261125T020000Z) as a date and time.
func runDate(id string) string {
	t, err := time.Parse("20060102T150405Z", id)
	if err != nil {
		return id
	}
	return t.Format("2006-01-02 15:04")
}

// clip shortens s to n characters.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Title is a page name (/wiki/Space_Needle) as its title reads (Space Needle).
func Title(page string) string {
	return strings.ReplaceAll(strings.TrimPrefix(page, "/wiki/"), "_", " ")
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
