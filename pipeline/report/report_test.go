package report

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// publishRuns publishes runs of a growing crawl of a generated wiki, so
// that ranks move from run to run, and returns the output root.
func publishRuns(t *testing.T, sizes ...int) string {
	t.Helper()
	w := wikitest.New(t, 300)
	r := pipeline.NewRunner(t.TempDir(), slog.New(slog.DiscardHandler))
	r.BaseURL = w.URL()
	clock := time.Date(2026, 11, 21, 2, 0, 0, 0, time.UTC)
	r.Now = func() time.Time { clock = clock.Add(time.Hour); return clock }
	for _, n := range sizes {
		job := pipeline.Job{Name: "tennis", Seeds: []string{"/wiki/Page_0"}, Topics: []string{"tennis"}, Weighted: true,
			LinkScope: "body", Strategy: "weighted", Admission: "discovery", RelevanceThreshold: 0.1, MaxPages: n,
			BaseURL: "https://en.wikipedia.org", UserAgent: "topicrank-test/0.1 (ops@example.org)",
			Epsilons: []float64{0.01, 0.005}, Beta: 0.85, MaxRPS: 1000, Concurrency: 4}
		if _, err := r.Run(context.Background(), job); err != nil {
			t.Fatal(err)
		}
	}
	return r.OutDir
}

