// Package progress shows how long work is going (a crawl, reading a large
// graph): a line redrawn in place on a terminal, or a structured log record
// at a modest interval otherwise.
package progress

import (
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/topicrank/topicrank/stages/crawl"
)

// Reporter renders progress. It is safe for concurrent use by several jobs.
type Reporter struct {
	mu       sync.Mutex
	term     io.Writer // non-nil: redraw a line here
	log      *slog.Logger
	interval time.Duration
	last     map[string]time.Time
}

// New returns a Reporter that draws on term when it is not nil, and logs
// through log every interval otherwise.
func New(term io.Writer, log *slog.Logger, interval time.Duration) *Reporter {
	return &Reporter{term: term, log: log, interval: interval, last: map[string]time.Time{}}
}

// SetLogger sets the logger used when there is no terminal.
func (r *Reporter) SetLogger(log *slog.Logger) { r.log = log }

// Update reports p for job. Terminal redraws are limited to ten a second.
func (r *Reporter) Update(job string, p crawl.Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	finished := p.Queued == 0
	if !r.due(job, finished) {
		return
	}
	rate := 0.0
	if s := p.Elapsed.Seconds(); s > 0 {
		rate = float64(p.Done) / s
	}
	if r.term == nil {
		r.log.Info("crawl progress", "job", job, "done", p.Done, "max", p.Max, "queued", p.Queued,
			"failed", p.Failed, "relevant", p.Relevant, "harvest", round3(p.Harvest()),
			"pages_per_s", round1(rate), "eta", eta(p, rate).String())
		return
	}
	fmt.Fprintf(r.term, "\r\033[K%s: %d/%d pages  %.1f/s  %d failed  harvest %.2f (%d relevant)  ETA %s",
		job, p.Done, p.Max, rate, p.Failed, p.Harvest(), p.Relevant, eta(p, rate))
	if finished {
		fmt.Fprintln(r.term)
	}
}

// Work reports a task measured in bytes, such as reading a large file: done
// of total. Like Update, it draws at most ten times a second on a terminal,
// logs once an interval otherwise, and always shows the end.
func (r *Reporter) Work(task string, done, total int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	finished := done >= total
	if !r.due(task, finished) {
		return
	}
	percent := 100
	if total > 0 {
		percent = int(100 * done / total)
	}
	if r.term == nil {
		r.log.Info("progress", "task", task, "done_bytes", done, "total_bytes", total, "percent", percent)
		return
	}
	fmt.Fprintf(r.term, "\r\033[K%s: %.1f of %.1f MB (%d%%)", task, float64(done)/1e6, float64(total)/1e6, percent)
	if finished {
		fmt.Fprintln(r.term)
	}
}

// Clear erases the progress line, e.g. before an error is printed.
func (r *Reporter) Clear() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.term != nil {
		io.WriteString(r.term, "\r\033[K")
	}
}

// due reports whether an update of key should be shown now, and if so
// notes the time.
func (r *Reporter) due(key string, finished bool) bool {
	every := r.interval
	if r.term != nil {
		every = 100 * time.Millisecond
	}
	if t, ok := r.last[key]; ok && time.Since(t) < every && !finished {
		return false
	}
	r.last[key] = time.Now()
	return true
}

// LogWriter returns a writer for log lines that share the terminal with
// the progress line: each write first clears the line, which the next
// update redraws.
func (r *Reporter) LogWriter(w io.Writer) io.Writer {
	if r.term == nil {
		return w
	}
	return clearingWriter{r, w}
}

type clearingWriter struct {
	r *Reporter
	w io.Writer
}

func (c clearingWriter) Write(p []byte) (int, error) {
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	io.WriteString(c.w, "\r\033[K")
	return c.w.Write(p)
}

// eta estimates the time left: every vertex still queued must be fetched,
// and at most Max-Done pages remain.
func eta(p crawl.Progress, rate float64) time.Duration {
	if rate <= 0 {
		return 0
	}
	left := p.Max - p.Done
	if p.Vertices == p.Max { // the vertex set is final: only the queue is left
		left = min(left, p.Queued)
	}
	return time.Duration(float64(left) / rate * float64(time.Second)).Round(time.Second)
}

func round1(x float64) float64 { return float64(int(x*10+0.5)) / 10 }

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }
