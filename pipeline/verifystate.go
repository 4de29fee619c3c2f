package pipeline

import (
	"errors"
	"fmt"
	"os"

	"github.com/topicrank/topicrank/stages/crawl/store"
)

// verifyState checks the crawl state at path. An older schema and a
// journal a stopped write left are notes, not damage: the next run
// migrates the one and rolls back the other, and -repair never moves
// aside a state it can read. With mend it rolls a journal back
// (store.Recover), drops stored copies that fail their checksums
// (store.DropBad) and checks again; a state still unsound is moved aside.
func verifyState(path string, mend bool) ([]Finding, error) {
	var out []Finding
	err := store.Check(path)
	if errors.Is(err, store.ErrRollback) {
		f := Finding{Path: path, Problem: err.Error(), Note: true}
		if !mend {
			return append(out, f), nil
		}
		if err := store.Recover(path); err != nil {
			return out, err
		}
		f.Repaired = "journal rolled back"
		out = append(out, f)
		err = store.Check(path)
	}
	if errors.Is(err, store.ErrBadCopies) {
		f := Finding{Path: path, Problem: err.Error()}
		if !mend {
			return append(out, f), nil
		}
		n, derr := store.DropBad(path)
		if derr != nil {
			return out, derr
		}
		f.Repaired = fmt.Sprintf("dropped %d bad stored %s; the rest of the state is kept", n, copies(n))
		out = append(out, f)
		err = store.Check(path)
	}
	switch {
	case err == nil || errors.Is(err, os.ErrNotExist):
	case errors.Is(err, store.ErrOlderSchema):
		out = append(out, Finding{Path: path, Problem: err.Error(), Note: true})
	default:
		f := Finding{Path: path, Problem: err.Error()}
		if mend {
			to, err := store.MoveAside(path)
			if err != nil {
				return out, err
			}
			f.Repaired = "moved to " + to + "; the next run starts from a fresh state"
		}
		out = append(out, f)
	}
	return out, nil
}

func copies(n int) string {
	if n == 1 {
		return "copy"
	}
	return "copies"
}
