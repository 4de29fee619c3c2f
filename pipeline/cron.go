package pipeline

import (
	"time"

	"github.com/robfig/cron/v3"
)

// Spec returns the job's schedule as robfig/cron parses it, in the job's
// time zone whatever the host's (robfig/cron's default is the host's).
func (j Job) Spec() (cron.Schedule, error) {
	return cron.ParseStandard("CRON_TZ=" + j.Timezone + " " + j.Schedule)
}

// NextRun returns when the job's schedule next fires after t (zero time
// for a job without a schedule).
func (j Job) NextRun(after time.Time) time.Time {
	if j.Schedule == "" {
		return time.Time{}
	}
	s, err := j.Spec()
	if err != nil {
		return time.Time{}
	}
	return s.Next(after)
}
