// Command runner is topicrank's command line: it validates jobs.yaml, runs
// jobs once or on their schedules, and ranks existing edge-list files.
//
// Exit codes: 0 success, 1 a job failed, 2 bad usage or invalid config.
package main

import (
	"maps"
	"slices"
	_ "time/tzdata" // job time zones resolve in images without zoneinfo (distroless)

	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/topicrank/topicrank/internal/version"
	"github.com/topicrank/topicrank/pipeline"
	"github.com/topicrank/topicrank/pipeline/progress"
)

const usage = `usage: runner <command> [flags]

commands:
  demo     [-out DIR] [-log-level L] | -serve [-addr 127.0.0.1:0] [-jobs demo-jobs.yaml] [-night 1]
           the whole pipeline offline, on real Wikipedia pages shipped with topicrank;
           -serve keeps serving them, with a jobs file that crawls them, until stopped
  validate [-config jobs.yaml]
           check jobs.yaml
  run      [-config jobs.yaml] [-job NAME]... [-out DIR] [-base-url URL] [-metrics-file F] [-log-level L]
           run jobs now, once
  schedule [-config jobs.yaml] [-out DIR] [-base-url URL] [-metrics-addr :9464] [-grace 2m] [-log-level L]
           run jobs on their cron schedules (from a built binary: go run does not pass SIGTERM on)
  evaluate [-config jobs.yaml] -job NAME[,NAME...]|all [-strategies bfs,weighted,...] [-admission discovery|best-first]
           [-oracle-corpus FILE] [-labels FILE [-label-topic T] [-label-judge]] [-nights N]
           [-revisit [-policies P,...] [-budget 0.2] [-new-share S]] [-out DIR] [-base-url URL] [-log-level L]
           crawl once per strategy, or N nights per strategy with memory (or replay nights per
           revisit policy): tables, Parquet, chart; with -labels, several jobs end with their means
  status   [-config jobs.yaml] [-out DIR]
           each job's last runs, age, next run; exit 1 if one has missed two nights
  report   [-out DIR] [-config jobs.yaml] -job NAME [-run ID] [-o FILE]
           one self-contained HTML report of a run
  explain  [-out DIR] [-config jobs.yaml] -job NAME [-run ID] [-epsilon E] [-topic] [-format text|json] PAGE
           why a page ranks where it does: its in-links' shares of its rank
  search   [-out DIR] [-config jobs.yaml] -job NAME [-run ID] [-top 10] [-format text|json]
           [-rank-weight 0.3] [-title-boost B] [-category NAME] QUERY...
           full-text search of a run's pages, BM25 boosted by PageRank
  rank     (-graph FILE | -dump DIR) [-vertices FILE] [-no-header] [-lenient] [-epsilon 0.01,0.005]
           [-beta 0.85] [-top 10] [-format text|json] [-out DIR] [-edge-list plain|zstd|gzip|none]
           [-cpuprofile FILE]
           PageRank of an edge list, Parquet edges or Wikimedia's SQL dumps
  migrate  [-out DIR]
           move runs of older layouts into the current one
  verify   [-out DIR] [-config jobs.yaml] [-job NAME]... [-repair]
           check published runs (manifests, sha256, LATEST, runs.parquet) and the crawl state;
           -repair moves damaged ones aside, never deletes

Run 'runner <command> -h' for a command's flags.
`

// commands are the subcommands, one file each.
var commands = map[string]func(context.Context, []string, io.Writer, io.Writer) error{
	"validate": cmdValidate,
	"run":      cmdRun,
	"schedule": cmdSchedule,
	"rank":     cmdRank,
	"evaluate": cmdEvaluate,
	"migrate":  cmdMigrate,
	"report":   cmdReport,
	"explain":  cmdExplain,
	"status":   cmdStatus,
	"search":   cmdSearch,
	"demo":     cmdDemo,
	"verify":   cmdVerify,
}

// commandNames returns the commands' names, sorted.
func commandNames() []string { return slices.Sorted(maps.Keys(commands)) }

// Exit codes.
const (
	exitOK      = 0
	exitFailed  = 1
	exitInvalid = 2
)

// usageError marks bad command-line usage (exit 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitInvalid
	}
	if args[0] == "--version" || args[0] == "-version" || args[0] == "version" {
		fmt.Fprintln(stdout, "topicrank runner", version.String())
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
			fmt.Fprint(stdout, usage)
			return exitOK
		}
		fmt.Fprintf(stderr, "runner: unknown command %q\n\n%s", args[0], usage)
		return exitInvalid
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := cmd(ctx, args[1:], stdout, stderr)
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if pe, ok := err.(*pipeline.Error); ok && pe.Op == args[0] { // "runner status: status: ..." says it twice
		short := *pe
		short.Op = ""
		err = &short
	}
	fmt.Fprintf(stderr, "runner %s: %v\n", args[0], err)
	var ue usageError
	if errors.As(err, &ue) || pipeline.KindOf(err) == pipeline.Invalid {
		return exitInvalid
	}
	return exitFailed
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("runner "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses args and turns flag errors into usage errors.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newReporter returns the progress reporter and logger of a command: a
// progress line and text logs on a terminal, JSON logs otherwise. The
// reporter logs through the logger, and the logger writes through the
// reporter so that log lines do not run into the progress line.
func newReporter(stderr io.Writer) (*progress.Reporter, *slog.Logger) {
	var term io.Writer
	if isTerminal(stderr) {
		term = stderr
	}
	rep := progress.New(term, nil, 10*time.Second)
	log := newLogger(stderr, rep.LogWriter(stderr))
	rep.SetLogger(log)
	return rep, log
}

// newLogger logs to w: text when stderr is a terminal, JSON lines otherwise.
func newLogger(stderr, w io.Writer) *slog.Logger {
	opt := &slog.HandlerOptions{Level: &logLevel}
	if isTerminal(stderr) {
		return slog.New(slog.NewTextHandler(w, opt))
	}
	return slog.New(slog.NewJSONHandler(w, opt))
}

// logLevel is the level below which log lines are dropped (-log-level).
var logLevel slog.LevelVar

// logLevelFlag sets logLevel from debug, info, warn or error.
func logLevelFlag(v string) error { return logLevel.UnmarshalText([]byte(v)) }
