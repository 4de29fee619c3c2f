//go:build cgo

package pipeline_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/wikitest"
)

// mirror is a wikimirror with a request log.
type mirror struct {
	url, log string
	from     int // lines of the log before the current run
}

func newLoggedMirror(t *testing.T, log string, flags ...string) *mirror {
	return &mirror{url: wikitest.Mirror(t, append([]string{"-log", log}, flags...)...), log: log}
}

// mark starts a run: its requests are the log's lines after this.
func (m *mirror) mark() { m.from = len(m.lines(nil)) }

func (m *mirror) lines(t *testing.T) []string {
	b, err := os.ReadFile(m.log)
	if err != nil && !os.IsNotExist(err) && t != nil {
		t.Fatal(err)
	}
	var out []string
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// since waits for at least want lines after the mark (the mirror logs a
// request when its handler returns: a slow answer's line comes 30 s
// after the crawler gave up on it) and counts them by status, a slow
// answer as 0 (the crawler's deadline ended it: no answer), and the
// pages answered 200.
func (m *mirror) since(t *testing.T, want int) (byStatus map[string]int, pages200 int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var lines []string
	for {
		lines = m.lines(t)[m.from:]
		if len(lines) >= want || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond) // polling the mirror's log file: no other signal exists
	}
	byStatus = map[string]int{}
	for _, l := range lines {
		var e struct {
			Path   string `json:"path"`
			Status int    `json:"status"`
			Fault  string `json:"fault"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("mirror log line %q: %v", l, err)
		}
		if e.Fault == "slow" {
			e.Status = 0
		}
		byStatus[strconv.Itoa(e.Status)]++
		if e.Status == 200 && e.Fault == "" && strings.HasPrefix(e.Path, "/wiki/") {
			pages200++
		}
	}
	return byStatus, pages200
}
