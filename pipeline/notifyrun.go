package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/topicrank/topicrank/pipeline/notify"
	"github.com/topicrank/topicrank/stages/publish"
)

// notifyRun sends the job's webhooks about a run: m published in dir
// (complete or partial), or, when runErr is set and nothing was
// published, the failure. It returns at once: delivery runs beside the
// pipeline (Runner.Notifier.Wait waits for it).
func (r *Runner) notifyRun(job Job, dir string, m *Manifest, published bool, runErr error) {
	if len(job.Notify) == 0 || r.Notifier == nil {
		return
	}
	msg := notify.Message{Job: job.Name, RunID: m.RunID, Status: m.Status}
	switch {
	case published:
		msg.Events = []string{notify.OnRun}
		msg.Counts = m.Counts
		run := runDir(dir, m.RunID, m.Status)
		msg.Report = fmt.Sprintf("%s (runner report -job %s -run %s)", run, job.Name, m.RunID)
		var prev *publish.Previous
		if m.PreviousRunID != "" {
			prev, _ = publish.ReadPrevious(filepath.Join(dir, m.PreviousRunID))
		}
		if d, err := publish.ReadDigest(run, prev); err == nil {
			msg.Digest = d
			if d.PreviousRun != "" && !d.Empty() {
				msg.Events = append(msg.Events, notify.OnChange)
			}
			msg.Text = digestText(job.Name, m, d)
		}
		if m.Status != StatusComplete {
			msg.Events = append(msg.Events, notify.OnFailure)
			msg.Error = strings.Join(m.Problems, "\n")
		}
	default:
		msg.Status, msg.Events = "failed", []string{notify.OnFailure}
		msg.Error = runErr.Error()
		msg.Text = fmt.Sprintf("topicrank %s: run %s failed: %v", job.Name, m.RunID, runErr)
	}
	if msg.Text == "" {
		msg.Text = fmt.Sprintf("topicrank %s: run %s %s", job.Name, m.RunID, msg.Status)
	}
	r.Notifier.Send(job.Notify, job.NotifyTimeout, msg, func(d notify.Delivery) { recordDelivery(dir, d) })
}

// Webhook outcomes arrive after their run is published (publication
// never waits for them), so each is appended to the job's
// .notify/deliveries.jsonl, and the job's next run takes them into its
// manifest (notifications).
const deliveriesFile = "deliveries.jsonl"

var deliveriesMu sync.Mutex

// recordDelivery appends d to the job folder dir's deliveries.
func recordDelivery(dir string, d notify.Delivery) {
	b, err := json.Marshal(d)
	if err != nil {
		return
	}
	deliveriesMu.Lock()
	defer deliveriesMu.Unlock()
	if err := os.MkdirAll(filepath.Join(dir, notifyDir), 0o755); err != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, notifyDir, deliveriesFile), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	f.Write(append(b, '\n'))
	f.Close()
}

const notifyDir = ".notify"

// takeDeliveries reads the outcomes recorded since the job's last run and
// clears them (the caller holds the job's lock, and records them in its
// manifest).
func takeDeliveries(dir string) []notify.Delivery {
	deliveriesMu.Lock()
	defer deliveriesMu.Unlock()
	path := filepath.Join(dir, notifyDir, deliveriesFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	os.Remove(path)
	var out []notify.Delivery
	for _, line := range bytes.Split(b, []byte("\n")) {
		var d notify.Delivery
		if json.Unmarshal(line, &d) == nil && d.RunID != "" {
			out = append(out, d)
		}
	}
	return out
}

// digestText is a run's digest in a few lines of text.
func digestText(job string, m *Manifest, d *publish.Digest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "topicrank %s: run %s %s; %s", job, m.RunID, m.Status, countsLine(m.Counts))
	switch {
	case d.PreviousRun == "":
		b.WriteString("\nThe job's first run.")
	case d.Empty():
		fmt.Fprintf(&b, "\nNothing changed since run %s.", d.PreviousRun)
	default:
		fmt.Fprintf(&b, "\nSince run %s: %d edited, %d changed, %d entered, %d left.", d.PreviousRun,
			len(d.Edited), len(d.Changed), len(d.Entered), len(d.Left))
		for _, e := range d.Edited[:min(5, len(d.Edited))] {
			fmt.Fprintf(&b, "\nedited: %s", strings.TrimPrefix(e.Page, "/wiki/"))
		}
		for _, e := range d.Entered[:min(5, len(d.Entered))] {
			fmt.Fprintf(&b, "\nentered: %s (%s)", strings.TrimPrefix(e.Page, "/wiki/"), e.Cause)
		}
		for _, e := range d.Left[:min(5, len(d.Left))] {
			fmt.Fprintf(&b, "\nleft: %s (%s)", strings.TrimPrefix(e.Page, "/wiki/"), e.Cause)
		}
		for _, e := range d.Failed[:min(5, len(d.Failed))] {
			fmt.Fprintf(&b, "\n%s: %s", e.Cause, strings.TrimPrefix(e.Page, "/wiki/"))
		}
	}
	return b.String()
}
