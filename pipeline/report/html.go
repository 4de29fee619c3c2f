package report

import (
	"html/template"
	"io"
	"math"
	"strings"
)

// Write renders the report as one HTML file: styles inline, charts as
// inline SVG, no script, font or other request.
func (d *Data) Write(w io.Writer) error { return page.Execute(w, d) }

// Harvest is the run's harvest rate, or -1 when the job measures none.
func (d *Data) Harvest() float64 {
	if h := d.Manifest.Counts.HarvestRate; h != nil {
		return *h
	}
	return -1
}

func (d *Data) HistoryChart() template.HTML { return historyChart(d.History) }

// Wiki is the job's wiki, where page names link to: its base_url (not a
// mirror it may have been fetched from).
func (d *Data) Wiki() string {
	if b := d.Manifest.Config.BaseURL; b != "" {
		return strings.TrimRight(b, "/")
	}
	return "https://en.wikipedia.org"
}
func (d *Data) OutcomesChart() template.HTML { return barChart(d.Outcomes) }

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"short":  Title,
	"date":   runDate,
	"plural": func(n int, one, many string) string { return map[bool]string{true: one, false: many}[n == 1] },
	"join":   strings.Join,
	"pct":    func(x float64) float64 { return math.Round(x*1000) / 10 },
	"div":    func(a, b float64) float64 { return a / b },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>topicrank: {{.Manifest.Job}} {{.Manifest.RunID}}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 820px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .5em 0; } td, th { padding: 2px 10px; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #f6f6f6; }
ul.inline { padding: 0; margin: .3em 0; } ul.inline li { display: inline; } ul.inline li:not(:last-child)::after { content: "; "; }
h3 { font-size: 1em; margin: .8em 0 .2em; }
.status-complete { color: #007a3d; } .status-partial { color: #b35900; }
.chart text.tick { font-size: 11px; fill: #444; } .chart text.legend { font-size: 12px; fill: #333; } .chart text.axis { font-size: 12px; }
.chart line.grid { stroke: #e4e4e4; } .problems { color: #b35900; } .note { color: #555; font-size: .92em; }
</style></head><body>
<h1>{{.Manifest.Job}}: the run of {{date .Manifest.RunID}} UTC</h1>
<p>Run {{.Manifest.RunID}}, status <b class="status-{{.Manifest.Status}}">{{.Manifest.Status}}</b>, started {{.Manifest.Started.Format "2006-01-02 15:04:05 UTC"}},
published {{.Manifest.Finished.Format "2006-01-02 15:04:05 UTC"}}, from {{.Manifest.FetchedFrom}}; robots.txt: {{.Manifest.Robots}}.</p>
<p id="job">Topic: {{with .Manifest.Config.Topics}}<b>{{join . ", "}}</b>{{else}}none (an unweighted crawl){{end}};
seeds: {{range $i, $s := .Manifest.Config.Seeds}}{{if $i}}, {{end}}<a href="{{$.Wiki}}{{$s}}">{{short $s}}</a>{{end}};
strategy <b>{{.Manifest.Config.Strategy}}</b>, {{.Manifest.Config.Admission}} admission, at most {{.Manifest.Config.MaxPages}} pages.</p>
{{with .Manifest.Problems}}<ul class="problems">{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
<table id="counts">
<tr><th>vertices</th><td class="n">{{.Manifest.Counts.Vertices}}</td><th>edges</th><td class="n">{{.Manifest.Counts.Edges}}</td></tr>
<tr><th>fetched</th><td class="n">{{.Manifest.Counts.Fetched}}</td><th>failed</th><td class="n">{{.Manifest.Counts.Failed}} ({{.Manifest.Counts.NotFound}} not found)</td></tr>
<tr><th>unchanged (304)</th><td class="n">{{.Manifest.Counts.NotModified}}</td><th>not fetched</th><td class="n">{{.Manifest.Counts.NotFetched}}</td></tr>
<tr><th>changed since last run</th><td class="n">{{.Manifest.Counts.Changed}}</td><th>requests</th><td class="n">{{.Manifest.Counts.Requests}}</td></tr>
{{if ge .Harvest 0.0}}<tr><th>relevant</th><td class="n">{{.Manifest.Counts.Relevant}}</td><th>harvest rate</th><td class="n" id="harvest">{{pct .Harvest}}%</td></tr>{{end}}
</table>
{{if ge .Harvest 0.0}}<p class="note">Harvest rate: the share of the pages whose text was judged this run ({{.Manifest.Counts.Judged}}) that are on topic, relevance at least {{.Manifest.Config.RelevanceThreshold}}.</p>{{end}}

<h2 id="since">{{if .PreviousRun}}Since the run of {{date .PreviousRun}}{{else}}Since the previous run{{end}}</h2>
{{with .Digest}}{{if not .PreviousRun}}<p>This is the job's first run: nothing to compare with yet.</p>
{{else if .Empty}}<p>Nothing changed: no page was edited, entered or left, and no page moved.</p>
{{else}}{{if .Edited}}<h3>Edited ({{len .Edited}})</h3><ul class="inline" id="edited">{{range .Edited}}<li><a href="{{$.Wiki}}{{.Page}}">{{short .Page}}</a> (<a href="{{.DiffURL $.Wiki}}">{{if .PreviousRevision}}diff{{else}}history{{end}}</a>)</li>{{end}}</ul>{{end}}
{{if .Changed}}<h3>Content changed, no new revision known ({{len .Changed}})</h3><ul class="inline" id="changed">{{range .Changed}}<li><a href="{{$.Wiki}}{{.}}">{{short .}}</a></li>{{end}}</ul>{{end}}
{{if .Entered}}<h3>Entered ({{len .Entered}})</h3><ul class="inline" id="entered">{{range .Entered}}<li><a href="{{$.Wiki}}{{.Page}}">{{short .Page}}</a> ({{.Cause}})</li>{{end}}</ul>{{end}}
{{if .Left}}<h3>Left ({{len .Left}})</h3><ul class="inline" id="left">{{range .Left}}<li><a href="{{$.Wiki}}{{.Page}}">{{short .Page}}</a> ({{.Cause}})</li>{{end}}</ul>{{end}}
{{if .Failed}}<h3>Failed or gone</h3><ul class="inline" id="gone">{{range .Failed}}<li><a href="{{$.Wiki}}{{.Page}}">{{short .Page}}</a> ({{.Cause}})</li>{{end}}</ul>{{end}}
{{if .Movers}}<h3>Biggest movers (epsilon {{.Epsilon}})</h3><ul class="inline" id="digest-movers">{{range .Movers}}<li><a href="{{$.Wiki}}{{.Page}}">{{short .Page}}</a>: #{{.PreviousPosition}} → #{{.Position}}</li>{{end}}</ul>{{end}}
<p class="note">Causes: linked / unlinked, a page linking to it was edited or changed this run; crawl, the crawl chose differently (reachable on both runs); gone, it answers 404 or 410; failed, its fetch failed. Movers are ranked among pages fetched soundly on both runs.</p>
{{end}}{{else}}<p>What changed is not told here: the run was published by an older version (its changes.parquet has no causes), or its changes.parquet could not be read.</p>{{end}}

{{if gt (len .Nights) 1}}
<h2>Harvest night by night</h2>
<table id="nights"><tr><th>run</th><th class="n">relevant</th><th class="n">judged</th><th class="n">harvest</th><th class="n">kept</th><th class="n">entered</th><th class="n">left</th><th class="n">Jaccard</th><th class="n">memory</th><th class="n">model</th><th class="n">explored</th></tr>
{{range .Nights}}<tr><td>{{date .RunID}}</td><td class="n">{{.Relevant}}</td><td class="n">{{.Judged}}</td><td class="n">{{pct .Harvest}}%</td>{{with .Churn}}<td class="n">{{.Kept}}</td><td class="n">{{.Entered}}</td><td class="n">{{.Left}}</td><td class="n">{{printf "%.2f" .Jaccard}}</td>{{else}}<td class="n">–</td><td class="n">–</td><td class="n">–</td><td class="n">–</td>{{end}}{{if .HasAdmissions}}<td class="n">{{.Memory}}</td><td class="n">{{.Model}}</td><td class="n">{{.Exploration}}</td>{{else}}<td class="n">–</td><td class="n">–</td><td class="n">–</td>{{end}}</tr>
{{end}}</table>
<p class="note">Kept, entered, left: the vertices this run shares with the run before, and those only in this one or only in that one; Jaccard = kept / (kept + entered + left). With best-first admission a night holds the last night's graph still ("memory"): it keeps its vertices except pages displaced by known better ones and a share explored for pages never fetched ("explored"), larger while exploring finds relevant pages.</p>
{{end}}

{{with .Words}}
<h2>Topic words</h2>
<table id="words"><tr><th>topic word</th><th class="n">judged pages holding it</th><th class="n">relevant</th></tr>
{{range .}}<tr><td>{{.Word}}</td><td class="n">{{.Pages}}</td><td class="n">{{.Relevant}}</td></tr>
{{end}}</table>
<p class="note">Relevance reads the job's topic words and their stems, nothing wider: a word few pages hold finds few pages. Name the words the topic's pages use in their first sentences.</p>{{end}}

<h2>Fetch outcomes</h2>
{{.OutcomesChart}}

<p class="note" id="epsilon">PageRank is computed once per epsilon: epsilon is the tolerance at which
its iterations stop (the sum of the changes of all pages' ranks in one iteration), so a smaller epsilon
gives more exact ranks; each table has a rank column per epsilon and is ordered by the smallest.</p>
{{range .Tops}}
<h2>Top {{len .Pages}} by {{.Measure}}</h2>
{{if .Topic}}<p class="note">Topic-sensitive PageRank teleports to pages in proportion to their relevance, so it ranks the topic's own pages; plain PageRank follows.</p>{{end}}
<table class="top"><tr><th class="n">#</th><th>page</th>{{range .Epsilons}}<th class="n">rank, ε {{.}}</th>{{end}}<th class="n">in</th><th class="n">out</th><th class="n">relevance</th><th>why here: the pages giving it most of its rank</th></tr>
{{range .Pages}}<tr><td class="n">{{.Position}}</td><td><a href="{{$.Wiki}}{{.Name}}">{{short .Name}}</a></td>{{$p := .}}{{range $i, $r := .Ranks}}<td class="n">{{printf "%.5f" $r}}{{with index $p.Positions $i}}{{if ne . $p.Position}} (#{{.}}){{end}}{{end}}</td>{{end}}<td class="n">{{.InDegree}}</td><td class="n">{{.OutDeg}}</td><td class="n">{{if ge .Relevance 0.0}}{{printf "%.2f" .Relevance}}{{else}}–{{end}}</td><td class="why">{{with .Why}}{{range .Lead 3}}<a href="{{$.Wiki}}{{.From}}">{{short .From}}</a> {{pct (div .Share $p.Rank)}}%; {{end}}teleport {{pct (div .Teleport $p.Rank)}}%{{with .TopicWords}}<br><span class="note">topic words: {{.}}</span>{{end}}{{end}}</td></tr>
{{end}}</table>
{{end}}
<p class="note">Why here: each in-link u gives β·rank(u)/outdeg(u); with the teleport and the dangling pages' share they sum to the rank (<code>runner explain</code> lists them all). A position in brackets is the page's position at that epsilon where it differs.</p>

{{if .Failed}}<h2>Failed pages</h2>
<p>Vertices whose fetch failed: they have no article, so they are left out of the top lists above, though PageRank ranks them.</p>
<table id="failed"><tr><th class="n">#</th><th>page</th><th class="n">status</th></tr>
{{range .Failed}}<tr><td class="n">{{.Position}}</td><td><a href="{{$.Wiki}}{{.Name}}">{{short .Name}}</a></td><td class="n">{{if .Status}}{{.Status}}{{else}}no answer{{end}}</td></tr>
{{end}}</table>
{{end}}

{{if .Categories}}
<h2>Categories</h2>
<p>The categories whose pages hold the most PageRank (epsilon {{.History.Epsilon}}); hidden, maintenance categories left out.</p>
<table id="categories"><tr><th>category</th><th class="n">pages</th><th class="n">PageRank held</th></tr>
{{range .Categories}}<tr><td>{{short .Name}}</td><td class="n">{{.Pages}}</td><td class="n">{{printf "%.4f" .Rank}}</td></tr>
{{end}}</table>
{{end}}

{{if .OverRepresented}}
<h2>Central here, not in the whole wiki</h2>
<p>Of the top pages here, those whose position in the whole wiki (the job's global_ranks) is furthest behind their position here.</p>
<table class="top"><tr><th class="n">#</th><th>page</th><th class="n">whole-wiki #</th><th class="n">in-degree</th></tr>
{{range .OverRepresented}}<tr><td class="n">{{.Position}}</td><td>{{short .Name}}</td><td class="n">{{.GlobalPosition}}</td><td class="n">{{.InDegree}}</td></tr>
{{end}}</table>
{{end}}

<h2>Biggest movers since {{if .PreviousRun}}the run of {{date .PreviousRun}}{{else}}the previous complete run{{end}} (epsilon {{.History.Epsilon}})</h2>
{{if .Movers}}<table id="movers"><tr><th>page</th><th class="n">before</th><th class="n">now</th><th class="n">change</th><th class="n">places up</th></tr>
{{range .Movers}}<tr><td><a href="{{$.Wiki}}{{.Name}}">{{short .Name}}</a></td><td class="n">{{printf "%.5f" .Previous}}</td><td class="n">{{printf "%.5f" .Rank}}</td><td class="n">{{printf "%+.5f" .Change}}</td><td class="n">{{.PlacesUp}}</td></tr>
{{end}}</table>{{else if .PreviousRun}}<p>No page changed places.</p>{{else}}<p>No earlier complete run to compare with.</p>{{end}}

<h2>Rank history of today's top {{len .History.Series}} (epsilon {{.History.Epsilon}}, {{if eq (len .History.Runs) 1}}one complete run{{else}}last {{len .History.Runs}} complete runs{{end}})</h2>
{{.HistoryChart}}
</body></html>
`))
