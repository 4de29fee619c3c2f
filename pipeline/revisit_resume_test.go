package pipeline

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestBudgetedRunResumesWithoutSpendingTwice interrupts a budgeted run
// while it revisits and checks that the run that resumes it spends only
// what is left of the budget: the two together make at most max_requests
// requests, as the server counted them.
func TestBudgetedRunResumesWithoutSpendingTwice(t *testing.T) {
	w := wikitest.New(t, 400)
	r := testRunner(t, w.URL())
	job := testJob("budget", 150)
	if _, err := r.Run(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	job.Revisit, job.MaxRequests = "dynamicity", 60
	var sent atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	r.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if sent.Add(1) == 25 {
				cancel()
			}
			return rt.RoundTrip(req)
		})
	}
	count := func() int {
		n := 0
		for _, c := range w.Requests() {
			n += c
		}
		return n
	}
	before := count()
	first, err := r.Run(ctx, job)
	if err == nil || first.Status != StatusPartial {
		t.Fatalf("interrupted run: %v, %+v", err, first)
	}
	second, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	spent := count() - before
	if second.ResumedFrom != first.RunID || second.Revisit == nil {
		t.Fatalf("resumed from %q, revisit %+v", second.ResumedFrom, second.Revisit)
	}
	if spent > 60 || second.Revisit.Requests > 60 || second.Revisit.Requests < spent {
		t.Errorf("the two runs made %d requests (the second's manifest: %d used) on a budget of 60", spent, second.Revisit.Requests)
	}
	if second.Revisit.Requests < 55 {
		t.Errorf("the resumed run left the budget unspent: %+v", second.Revisit)
	}
}
