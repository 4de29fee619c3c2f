package store

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var (
	soundOnce  sync.Once
	soundState []byte
)

// FuzzOpenState opens a state file damaged by the fuzzer's patches
// (offset, byte pairs) and uses it as a run would: no input may panic,
// and a damaged file is moved aside or read as it is, never an error
// that stops the run.
func FuzzOpenState(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0xff})                         // the header's magic
	f.Add([]byte{0, 100, 0})                          // the first page's header
	f.Add([]byte{0x10, 0x00, 0x0d, 0x20, 0x08, 0x7f}) // a b-tree page
	f.Fuzz(func(t *testing.T, patches []byte) {
		soundOnce.Do(func() {
			dir, err := os.MkdirTemp("", "topicrank-fuzz-state")
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(dir)
			path := filepath.Join(dir, "state.sqlite")
			writeState(t, path, 40)
			soundState, _ = os.ReadFile(path)
		})
		b := append([]byte(nil), soundState...)
		for i := 0; i+2 < len(patches); i += 3 {
			off := int(binary.BigEndian.Uint16(patches[i:])) % len(b)
			b[off] = patches[i+2]
		}
		path := filepath.Join(t.TempDir(), "state.sqlite")
		os.WriteFile(path, b, 0o644)
		s, err := Open(path, "r2")
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		s.Load("/wiki/Page_3", "d")
		s.Missing("/wiki/Page_3")
		s.Save("/wiki/Page_3", "d", bigStored(3))
		s.Touch("/wiki/Page_4", "")
		s.Histories()
		s.Clock()
		s.ServerClock()
		s.Err()
		s.Finish("complete")
		Check(path)
	})
}
