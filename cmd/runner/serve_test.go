package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// demo -serve serves the demo's pages until stopped and writes a jobs
// file that crawls them: run and evaluate work against it with no
// network (the test has none beyond the loopback).
func TestDemoServe(t *testing.T) {
	jobs := filepath.Join(t.TempDir(), "demo-jobs.yaml")
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string)
	done := make(chan error)
	var out strings.Builder
	go func() { done <- serveDemo(ctx, "127.0.0.1:0", jobs, 1, &out, func(base string) { ready <- base }) }()
	base := <-ready
	if !strings.Contains(out.String(), base) || !strings.Contains(out.String(), "runner evaluate -config "+jobs) {
		t.Errorf("what -serve prints:\n%s", out.String())
	}
	if code, stdout, stderr := runner(t, "validate", "-config", jobs); code != 0 || !strings.Contains(stdout, "2 jobs, valid") {
		t.Fatalf("validate: exit %d\n%s%s", code, stdout, stderr)
	}
	outDir := filepath.Join(t.TempDir(), "outputs")
	if code, stdout, stderr := runner(t, "run", "-config", jobs, "-job", "demo-sports", "-out", outDir); code != 0 || !strings.Contains(stdout, "demo-sports: complete run") {
		t.Errorf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := runner(t, "evaluate", "-config", jobs, "-job", "demo-sports", "-strategies", "bfs,learned", "-out", outDir)
	if code != 0 || !strings.Contains(stdout, "learned") || !strings.Contains(stdout, "harvest") {
		t.Errorf("evaluate: exit %d\n%s%s", code, stdout, stderr)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}

	// Served again, the file it wrote (another address) is rewritten; a
	// file the user edited is left as it is, and the new one goes beside.
	serveOnce := func() string {
		ctx, cancel := context.WithCancel(context.Background())
		var out strings.Builder
		go func() { <-ready; cancel() }()
		if err := serveDemo(ctx, "127.0.0.1:0", jobs, 1, &out, func(base string) { ready <- base }); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if out := serveOnce(); strings.Contains(out, "has your edits") {
		t.Errorf("its own file counted as edited:\n%s", out)
	}
	b, _ := os.ReadFile(jobs)
	mine := strings.Replace(string(b), "jobs:\n", "jobs:\n  - {name: my-transit, seeds: [/wiki/Seattle], topics: [transit, bus]}\n", 1)
	os.WriteFile(jobs, []byte(mine), 0o644)
	o := serveOnce()
	if after, _ := os.ReadFile(jobs); string(after) != mine || !strings.Contains(o, "has your edits") || !strings.Contains(o, "demo-jobs.new.yaml") {
		t.Errorf("the user's edited file: overwritten %v\n%s", string(after) != mine, o)
	}
	if _, err := os.Stat(strings.TrimSuffix(jobs, ".yaml") + ".new.yaml"); err != nil {
		t.Errorf("its own copy: %v", err)
	}
}
