package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
)

// A manifest lists every file of its run with its sha256, but nothing
// lists the manifest's own bytes: a flipped bit in its config or counts
// would read as a different, whole run. So it carries a seal, its last
// field, the sha256 of the manifest as it was before the seal was added.
// The seal is made and checked on the bytes alone, never by encoding the
// manifest again, so it holds whichever version reads it; manifests of
// releases before seals have none and are not checked.
const sealField = `,
  "seal": "sha256:`

// seal adds the seal to a manifest marshalled by json.MarshalIndent with
// two spaces (which ends "\n}").
func seal(b []byte) []byte {
	sum := sha256.Sum256(b)
	body := bytes.TrimSuffix(b, []byte("\n}"))
	return append(append(body, sealField...), []byte(hex.EncodeToString(sum[:])+"\"\n}")...)
}

// checkSeal checks a manifest file's bytes against its seal. A manifest
// whose last line is not a seal's shape (a four-letter key, a 71-character
// value) has none (an older release's) and passes; in that shape, one
// flipped bit anywhere, the seal's key and value included, fails.
func checkSeal(b []byte) error {
	b = bytes.TrimSuffix(b, []byte("\n"))
	body, ok := bytes.CutSuffix(b, []byte("\n}"))
	nl := bytes.LastIndexByte(body, '\n')
	if !ok || nl < 1 || body[nl-1] != ',' {
		return nil
	}
	line := body[nl+1:] // `  "seal": "sha256:<64 hex>"`
	if len(line) != len(`  "seal": "`)+len("sha256:")+2*sha256.Size+1 || !bytes.HasPrefix(line, []byte(`  "`)) {
		return nil
	}
	at := nl - 1 // the comma: sealField starts there
	if !bytes.Equal(b[at:at+len(sealField)], []byte(sealField)) || line[len(line)-1] != '"' {
		return errors.New("its seal is damaged")
	}
	want := string(line[len(`  "seal": "sha256:`) : len(line)-1])
	sum := sha256.Sum256(append(append([]byte(nil), b[:at]...), "\n}"...))
	if got := hex.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("its bytes do not match its seal (sha256 %s, sealed %s)", got, want)
	}
	return nil
}
