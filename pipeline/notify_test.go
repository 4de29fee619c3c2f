package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/topicrank/topicrank/pipeline/notify"
)

// Webhooks against real receivers: one that answers 500 twice and then
// 200 gets exactly one delivery per run, with the run, its digest and a
// text; one that hangs and one that refuses connections leave the run
// published on time with its status unchanged; the secret part of every
// URL appears in no log line and no published file.
func TestWebhooks(t *testing.T) {
	const secret = "T0KEN-s3cret"
	var mu sync.Mutex
	var got []notify.Message
	tries := map[string]int{} // by run: messages of two runs may be under way at once
	attempts := 0
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m notify.Message
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &m); err != nil || !strings.HasSuffix(r.URL.Path, secret) {
			t.Errorf("flaky receiver: %v, path %s", err, r.URL.Path)
		}
		mu.Lock()
		defer mu.Unlock()
		attempts++
		if tries[m.RunID]++; tries[m.RunID] < 3 { // 500 twice, then 200, for every message
			http.Error(w, "try again", http.StatusInternalServerError)
			return
		}
		got = append(got, m)
	}))
	defer flaky.Close()
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer hang.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now

	w := &tinyWiki{}
	srv := httptest.NewServer(w)
	defer srv.Close()
	r := testRunner(t, srv.URL)
	var logs bytes.Buffer
	r.Log = slog.New(slog.NewTextHandler(&logs, nil))
	r.Notifier = &notify.Notifier{Log: r.Log}
	job := testJob("hooks", 10)
	job.Seeds, job.LinkScope, job.NotifyTimeout = []string{"/wiki/S"}, "prose", 3*time.Second
	job.Notify = []notify.Hook{
		{URL: flaky.URL + "/hook/" + secret, On: []string{notify.OnRun}},
		{URL: hang.URL + "/hook/" + secret + "?token=" + secret},
		{URL: refused + "/hook/" + secret, On: []string{notify.OnRun, notify.OnFailure}},
		{URL: flaky.URL + "/never/" + secret, On: []string{notify.OnFailure}}, // no run fails
	}
	for night := range 2 {
		w.mu.Lock()
		w.edited = night == 1
		w.mu.Unlock()
		// Run returns while the hanging receiver still holds its message:
		// were publication waiting on deliveries, this would not return
		// before release is closed below.
		m, err := r.Run(context.Background(), job)
		if err != nil || m.Status != StatusComplete {
			t.Fatalf("night %d: %v, status %v", night+1, err, m)
		}
	}
	close(release)
	r.Notifier.Wait()
	// The outcomes reach the next run's manifest: each message of the two
	// nights to each of the three hooks that wanted it, redacted.
	third, err := r.Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	delivered, failed := 0, 0
	for _, d := range third.Notifications {
		if strings.Contains(d.URL, secret) {
			t.Errorf("a recorded delivery names the secret: %+v", d)
		}
		if d.Delivered {
			delivered++
		} else {
			failed++
		}
	}
	if delivered != 4 || failed != 2 {
		t.Errorf("the third run's manifest records %d delivered and %d failed messages, want 4 and 2: %+v", delivered, failed, third.Notifications)
	}
	r.Notifier.Wait()
	if len(got) != 3 || attempts != 9 {
		t.Fatalf("flaky receiver: %d messages in %d attempts, want 3 in 9", len(got), attempts)
	}
	slices.SortFunc(got, func(a, b notify.Message) int { return strings.Compare(a.RunID, b.RunID) })
	second := got[1]
	if second.Job != "hooks" || second.Status != StatusComplete || !strings.Contains(second.Text, "1 edited") ||
		second.Digest == nil || !strings.Contains(strings.Join(second.Events, ","), notify.OnChange) {
		t.Errorf("the second night's message: %+v", second)
	}
	if strings.Contains(logs.String(), secret) {
		t.Errorf("the secret is in the log:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "webhook not delivered") || !strings.Contains(logs.String(), refused+"/…") {
		t.Errorf("the refused receiver's failure is not logged, redacted:\n%s", logs.String())
	}
	filepath.WalkDir(r.OutDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(secret)) {
				t.Errorf("the secret is in %s", p)
			}
		}
		return nil
	})
}

func TestHookCheckAndRedact(t *testing.T) {
	for _, c := range []struct {
		hook notify.Hook
		want string
	}{
		{notify.Hook{URL: "https://hooks.example.org/services/T/B/X"}, ""},
		{notify.Hook{URL: "ftp://example.org/x"}, "want http:// or https://"},
		{notify.Hook{URL: "https:///path"}, "has no host"},
		{notify.Hook{URL: "https://example.org", On: []string{"changes"}}, `"changes" is not an event`},
		{notify.Hook{}, "url is required"},
	} {
		if got := notify.Check(c.hook); (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("Check(%+v) = %q, want %q", c.hook, got, c.want)
		}
	}
	if got := notify.Redact("https://user:pw@hooks.example.org/services/T/B/X?k=v"); got != "https://hooks.example.org/…" {
		t.Errorf("Redact = %q", got)
	}
}
