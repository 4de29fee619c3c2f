package decompress

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// compress returns data compressed in format, at its best level or its
// fastest.
func compress(t *testing.T, format string, data []byte, best bool) []byte {
	var buf bytes.Buffer
	var zw io.WriteCloser
	switch format {
	case "gzip":
		zw, _ = gzip.NewWriterLevel(&buf, map[bool]int{false: gzip.DefaultCompression, true: gzip.BestCompression}[best])
	case "zstd":
		zw, _ = zstd.NewWriter(&buf, zstd.WithEncoderLevel(map[bool]zstd.EncoderLevel{false: zstd.SpeedFastest, true: zstd.SpeedBestCompression}[best]))
	}
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// readAll reads a stream of format through a Reader with the given bound.
func readAll(t *testing.T, format string, z []byte, floor, ratio int64) ([]byte, error) {
	t.Helper()
	if got := Format(z); got != format {
		t.Fatalf("Format = %q, want %q", got, format)
	}
	d, err := NewReader(bytes.NewReader(z), format, "a test stream")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	d.Floor, d.Ratio = floor, ratio
	return io.ReadAll(d)
}

// A stream reads back whole; a bomb stops at the bound, past the floor
// and not before; a stream cut anywhere says it is truncated.
func TestBounds(t *testing.T) {
	for _, format := range []string{"gzip", "zstd"} {
		text := []byte(strings.Repeat("a b\n", 1000))
		got, err := readAll(t, format, compress(t, format, text, false), Floor, MaxExpansion)
		if err != nil || !bytes.Equal(got, text) {
			t.Errorf("%s: %d bytes, %v", format, len(got), err)
		}

		size := 16 << 20 // 64 MiB of text
		if testing.Short() {
			size = 1 << 20 // 4 MiB: still past the 1 MiB floor and 100-fold
		}
		bomb := compress(t, format, bytes.Repeat([]byte("a b\n"), size), true)
		got, err = readAll(t, format, bomb, 1<<20, 100)
		if err == nil || !strings.Contains(err.Error(), format+" input expands more than 100-fold") ||
			!strings.Contains(err.Error(), "not a test stream") {
			t.Errorf("%s bomb: %v", format, err)
		}
		if len(got) <= 1<<20 || len(got) > 2<<20 {
			t.Errorf("%s bomb: %d bytes read before it stopped, want just over the 1 MiB floor", format, len(got))
		}
		if _, err := readAll(t, format, bomb, 64<<20, 100); err != nil {
			t.Errorf("%s: a stream within the floor failed: %v", format, err)
		}

		z := compress(t, format, []byte("3\na b\nb a\nc a\n"), false)
		for cut := 12; cut < len(z); cut++ {
			d, err := NewReader(bytes.NewReader(z[:cut]), format, "a test stream")
			if err != nil {
				continue // the header itself is cut
			}
			_, err = io.ReadAll(d)
			d.Close()
			if err == nil || !strings.Contains(err.Error(), "truncated") {
				t.Errorf("%s cut at %d of %d: %v, want a truncated stream", format, cut, len(z), err)
			}
		}
	}
}

// A zstd frame that asks for a 1 GiB window is refused before any is
// allocated; a stream that is not what it claims, or of no known format,
// is refused when opened.
func TestRefusals(t *testing.T) {
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 20 << 3, 0x01, 0x00, 0x00, 'a'}
	if _, err := readAll(t, "zstd", frame, Floor, MaxExpansion); err == nil || !strings.Contains(err.Error(), "asks for a window over 128 MiB") {
		t.Errorf("a 1 GiB zstd window: %v", err)
	}
	if _, err := NewReader(strings.NewReader("plain text"), "gzip", "x"); err == nil || !strings.Contains(err.Error(), "not gzip") {
		t.Errorf("plain text as gzip: %v", err)
	}
	if _, err := NewReader(strings.NewReader(""), "bzip2", "x"); err == nil {
		t.Error("bzip2 accepted")
	}
	if got := Format([]byte("a b\n")); got != "" {
		t.Errorf("Format(plain) = %q", got)
	}
}
