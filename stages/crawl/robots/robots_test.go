package robots

import (
	"strings"
	"testing"
)

// Cases from RFC 9309's text and examples, and from Google's open-source
// robots.txt test suite, written anew. Each is a file, a product token and
// paths with the expected answer.
var cases = []struct {
	name  string
	txt   string
	agent string
	paths map[string]bool
}{
	{"rfc: group of the product token, case-insensitive", "User-agent: *\nDisallow: /\n\nuser-agent: ExampleBot\nallow: /\ndisallow: /x\n", "examplebot",
		map[string]bool{"/": true, "/a": true, "/x": false, "/xy": false}},
	{"the group is chosen by equality, not prefix", "User-agent: fast\nDisallow: /\n", "fastcrawler",
		map[string]bool{"/a": true}},
	{"groups of one agent combine", "user-agent: FooBot\ndisallow: /a\nuser-agent: BarBot\ndisallow: /\nuser-agent: FooBot\ndisallow: /b\n", "FooBot",
		map[string]bool{"/a": false, "/b": false, "/c": true}},
	{"user-agent lines in a row form one group", "user-agent: a\nuser-agent: FooBot\ndisallow: /x\n", "FooBot",
		map[string]bool{"/x": false, "/y": true}},
	{"rules before any user-agent are ignored", "allow: /foo\ndisallow: /\nuser-agent: FooBot\ndisallow: /\n", "FooBot",
		map[string]bool{"/foo": false}},
	{"no group and no star: everything allowed", "user-agent: BarBot\ndisallow: /\n", "FooBot", map[string]bool{"/x": true}},
	{"the specific group replaces star", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot",
		map[string]bool{"/x/page": true, "/y/page": false}},
	{"an agent value up to its first non-token character", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", "Foo",
		map[string]bool{"/x/y": true, "/z": false}},
	{"agent value with a version", "User-agent: FooBot/2.1\nDisallow: /\n", "FooBot", map[string]bool{"/": false}},
	{"keys in any case, missing colon accepted", "USER-AGENT FooBot\nDISALLOW /\nAlLoW: /x/\n", "FooBot",
		map[string]bool{"/x/y": true, "/a": false}},
	{"longest match", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", "FooBot",
		map[string]bool{"/x/page.html": false, "/x/other": true}},
	{"longest match, the other way", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot",
		map[string]bool{"/x/page.html": true, "/x/": false}},
	{"allow wins a tie", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\ndisallow: /\nallow: /\n", "FooBot",
		map[string]bool{"/x/page.html": true, "/y": true}},
	{"empty rules match nothing", "user-agent: FooBot\ndisallow:\nallow:\n", "FooBot", map[string]bool{"/x": true}},
	{"length is the rule's octets as written, wildcards included", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot",
		map[string]bool{"/page.html": false, "/page": true}},
	{"a longer allow beats a wildcard disallow", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot",
		map[string]bool{"/x/page.html": true, "/x/y.html": false}},
	{"/x against /x/", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot",
		map[string]bool{"/x": false, "/x/": true, "/xyz": false}},
	{"'*' matches any run", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot",
		map[string]bool{"/foo/bar/quz": false, "/foo/quz": true, "/foo//quz": true, "/foo/bax/quz": true}},
	{"'$' anchors the end, from the start of the path", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot",
		map[string]bool{"/foo/bar": false, "/foo/bar/qux": true, "/foo/bar/": true, "/foo/bar/baz": true, "/x/foo/bar": true}},
	{"'$' after '*'", "User-agent: *\nDisallow: /*.php$\n", "FooBot",
		map[string]bool{"/a.php": false, "/a.php?x=1": true, "/b/c.php": false, "/a.phps": true}},
	{"rules match from the start", "User-agent: *\nDisallow: /fish\n", "x",
		map[string]bool{"/fish": false, "/fish.html": false, "/fishheads/yummy.html": false, "/Fish.asp": true, "/catfish": true}},
	{"comments", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot",
		map[string]bool{"/foo/bar": true, "/foo/quz": false}},
	{"queries are part of the path", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n", "FooBot",
		map[string]bool{"/foo/bar?qux=taz&baz=http://foo.bar?tar&par": true, "/foo/bar": false}},
	{"non-ASCII rules match encoded paths", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot",
		map[string]bool{"/foo/bar/%E3%83%84": true, "/foo/bar/%e3%83%84": true}},
	{"rfc: unreserved escapes are decoded", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot",
		map[string]bool{"/foo/bar/baz": true, "/foo/bar/%62%61%7A": true}},
	{"reserved escapes stay escaped", "User-agent: *\nDisallow: /a%3Fb\n", "x", map[string]bool{"/a%3fb": false, "/a?b": true}},
	{"BOM, CR and CRLF line ends", "\xef\xbb\xbfUser-agent: *\rDisallow: /a\r\nDisallow: /b\n", "x",
		map[string]bool{"/a": false, "/b": false, "/c": true}},
	{"robots.txt itself is always allowed", "User-agent: *\nDisallow: /\n", "x", map[string]bool{"/robots.txt": true, "/": false}},
	{"other records do not end a run of user-agent lines", "user-agent: a\ncrawl-delay: 5\nuser-agent: FooBot\ndisallow: /\n", "FooBot",
		map[string]bool{"/": false}},
}

