package crawl

import (
	"log/slog"
	"slices"
	"time"
)

// failureLog summarises failed fetches: one warning per error class per
// interval with the count and the first few pages, instead of one line a
// failure (a crawl of a partial mirror meets hundreds of 404s). Each
// failure is still logged at debug level.
type failureLog struct {
	log      *slog.Logger
	interval time.Duration
	since    time.Time
	counts   map[string]int
	examples map[string][]string
}

// failureExamples is how many pages a summary names per class.
const failureExamples = 3

func newFailureLog(log *slog.Logger, interval time.Duration) *failureLog {
	return &failureLog{log: log, interval: interval, since: time.Now(), counts: map[string]int{}, examples: map[string][]string{}}
}

// add records a failure and writes the summary once the interval is over.
func (f *failureLog) add(p *Page) {
	f.log.Debug("fetch failed", "page", p.Key, "class", p.Class, "status", p.Status, "attempts", p.Attempts, "err", p.Error)
	class := p.Class
	if p.Class == ClassHTTP {
		class = p.Error // "HTTP 404": one summary per status
	}
	f.counts[class]++
	if len(f.examples[class]) < failureExamples {
		f.examples[class] = append(f.examples[class], p.Key)
	}
	if time.Since(f.since) >= f.interval {
		f.flush()
	}
}

// flush writes one warning per class seen since the last flush.
func (f *failureLog) flush() {
	classes := make([]string, 0, len(f.counts))
	for c := range f.counts {
		classes = append(classes, c)
	}
	slices.Sort(classes)
	for _, c := range classes {
		f.log.Warn("fetches failed", "class", c, "count", f.counts[c], "first", f.examples[c])
	}
	clear(f.counts)
	clear(f.examples)
	f.since = time.Now()
}
