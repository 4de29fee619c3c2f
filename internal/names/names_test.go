package names

import (
	"testing"
	"unicode/utf8"
)

func TestSafe(t *testing.T) {
	for in, want := range map[string]string{
		"Tennis":            "Tennis",
		"Café_au_lait":      "Café_au_lait",
		"\xff\xfe":          "%FF%FE",
		"a\x00b":            "a%00b",
		"line\nbreak\t":     "line%0Abreak%09",
		"evil\u202Etxt.exe": "evil%E2%80%AEtxt.exe",
		"\u2066iso\u2069":   "%E2%81%A6iso%E2%81%A9",
		"ok\u00e9\xc3":      "ok\u00e9%C3",
		"\ufffd_real":       "\ufffd_real", // a real U+FFFD is valid text
	} {
		if got := Safe(in); got != want {
			t.Errorf("Safe(%q) = %q, want %q", in, got, want)
		}
		if got := Safe(in); !utf8.ValidString(got) || Safe(got) != got {
			t.Errorf("Safe(%q) = %q: not valid or not idempotent", in, got)
		}
	}
	if got := ValidUTF8("a\nb\xff"); got != "a\nb%FF" {
		t.Errorf("ValidUTF8 = %q", got)
	}
}