func TestRFC9309(t *testing.T) {
	for _, c := range cases {
		r := Parse([]byte(c.txt), c.agent)
		for path, want := range c.paths {
			if got := r.Allowed(path); got != want {
				t.Errorf("%s: Allowed(%q) = %v, want %v", c.name, path, got, want)
			}
			if got := oracle(c.txt, c.agent, path); got != want && !strings.Contains(c.name, "missing colon") {
				t.Errorf("%s: the test's own matcher says %v for %q: the case or the oracle is wrong", c.name, got, path)
			}
		}
	}
}

func TestCrawlDelay(t *testing.T) {
	r := Parse([]byte("User-agent: *\nCrawl-delay: 2.5\nDisallow: /x\nUser-agent: other\nCrawl-delay: 99\n"), "x")
	if r.CrawlDelay().Seconds() != 2.5 {
		t.Errorf("CrawlDelay = %v, want 2.5s", r.CrawlDelay())
	}
}

// At least 500 KiB are parsed: a rule after 490 KiB of comments applies,
// one beyond MaxSize does not, and a very long line loses no rule after it.
func TestSize(t *testing.T) {
	pad := strings.Repeat("# "+strings.Repeat("x", 98)+"\n", 4900)
	long := "Disallow: /" + strings.Repeat("y", 20<<10) + "\n" // over maxRule
	txt := "User-agent: *\n" + long + pad + "Disallow: /late\n" + strings.Repeat("#\n", MaxSize) + "Disallow: /beyond\n"
	r := Parse([]byte(txt), "x")
	if r.Allowed("/late") || !r.Allowed("/beyond") {
		t.Errorf("/late allowed %v (want false), /beyond allowed %v (want true)", r.Allowed("/late"), r.Allowed("/beyond"))
	}
	if r.Allowed("/" + strings.Repeat("y", 20<<10)) {
		t.Error("an over-long Disallow must still disallow (cut short, it only widens)")
	}
}

// A hostile file cannot make matching slow: patterns full of wildcards
// against long paths stay fast (this would take minutes if backtracking
// were exponential).
func TestWildcardsStayPolynomial(t *testing.T) {
	txt := "User-agent: *\nDisallow: /" + strings.Repeat("*a", 2000) + "b\n"
	r := Parse([]byte(txt), "x")
	if !r.Allowed("/" + strings.Repeat("a", 2000)) {
		t.Error("no b in the path: must be allowed")
	}
}
