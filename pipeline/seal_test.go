package pipeline

import (
	"bytes"
	"encoding/json"
	"testing"
)

// A sealed manifest passes; a flip of any bit of it does not; one
// without a seal (an older release's) passes.
func TestSeal(t *testing.T) {
	b, err := json.MarshalIndent(&Manifest{Job: "j", RunID: "20260101T000000Z", Status: StatusComplete}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	sealed := append(seal(b), '\n')
	if err := checkSeal(sealed); err != nil {
		t.Fatalf("a sealed manifest: %v", err)
	}
	var m Manifest
	if err := json.Unmarshal(sealed, &m); err != nil || m.RunID != "20260101T000000Z" {
		t.Fatalf("a sealed manifest does not read: %v", err)
	}
	for i := range sealed {
		for bit := range 8 {
			c := bytes.Clone(sealed)
			c[i] ^= 1 << bit
			if checkSeal(c) == nil && json.Valid(c) {
				t.Errorf("a flip of bit %d at byte %d (%q) passed", bit, i, sealed[i])
			}
		}
	}
	if err := checkSeal(append(b, '\n')); err != nil {
		t.Errorf("an unsealed manifest: %v", err)
	}
}
