// Package snapshot is the demo's world: real Wikipedia pages around one
// topic, cut from the 2018 corpus (CC BY-SA; data/README.md has the
// attribution and provenance), shipped inside the binary, and a loopback
// server that serves them as en.wikipedia.org would: robots.txt, ETags and
// Last-Modified with 304 answers, red links to the pages the snapshot
// lacks, edits that accumulate night by night and one page deleted on
// the second night, so a re-crawl finds changed pages, moved ranks and a
// page gone.
package snapshot

import (
	"archive/tar"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/topicrank/topicrank/internal/tarzst"
)

//go:embed data/pages.tar.zst
var archive []byte

// JobsYAML is the demo's jobs.yaml: one job, demo, crawled from the
// snapshot. cmd/gensnapshot cuts the snapshot by crawling with it.
//
//go:embed demo.yaml
var JobsYAML []byte

// Snapshot is a set of pages, by title as in /wiki/Title (underscores,
// not escaped), and the robots.txt served with them.
type Snapshot struct {
	Robots []byte
	Pages  map[string][]byte
}

// Titles returns the snapshot's titles, sorted.
func (s *Snapshot) Titles() []string {
	titles := make([]string, 0, len(s.Pages))
	for t := range s.Pages {
		titles = append(titles, t)
	}
	slices.Sort(titles)
	return titles
}

// Load returns the snapshot shipped with the program.
func Load() (*Snapshot, error) { return Read(bytes.NewReader(archive)) }

// Read reads a snapshot written by Write: a zstd-compressed tar of
// robots.txt and pages/<escaped title>.html.
func Read(r io.Reader) (*Snapshot, error) {
	s := &Snapshot{Pages: map[string][]byte{}}
	err := tarzst.Walk(r, func(name string, contents io.Reader) error {
		b, err := io.ReadAll(io.LimitReader(contents, 16<<20))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		switch {
		case name == "robots.txt":
			s.Robots = b
		case strings.HasPrefix(name, "pages/") && strings.HasSuffix(name, ".html"):
			title, err := url.PathUnescape(strings.TrimSuffix(path.Base(name), ".html"))
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			s.Pages[title] = b
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return s, nil
}

// Write writes s for Read, pages in title order so the bytes depend on
// the pages alone.
func Write(w io.Writer, s *Snapshot) error {
	zw, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	add := func(name string, b []byte) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(b)), Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err := tw.Write(b)
		return err
	}
	if err := add("robots.txt", s.Robots); err != nil {
		return err
	}
	for _, t := range s.Titles() {
		if err := add("pages/"+url.PathEscape(t)+".html", s.Pages[t]); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}
