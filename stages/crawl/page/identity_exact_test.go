package page

import (
	"fmt"
	"strconv"
	"testing"
)

// Ids are exact or absent: never the first digits of a longer number.
func TestIdentityIdsExact(t *testing.T) {
	for _, c := range []struct {
		config     string
		page, revi int64
	}{
		{`"wgArticleId":6678,"wgRevisionId":1365570841`, 6678, 1365570841},
		{`"wgArticleId":1180591620717411303424,"wgRevisionId":1180591620717411303424}`, 0, 0},
		{`"wgArticleId":9223372036854775807,"wgRevisionId":9223372036854775808}`, 9223372036854775807, 0},
		{`"wgArticleId":1.5,"wgRevisionId":1e3}`, 0, 0},
		{`"wgArticleId":0,"wgRevisionId":-4}`, 0, 0},
		{`"wgArticleId":42}`, 42, 0},
	} {
		id := ReadIdentity([]byte(`<html><head><script>RLCONF={` + c.config + `};</script></head><body></body></html>`))
		if id.PageID != c.page || id.RevisionID != c.revi {
			t.Errorf("%s: page %d revision %d, want %d %d", c.config, id.PageID, id.RevisionID, c.page, c.revi)
		}
	}
}

// FuzzIdentityIds: whatever follows the keys, an id read is the exact
// value written, or absent.
func FuzzIdentityIds(f *testing.F) {
	for _, s := range []string{"6678", "1180591620717411303424", "1.5", "12abc", "-3", "9223372036854775807", "0007"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, page, rev string) {
		head := fmt.Sprintf(`<head><script>RLCONF={"wgArticleId":%s,"wgRevisionId":%s};</script></head><body>`, page, rev)
		id := ReadIdentity([]byte(head))
		for _, c := range []struct {
			got     int64
			written string
		}{{id.PageID, page}, {id.RevisionID, rev}} {
			if c.got == 0 {
				continue
			}
			if c.got < 0 {
				t.Fatalf("negative id %d from %q", c.got, c.written)
			}
			want := strconv.FormatInt(c.got, 10)
			// The id read must be the whole number written (leading zeros aside).
			trimmed := c.written
			for len(trimmed) > 1 && trimmed[0] == '0' {
				trimmed = trimmed[1:]
			}
			if len(trimmed) < len(want) || trimmed[:len(want)] != want || (len(trimmed) > len(want) && trimmed[len(want)] >= '0' && trimmed[len(want)] <= '9') {
				t.Fatalf("id %d read from %q", c.got, c.written)
			}
		}
	})
}
