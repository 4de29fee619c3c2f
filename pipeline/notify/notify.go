// Package notify delivers a job's webhooks: one JSON POST per published
// or failed run to each URL whose events match, retried with backoff on
// network errors, 429 and 5xx, within a bounded time. Delivery runs
// beside the pipeline: it never delays a publication and never fails a
// run. A webhook's URL often carries a secret (a Slack token in its
// path), so it is only ever shown redacted.
package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Events a hook may ask for.
const (
	OnRun     = "run"     // every published run
	OnFailure = "failure" // a failed or partial run
	OnChange  = "change"  // a run whose digest is not empty
)

// Events lists the events, for validation.
var Events = []string{OnRun, OnFailure, OnChange}

// Hook is one webhook of a job.
type Hook struct {
	URL string   // http or https
	On  []string // events; empty: run
}

// MarshalJSON writes the hook with its URL redacted: manifests and logs
// carry the job's settings, never the secret.
func (h Hook) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		URL string   `json:"url"`
		On  []string `json:"on,omitempty"`
	}{Redact(h.URL), h.On})
}

// Wants reports whether h is sent for a run with these events.
func (h Hook) Wants(events []string) bool {
	on := h.On
	if len(on) == 0 {
		on = []string{OnRun}
	}
	for _, e := range on {
		if slices.Contains(events, e) {
			return true
		}
	}
	return false
}

// Check says what is wrong with a hook's URL and events ("" if nothing).
func Check(h Hook) string {
	u, err := url.Parse(h.URL)
	switch {
	case h.URL == "":
		return "url is required"
	case err != nil:
		return fmt.Sprintf("url %s does not parse", Redact(h.URL))
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Sprintf("url %s: want http:// or https://", Redact(h.URL))
	case u.Host == "":
		return fmt.Sprintf("url %s has no host", Redact(h.URL))
	}
	for _, e := range h.On {
		if !slices.Contains(Events, e) {
			return fmt.Sprintf("on: %q is not an event (want run, failure or change)", e)
		}
	}
	return ""
}

// Redact shows a URL without what may be secret: scheme and host only,
// the rest (user, path, query) as "…".
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(a URL, redacted)"
	}
	s := u.Scheme + "://" + u.Host
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		s += "/…"
	}
	return s
}

// Message is what a webhook receives: the run, its counts and digest, the
// report's path, and Text, which Slack-compatible receivers display.
type Message struct {
	Job    string   `json:"job"`
	RunID  string   `json:"run_id"`
	Status string   `json:"status"` // complete, partial or failed
	Events []string `json:"events"`
	Counts any      `json:"counts,omitempty"`
	Digest any      `json:"digest,omitempty"`
	Report string   `json:"report,omitempty"` // where the run's report is, or how to make it
	Error  string   `json:"error,omitempty"`
	Text   string   `json:"text"`
}

// Delivery is the outcome of one message to one webhook.
type Delivery struct {
	Job       string    `json:"job"`
	RunID     string    `json:"run_id"`
	URL       string    `json:"url"` // redacted
	Delivered bool      `json:"delivered"`
	Attempts  int       `json:"attempts"`
	Error     string    `json:"error,omitempty"`
	At        time.Time `json:"at"`
}

// Notifier sends messages in the background.
type Notifier struct {
	Client *http.Client // nil: one with a 10 s time-out per attempt
	Log    *slog.Logger
	// Delivered, if set, is told each outcome (for metrics).
	Delivered func(job string, ok bool)
	wg        sync.WaitGroup
}

// Send delivers msg to every hook that wants its events, in the
// background, each within timeout (retries included), and returns at once.
// done, if not nil, is told each outcome.
func (n *Notifier) Send(hooks []Hook, timeout time.Duration, msg Message, done func(Delivery)) {
	body, err := json.Marshal(msg)
	if err != nil {
		n.log().Error("webhook message not made", "job", msg.Job, "err", err)
		return
	}
	for _, h := range hooks {
		if !h.Wants(msg.Events) {
			continue
		}
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			attempts, err := n.deliver(h.URL, body, timeout)
			ok := err == nil
			if ok {
				n.log().Info("webhook delivered", "job", msg.Job, "run_id", msg.RunID, "url", Redact(h.URL), "attempts", attempts)
			} else {
				n.log().Warn("webhook not delivered", "job", msg.Job, "run_id", msg.RunID, "url", Redact(h.URL), "attempts", attempts, "err", err)
			}
			if n.Delivered != nil {
				n.Delivered(msg.Job, ok)
			}
			if done != nil {
				d := Delivery{Job: msg.Job, RunID: msg.RunID, URL: Redact(h.URL), Delivered: ok, Attempts: attempts, At: time.Now().UTC()}
				if err != nil {
					d.Error = err.Error()
				}
				done(d)
			}
		}()
	}
}

// Wait waits for the deliveries under way (each bounded by its timeout).
func (n *Notifier) Wait() { n.wg.Wait() }

func (n *Notifier) log() *slog.Logger {
	if n.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return n.Log
}

// deliver POSTs body to url until it is taken (2xx), refused for good
// (another 4xx), or timeout has passed; it returns the attempts made.
func (n *Notifier) deliver(url string, body []byte, timeout time.Duration) (int, error) {
	client := n.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	wait := 250 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := post(ctx, client, url, body)
		if err == nil {
			return attempt, nil
		}
		if p, ok := err.(permanent); ok {
			return attempt, p.error
		}
		select {
		case <-ctx.Done():
			return attempt, fmt.Errorf("gave up after %s: %w", timeout, err)
		case <-time.After(wait):
		}
		wait = min(2*wait, 8*time.Second)
	}
}

// permanent is an answer no retry changes (a 4xx other than 429).
type permanent struct{ error }

func post(ctx context.Context, client *http.Client, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return permanent{fmt.Errorf("request: %v", redactErr(err, url))}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "topicrank-notify")
	resp, err := client.Do(req)
	if err != nil {
		return redactErr(err, url)
	}
	resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return fmt.Errorf("answered %s", resp.Status)
	}
	return permanent{fmt.Errorf("answered %s", resp.Status)}
}

// redactErr is err with url redacted: net/http names the URL in its
// errors.
func redactErr(err error, raw string) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s %s: %v", ue.Op, Redact(raw), ue.Err)
	}
	return fmt.Errorf("%s", strings.ReplaceAll(err.Error(), raw, Redact(raw)))
}