// The report of the newest of three runs: its tables and charts hold what
// the published outputs say.
func TestReport(t *testing.T) {
	root := publishRuns(t, 40, 60, 80)
	d, err := Read(root, "tennis", "")
	if err != nil {
		t.Fatal(err)
	}
	if d.Manifest.Counts.Vertices != 80 || len(d.Tops) != 2 || len(d.Tops[0].Pages) != TopPages ||
		len(d.History.Runs) != 3 || len(d.History.Series) != HistoryTop || len(d.Movers) == 0 {
		t.Fatalf("report data: %d vertices, %d tops, %d history runs, %d series, %d movers", d.Manifest.Counts.Vertices,
			len(d.Tops), len(d.History.Runs), len(d.History.Series), len(d.Movers))
	}
	if len(d.Nights) != 3 || d.Nights[2].RunID != d.Manifest.RunID || d.Nights[2].Relevant != d.Manifest.Counts.Relevant {
		t.Errorf("harvest by night: %+v", d.Nights)
	}
	// The job's one word is behind every relevant page: without it a page
	// shows the judge nothing.
	if len(d.Words) != 1 || d.Words[0].Word != "tennis" || d.Words[0].Relevant != d.Manifest.Counts.Relevant ||
		d.Words[0].Pages < d.Words[0].Relevant || d.Words[0].Pages > d.Manifest.Counts.Judged {
		t.Errorf("topic words: %+v, with %d relevant of %d judged", d.Words, d.Manifest.Counts.Relevant, d.Manifest.Counts.Judged)
	}
	var html bytes.Buffer
	if err := d.Write(&html); err != nil {
		t.Fatal(err)
	}
	s := html.String()
	if !strings.Contains(s, `<table id="words">`) || !strings.Contains(s, "<tr><td>tennis</td>") {
		t.Error("the report lacks its topic words")
	}
	if !strings.Contains(s, `<table id="nights">`) || strings.Count(s, "</td></tr>\n") < 3 {
		t.Error("the report lacks the harvest night by night")
	}
	series, points := strings.Count(s, `class="series"`), strings.Count(s, `class="point"`)
	if series != HistoryTop || points != wantPoints(d) || strings.Count(s, `class="bar"`) != len(d.Outcomes) {
		t.Errorf("charts: %d series, %d points (want %d), %d bars", series, points, wantPoints(d), strings.Count(s, `class="bar"`))
	}
	for _, external := range []string{"<script", "<link", "<img", "<iframe", "src=", "@import", "url("} {
		if strings.Contains(s, external) {
			t.Errorf("the report refers outside itself: %q", external)
		}
	}
	// Links are the only references: page names, to the page on the job's wiki.
	if n, wiki := strings.Count(s, "href="), strings.Count(s, `<a href="https://en.wikipedia.org/wiki/`); n == 0 || n != wiki {
		t.Errorf("%d links, %d of them to pages of the job's wiki", n, wiki)
	}
	for _, want := range []string{`id="job"`, "Topic: <b>tennis</b>", "strategy <b>weighted</b>", "(epsilon 0.005)</h2>"} {
		if !strings.Contains(s, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	for _, m := range d.Movers {
		if m.PlacesUp == 0 {
			t.Errorf("a mover that did not change places: %+v", m)
		}
	}
	path := filepath.Join(t.TempDir(), "report.html")
	os.WriteFile(path, html.Bytes(), 0o644)
	renderInChromium(t, path, series, points)

	if _, err := Read(root, "tennis", "20000101T000000Z"); err == nil || !strings.Contains(err.Error(), "20000101T000000Z") {
		t.Errorf("a missing run: %v", err)
	}
}

// With one run there is no history to draw: the report says so, and the
// tables name pages by their titles.
func TestReportOneRun(t *testing.T) {
	root := publishRuns(t, 40)
	d, err := Read(root, "tennis", "")
	if err != nil {
		t.Fatal(err)
	}
	var html bytes.Buffer
	if err := d.Write(&html); err != nil {
		t.Fatal(err)
	}
	s := html.String()
	if strings.Contains(s, `<table id="nights">`) {
		t.Error("a table of nights for one night")
	}
	if !strings.Contains(s, `id="one-run"`) || strings.Contains(s, `class="series"`) {
		t.Error("a one-run report draws a history instead of saying there is one run so far")
	}
	if strings.Contains(s, ">Page_") || !strings.Contains(s, ">Page 0</a></td>") || !strings.Contains(s, `id="epsilon"`) ||
		!strings.Contains(s, "one complete run") {
		t.Error("page names with underscores, or no word on epsilon")
	}
	if !strings.Contains(s, `<th class="n">relevance</th>`) {
		t.Error("no relevance column")
	}
}

func wantPoints(d *Data) int {
	n := 0
	for _, s := range d.History.Series {
		for _, r := range s.Ranks {
			if r == r { // not NaN: ranked in that run
				n++
			}
		}
	}
	return n
}

// renderInChromium loads the report in headless Chromium (when installed):
// no console errors or failed loads, the charts' series and points in the
// DOM the browser built, and a screenshot, kept with the test's files.
func renderInChromium(t *testing.T, path string, series, points int) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Log("no chromium: the report is checked without a browser")
		return
	}
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		"--no-first-run", "--disable-sync", "--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}
	var stderr bytes.Buffer
	dom := exec.Command(bin, append(args, "--dump-dom", "file://"+path)...)
	dom.Stderr = &stderr
	out, err := dom.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	if got := strings.Count(string(out), `class="series"`); got != series {
		t.Errorf("Chromium's DOM has %d series, want %d", got, series)
	}
	if got := strings.Count(string(out), `class="point"`); got != points {
		t.Errorf("Chromium's DOM has %d points, want %d", got, points)
	}
	for _, bad := range []string{"CONSOLE", "Failed to load resource", "Uncaught"} {
		if strings.Contains(stderr.String(), bad) {
			t.Errorf("Chromium reports %q:\n%s", bad, stderr.String())
		}
	}
	shot := filepath.Join(filepath.Dir(path), "report.png")
	if dir := os.Getenv("TOPICRANK_SCREENSHOTS"); dir != "" {
		shot = filepath.Join(dir, "report.png")
	}
	cmd := exec.Command(bin, append(args, "--window-size=900,2400", "--screenshot="+shot, "file://"+path)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium screenshot: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() != 900 {
		t.Errorf("screenshot: %v %v", err, img.Bounds())
	}
	t.Logf("screenshot: %s", shot)
}

// The rank history's axis: whole positions, evenly spaced from 1.
func TestPositionTicks(t *testing.T) {
	for last, want := range map[int32]string{
		3: "[1 2 3]", 12: "[1 2 3 4 5 6 7 8 9 10 11 12]", 40: "[1 9 17 25 33]", 100: "[1 21 41 61 81]",
	} {
		if got := fmt.Sprint(positionTicks(last)); got != want {
			t.Errorf("positionTicks(%d) = %s, want %s", last, got, want)
		}
	}
}
