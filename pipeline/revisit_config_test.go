package pipeline

import (
	"strings"
	"testing"
)

// TestRevisitValidation checks that bad revisit settings are validate
// errors naming file:line, job and field.
func TestRevisitValidation(t *testing.T) {
	head := "defaults:\n  user_agent: \"t/1 (ops@example.org)\"\n  max_pages: 100\njobs:\n  - name: j\n    seeds: [/wiki/A]\n"
	for _, c := range []struct{ yaml, want string }{
		{"    revisit: fresh\n", `jobs.yaml:7: job "j": revisit: unknown revisit policy "fresh"`},
		{"    revisit: oldest\n", `jobs.yaml:7: job "j": revisit: unknown revisit policy "oldest"`},
		{"    revisit: dynamicity\n    max_requests: 0\n", `jobs.yaml:8: job "j": max_requests: 0 must be at least 1`},
		{"    revisit: dynamicity\n    max_requests: -5\n", `jobs.yaml:8: job "j": max_requests: -5 must be at least 1`},
		{"    revisit: adaptive\n    max_duration: 0s\n", `jobs.yaml:8: job "j": max_duration: 0s must be above 0`},
		{"    revisit: adaptive\n    max_duration: 2s\n", `jobs.yaml:8: job "j": max_duration: 2s is shorter than one request may take`},
		{"    max_requests: 50\n", `jobs.yaml:7: job "j": max_requests: 50 cannot cover a first crawl with revisit: all`},
		{"    revisit: freshness\n", `jobs.yaml:7: job "j": revisit: freshness needs a budget`},
		{"    revisit: freshness\n    max_requests: 20\n    new_share: 1\n", `jobs.yaml:9: job "j": new_share: 1 must be in [0,1)`},
		// An unknown policy does not hide the budget's own errors.
		{"    revisit: fresh\n    max_requests: 0\n", `jobs.yaml:8: job "j": max_requests: 0 must be at least 1`},
		{"    revisit: fresh\n    max_duration: 1ms\n", `jobs.yaml:8: job "j": max_duration: 1ms is shorter`},
	} {
		_, err := ParseConfig("jobs.yaml", []byte(head+c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.yaml, err, c.want)
		}
	}
	ok := head + "    revisit: freshness\n    max_requests: 20\n    max_duration: 1h\n    new_share: 0.2\n"
	if _, err := ParseConfig("jobs.yaml", []byte(ok)); err != nil {
		t.Errorf("valid revisit settings refused: %v", err)
	}
}

func TestMaxTunnelValidation(t *testing.T) {
	head := "defaults:\n  user_agent: \"t/1 (ops@example.org)\"\njobs:\n  - name: j\n    seeds: [/wiki/A]\n"
	for _, c := range []struct{ yaml, want string }{
		{"    max_tunnel: -1\n", `jobs.yaml:6: job "j": max_tunnel: -1 must be between 0 and 100`},
		{"    max_tunnel: two\n", `jobs.yaml:6: job "j": max_tunnel:`},
		{"    strategy: learnt\n", `jobs.yaml:6: job "j": strategy: unknown strategy "learnt"`},
	} {
		if _, err := ParseConfig("jobs.yaml", []byte(head+c.yaml)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.yaml, err, c.want)
		}
	}
	if _, err := ParseConfig("jobs.yaml", []byte(head+"    strategy: learned\n    max_tunnel: 2\n")); err != nil {
		t.Errorf("learned with max_tunnel 2 refused: %v", err)
	}
}

func TestFeedbackValidation(t *testing.T) {
	head := "defaults:\n  user_agent: \"t/1 (ops@example.org)\"\njobs:\n  - name: j\n    seeds: [/wiki/A]\n    topic_feedback: true\n"
	for _, c := range []struct{ yaml, want string }{
		{"    feedback_terms: 0\n", `jobs.yaml:7: job "j": feedback_terms: 0 must be between 1 and 200`},
		{"    feedback_weight: 1\n", `jobs.yaml:7: job "j": feedback_weight: 1 must be in (0,1)`},
		{"    feedback_weight: -0.1\n", `jobs.yaml:7: job "j": feedback_weight: -0.1 must be in (0,1)`},
	} {
		if _, err := ParseConfig("jobs.yaml", []byte(head+c.yaml)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.yaml, err, c.want)
		}
	}
}
