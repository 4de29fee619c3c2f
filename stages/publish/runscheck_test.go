package publish

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// CheckRuns finds a changed cell, a renamed column and changed
// statistics. (A real older release's table, with fewer columns, passes:
// cmd/runner's TestUpgradeKilledAtEveryStatement verifies one.)
func TestCheckRuns(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	rows := []RunRow{
		{RunID: "20260102T030000Z", Status: "complete", Started: start, Finished: start.Add(time.Minute), Fetched: 123457, Version: "v1"},
		{RunID: "20260103T030000Z", Status: "partial", Started: start.Add(24 * time.Hour), Finished: start.Add(25 * time.Hour), Fetched: 7, Version: "v1"},
	}
	b, err := EncodeRuns("j", rows)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "runs.parquet")
	check := func(data []byte) error {
		t.Helper()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return CheckRuns(path, "j", rows)
	}
	if err := check(b); err != nil {
		t.Fatalf("the table the rows make: %v", err)
	}
	// A value: the first 123457 (the data page) becomes 123456.
	v := binary.LittleEndian.AppendUint32(nil, 123457)
	flip := func(at int) []byte {
		c := bytes.Clone(b)
		c[at] ^= 0x01
		return c
	}
	if err := check(flip(bytes.Index(b, v))); err == nil || !strings.Contains(err.Error(), `"fetched"`) {
		t.Errorf("a changed cell: %v", err)
	}
	// Its statistics: the last 123457 is the footer's max of fetched.
	if err := check(flip(bytes.LastIndex(b, v))); err == nil || !strings.Contains(err.Error(), "statistics") {
		t.Errorf("changed statistics: %v", err)
	}
	// A column's name, in the footer.
	if err := check(bytes.Replace(b, []byte("not_found"), []byte("not_fount"), -1)); err == nil || !strings.Contains(err.Error(), "not_fount") {
		t.Errorf("a renamed column: %v", err)
	}
}

// Every byte of a table this program's encoder wrote counts, whichever
// build wrote it: a flip in its footer's writer record is found, and a
// table another build wrote (another version in its footer) passes.
func TestCheckRunsEveryByte(t *testing.T) {
	rows := []RunRow{{RunID: "20260102T030000Z", Status: "complete", Fetched: 3, Version: "v1"}}
	path := filepath.Join(t.TempDir(), "runs.parquet")
	other, err := encodeRunsAs("j", rows, "v0.9.0")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, other, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckRuns(path, "j", rows); err != nil {
		t.Errorf("a table another build wrote: %v", err)
	}
	for i := range other { // every byte of the footer's writer record
		at := bytes.Index(other, []byte("topicrank version v0.9.0"))
		if i < at || i >= at+len("topicrank version v0.9.0") {
			continue
		}
		c := bytes.Clone(other)
		c[i] ^= 0x01
		os.WriteFile(path, c, 0o644)
		if CheckRuns(path, "j", rows) == nil {
			t.Errorf("a flip at byte %d (%q) passed", i, other[i])
		}
	}
	// Every single-bit flip of a whole table of this build is found
	// (-short: every 17th byte).
	b, _ := EncodeRuns("j", rows)
	stride := 1
	if testing.Short() {
		stride = 17
	}
	for i := 0; i < len(b); i += stride {
		c := bytes.Clone(b)
		c[i] ^= 0x10
		os.WriteFile(path, c, 0o644)
		if CheckRuns(path, "j", rows) == nil {
			t.Errorf("a flip at byte %d of %d passed", i, len(b))
		}
	}
}
