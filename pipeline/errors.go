package pipeline

import (
	"errors"
	"strings"
)

// Kind classifies an error so that the command line can choose its exit
// code: Invalid is the user's input (exit 2), Failed a job that did not
// complete (exit 1), Busy a run that did not start because another holds
// the job or its crawl state (exit 1; a scheduled tick that meets it is
// skipped, not failed).
type Kind int

const (
	Failed  Kind = iota // a job failed or was only partly done
	Invalid             // bad configuration or usage
	Busy                // another run holds the job's lock or its crawl state
)

// Error is an error of an operation, with its job and kind.
type Error struct {
	Op   string // "config", "crawl", "publish", ...
	Job  string // "" when not about one job
	Kind Kind
	Err  error
}

func (e *Error) Error() string {
	s := strings.TrimSpace(e.Op + " " + e.Job)
	if s == "" {
		return e.Err.Error()
	}
	return s + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of err (Failed for errors of other types).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Failed
}
