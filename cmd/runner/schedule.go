package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/pipeline/schedule"
)

func cmdSchedule(ctx context.Context, args []string, _, stderr io.Writer) error {
	fs := newFlags("schedule", stderr)
	var f jobFlags
	f.register(fs)
	addr := fs.String("metrics-addr", "", "serve Prometheus /metrics and /healthz on this address (e.g. :9090)")
	grace := fs.Duration("grace", schedule.DefaultGrace, "on SIGTERM, wait at most this long for running jobs to publish")
	if err := parse(fs, args); err != nil {
		return err
	}
	// SIGHUP reloads jobs.yaml; taken before anything else so that an
	// early one cannot kill the process.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	cfg, r, err := f.runner(stderr)
	if err != nil {
		return err
	}
	s := &schedule.Scheduler{Run: r.Run, OutDir: r.OutDir, Grace: *grace, Reload: hup, Watch: true, Log: r.Log}
	if *addr != "" {
		met := instrument(r)
		s.Observer = met
		stop, err := serveMetrics(*addr, met.Handler(s.Healthy), r)
		if err != nil {
			return err
		}
		defer stop()
	}
	defer r.Notifier.Wait() // messages of the last runs, each bounded by notify_timeout
	return s.Start(ctx, cfg)
}

// serveMetrics serves h on addr until stop is called.
func serveMetrics(addr string, h http.Handler, r *pipeline.Runner) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, &pipeline.Error{Op: "schedule", Kind: pipeline.Invalid, Err: err}
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	r.Log.Info("serving metrics", "addr", ln.Addr().String(), "paths", "/metrics /healthz")
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			r.Log.Error("metrics server", "err", err)
		}
	}()
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}, nil
}
