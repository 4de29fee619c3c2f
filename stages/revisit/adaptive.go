package revisit

// The adaptive schedule is Nutch's AdaptiveFetchSchedule (and
// StormCrawler's AdaptiveScheduler after it): a page's interval shrinks by
// DecRate when a visit found it changed and grows by IncRate when not,
// within [MinInterval, MaxInterval]. The rates are Nutch's defaults
// (db.fetch.schedule.adaptive.inc_rate 0.4, dec_rate 0.2); the bounds are
// one run, the most a scheduled job can revisit, and 90 runs, Nutch's
// db.fetch.interval.max of 90 days for a nightly job.
const (
	IncRate     = 0.4
	DecRate     = 0.2
	MinInterval = 1.0
	MaxInterval = 90.0
)

func nextInterval(iv float64, changed bool) float64 {
	if iv < MinInterval {
		iv = MinInterval
	}
	if changed {
		iv *= 1 - DecRate
	} else {
		iv *= 1 + IncRate
	}
	return min(max(iv, MinInterval), MaxInterval)
}

// adaptive returns the pages that are due at tick now (their interval has
// passed since the last visit), the most overdue first: by the tick they
// fell due, as StormCrawler's frontier orders by next fetch date. Pages
// not due are not revisited, whatever the budget.
func adaptive(pages []History, now int) []Choice {
	dueAt := func(h *History) float64 { return float64(h.LastVisit) + max(h.Interval, MinInterval) }
	return byKey(pages, ReasonDue, func(h *History) bool { return float64(now) >= dueAt(h) }, dueAt)
}
