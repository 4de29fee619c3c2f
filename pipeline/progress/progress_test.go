package progress

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/topicrank/topicrank/stages/crawl"
)

func TestTerminalLine(t *testing.T) {
	var term bytes.Buffer
	r := New(&term, nil, time.Hour)
	r.Update("tennis", crawl.Progress{Done: 100, Vertices: 1000, Max: 1000, Queued: 900,
		Tally: crawl.Tally{Failed: 3, Fetched: 90, NotModified: 7, Relevant: 40}, Elapsed: 50 * time.Second})
	got := term.String()
	// 2 pages/s with the vertex set full and 900 queued: 7m30s left.
	if !strings.HasPrefix(got, "\r\033[K") || !strings.Contains(got, "tennis: 100/1000 pages  2.0/s  3 failed  harvest 0.41 (40 relevant)  ETA 7m30s") {
		t.Errorf("line = %q", got)
	}
	// Updates within 100 ms are dropped, except the last one.
	r.Update("tennis", crawl.Progress{Done: 101, Vertices: 1000, Max: 1000, Queued: 899, Elapsed: 50 * time.Second})
	if strings.Contains(term.String(), "101/1000") {
		t.Error("an update 0 s later was drawn")
	}
	r.Update("tennis", crawl.Progress{Done: 1000, Vertices: 1000, Max: 1000, Elapsed: 500 * time.Second})
	if !strings.HasSuffix(term.String(), "ETA 0s\n") {
		t.Errorf("final update = %q, want it drawn and the line ended", term.String())
	}
	// Log lines clear the progress line first.
	term.Reset()
	r.LogWriter(&term).Write([]byte("msg\n"))
	if term.String() != "\r\033[Kmsg\n" {
		t.Errorf("log write = %q", term.String())
	}
}

func TestStructuredLog(t *testing.T) {
	var buf bytes.Buffer
	r := New(nil, slog.New(slog.NewJSONHandler(&buf, nil)), time.Hour)
	r.Update("tennis", crawl.Progress{Done: 10, Vertices: 50, Max: 1000, Queued: 40, Elapsed: 5 * time.Second})
	r.Update("tennis", crawl.Progress{Done: 11, Vertices: 50, Max: 1000, Queued: 39, Elapsed: 5 * time.Second}) // within the interval
	var rec map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &rec); err != nil {
		t.Fatalf("want exactly one JSON record, got %q: %v", buf.String(), err)
	}
	// The vertex set is not full: up to 990 pages are left at 2 pages/s.
	if rec["job"] != "tennis" || rec["done"] != 10.0 || rec["pages_per_s"] != 2.0 || rec["eta"] != "8m15s" {
		t.Errorf("record = %v", rec)
	}
	if w := r.LogWriter(&buf); w != &buf {
		t.Error("without a terminal, log lines need no clearing")
	}
}

func TestWork(t *testing.T) {
	var term bytes.Buffer
	r := New(&term, nil, time.Hour)
	r.Work("reading g.txt", 50e6, 200e6)
	r.Work("reading g.txt", 60e6, 200e6) // within 100 ms: dropped
	r.Work("reading g.txt", 200e6, 200e6)
	want := "\r\033[Kreading g.txt: 50.0 of 200.0 MB (25%)\r\033[Kreading g.txt: 200.0 of 200.0 MB (100%)\n"
	if term.String() != want {
		t.Errorf("terminal = %q, want %q", term.String(), want)
	}
	term.Reset()
	r.Clear()
	if term.String() != "\r\033[K" {
		t.Errorf("Clear wrote %q", term.String())
	}

	var buf bytes.Buffer
	r = New(nil, slog.New(slog.NewJSONHandler(&buf, nil)), time.Hour)
	r.Work("reading g.txt", 50e6, 200e6)
	r.Clear() // nothing to clear in a log
	var rec map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &rec); err != nil {
		t.Fatalf("want exactly one JSON record, got %q: %v", buf.String(), err)
	}
	if rec["task"] != "reading g.txt" || rec["done_bytes"] != 50e6 || rec["percent"] != 25.0 {
		t.Errorf("record = %v", rec)
	}
}
