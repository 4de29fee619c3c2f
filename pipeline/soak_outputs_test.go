package pipeline

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/topicrank/topicrank/stages/crawl/store"
)

// damageOutputs flips one bit of a published file drawn at random (a
// run's file or manifest, LATEST, runs.parquet, feed.atom), or adds
// files no manifest lists (a copied table in a run folder, a stray
// folder of Parquet); verify must find it, and -repair mend it.
func damageOutputs(t *testing.T, out, fault string, rng *rand.Rand) {
	t.Helper()
	dir := filepath.Join(out, "tennis")
	var files []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && (name == damagedDir || strings.HasPrefix(name, ".")) && path != dir {
			return filepath.SkipDir
		}
		if !d.IsDir() && !strings.HasPrefix(name, ".") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		return
	}
	target := files[rng.IntN(len(files))]
	b, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case fault == "flip published" && len(b) > 0:
		i := rng.IntN(len(b))
		b[i] ^= 1 << rng.IntN(8)
		if err := os.WriteFile(target, b, 0o644); err != nil {
			t.Fatal(err)
		}
	case rng.IntN(2) == 0 && filepath.Dir(target) != dir: // in a run folder, a copy beside the file it copies
		target += ".copy.parquet"
		if err := os.WriteFile(target, b, 0o644); err != nil {
			t.Fatal(err)
		}
	default: // a stray folder the globs would read
		target = filepath.Join(dir, "backup-"+strconv.Itoa(rng.IntN(1e6)), "pages.parquet")
		os.MkdirAll(filepath.Dir(target), 0o755)
		if err := os.WriteFile(target, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log := slog.New(slog.DiscardHandler)
	state := filepath.Join(dir, stateFile) // not the job's: verify's state check is not the point here
	f, err := Verify(out, "tennis", state, false, log)
	if err != nil || !damage(f) {
		t.Errorf("%s at %s: verify found %+v, %v", fault, target, f, err)
	}
	if f, err = Verify(out, "tennis", state, true, log); err != nil {
		t.Errorf("%s at %s: verify -repair: %+v, %v", fault, target, f, err)
	}
	if f, err = Verify(out, "tennis", state, false, log); err != nil || damage(f) {
		t.Errorf("%s at %s: after -repair: %+v, %v", fault, target, f, err)
	}
	// What -repair moved aside, the operator looks at and deletes (the
	// outputs' disk is a few megabytes here).
	if err := os.RemoveAll(filepath.Join(dir, damagedDir)); err != nil {
		t.Fatal(err)
	}
}

// olderSchema turns the state into what the previous release's schema
// (version 2) held: no checksums nor revisions, none of the tables of
// memory, and its version number. The next run migrates it.
func olderSchema(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`ALTER TABLE pages DROP COLUMN checksum`, `ALTER TABLE pages DROP COLUMN revision`,
		`DROP TABLE IF EXISTS memory`, `DROP TABLE IF EXISTS models`, `DROP TABLE IF EXISTS vertices`,
		`PRAGMA user_version = 2`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Logf("older schema: %s: %v", q, err) // a state moved aside by an earlier fault is not there yet
			return
		}
	}
	if err := store.Check(path); !errors.Is(err, store.ErrOlderSchema) {
		t.Errorf("the state made older: %v, want %v", err, store.ErrOlderSchema)
	}
}

// runBesideReaders runs the job while verify and status read its outputs
// and state over and over: the readers find no damage that was not there
// before the run (a feed a full disk kept from being rewritten is), and
// the run loses no write to them.
func runBesideReaders(t *testing.T, r *Runner, job Job) (*Manifest, error) {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	state := StatePath(r.OutDir, job)
	known := map[string]bool{}
	if f, err := Verify(r.OutDir, job.Name, state, false, log); err == nil {
		for _, x := range f {
			known[x.Path] = true
		}
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	reads := 0
	wg.Go(func() {
		for !stop.Load() {
			f, err := Verify(r.OutDir, job.Name, state, false, log)
			for _, x := range f {
				if err == nil && !x.Note && !known[x.Path] {
					t.Errorf("verify beside the run: %+v", x)
				}
			}
			if _, _, damaged := newest(r.OutDir, job.Name); damaged != "" {
				t.Errorf("status beside the run: %s", damaged)
			}
			reads++
		}
	})
	m, err := r.Run(context.Background(), job)
	stop.Store(true)
	wg.Wait()
	t.Logf("%d reads beside the run", reads)
	return m, err
}
