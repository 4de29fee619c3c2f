package pipeline

// Errors in jobs.yaml said in words: what a field wants and got, the key
// a misspelt one is nearest to, and the line where the indentation breaks.

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// want says in words what a field of dst's type takes.
func want(dst any) string {
	t := reflect.TypeOf(dst).Elem()
	if t == reflect.TypeOf(time.Duration(0)) {
		return "a duration such as 90m or 12h"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return want(reflect.New(t.Elem()).Interface())
	case reflect.Int, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "text"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String {
			return "a list of text"
		}
		return "a list of " + strings.TrimPrefix(want(reflect.New(t.Elem()).Interface()), "a ") + "s"
	}
	return "a " + t.String()
}

// quotedNumber is a hint for a number written in quotes (a string to
// YAML) where a number is wanted.
func quotedNumber(n *yaml.Node, dst any) string {
	switch dst.(type) {
	case *int, *float64, **int, **float64:
	default:
		return ""
	}
	if n.Kind != yaml.ScalarNode || n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 {
		return ""
	}
	if _, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64); err != nil {
		return ""
	}
	return fmt.Sprintf(": drop the quotes (%s, not %q)", strings.TrimSpace(n.Value), n.Value)
}

// zoneHints are abbreviations people write for a zone, and the IANA
// zone they most often mean.
var zoneHints = map[string]string{
	"PST": "America/Los_Angeles", "PDT": "America/Los_Angeles", "PT": "America/Los_Angeles",
	"MST": "America/Denver", "MDT": "America/Denver", "CST": "America/Chicago", "CDT": "America/Chicago",
	"EST": "America/New_York", "EDT": "America/New_York", "ET": "America/New_York",
	"BST": "Europe/London", "CET": "Europe/Paris", "CEST": "Europe/Paris", "IST": "Asia/Kolkata",
	"JST": "Asia/Tokyo", "AEST": "Australia/Sydney",
}

// got says in words what a node holds.
func got(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}

// badItem names the first item of list node n that dst's elements cannot
// take.
func badItem(n *yaml.Node, dst any) string {
	elem := reflect.TypeOf(dst).Elem()
	if elem.Kind() != reflect.Slice {
		return "got a list"
	}
	for i, c := range n.Content {
		if c.Decode(reflect.New(elem.Elem()).Interface()) != nil {
			return fmt.Sprintf("got %s (item %d)", got(c), i+1)
		}
	}
	return "got a list it cannot take"
}

// nearest returns the key of known nearest to key, if it is near enough
// to be a misspelling: at most a third of its letters edited.
func nearest(key string, known []string) (string, bool) {
	best, dist := "", len(key)/3+1
	for _, k := range known {
		if d := editDistance(key, k); d < dist {
			best, dist = k, d
		}
	}
	return best, best != ""
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// syntaxError explains a file YAML cannot parse. The parser names the line
// where the enclosing block began, which for a mis-indented line is often
// far above it; the line where the file breaks is the first line whose
// prefix of the file no longer parses. Indentation and tabs are named as
// such.
func syntaxError(path string, data []byte, err error) error {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) > 1000 { // parsing every prefix of a huge file costs too much: the parser's own line
		return fmt.Errorf("%s: %w", path, err)
	}
	var doc yaml.Node
	for k := 1; k <= len(lines); k++ {
		perr := yaml.Unmarshal(bytes.Join(lines[:k], nil), &doc)
		if perr == nil {
			continue
		}
		line := string(bytes.TrimRight(lines[k-1], "\r\n"))
		msg := strings.TrimPrefix(lineRef.ReplaceAllString(perr.Error(), ""), "yaml: ")
		switch {
		case strings.Contains(strings.TrimLeft(line, " "), "\t") && strings.TrimLeft(line, " \t") != line:
			return fmt.Errorf("%s:%d: a tab in the indentation: indent with spaces (%s)", path, k, msg)
		case strings.Contains(msg, "did not find expected ',' or ']'"), strings.Contains(msg, "did not find expected ',' or '}'"):
			return fmt.Errorf("%s:%d: a flow sequence or mapping is not closed: a missing ']' or '}', or an item holding ':', '#', '[' or ',' that needs quotes (%q) (%s)",
				path, k, strings.TrimSpace(line), msg)
		case strings.Contains(msg, "did not find expected key"), strings.Contains(msg, "expected '-' indicator"),
			strings.Contains(msg, "mapping values are not allowed"), strings.Contains(msg, "did not find expected <document start>"):
			return fmt.Errorf("%s:%d: the indentation breaks here: %q is indented unlike the keys around it; keys of one mapping line up (%s)",
				path, k, strings.TrimSpace(line), msg)
		}
		return fmt.Errorf("%s:%d: %s", path, k, msg)
	}
	return fmt.Errorf("%s: %w", path, err)
}
