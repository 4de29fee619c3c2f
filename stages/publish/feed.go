package publish

import (
	"crypto/sha1"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// FeedEntry is one published run in a job's Atom feed.
type FeedEntry struct {
	RunID, Status string
	Finished      time.Time
	Counts        string   // a line of the run's counts
	Problems      []string // why a partial run is partial
	Digest        *Digest  // nil: unreadable
	Link          string   // the run's folder, relative to the feed
}

// WriteFeed replaces path (outputs/<job>/feed.atom) with an Atom feed
// (RFC 4287) of entries, newest first as given: written beside it, synced
// and renamed over it, so a reader sees the old feed or the new one. wiki
// is the base URL diff links point at. Ids are name-based UUIDs of the
// job and run, the same in every rewrite.
func WriteFeed(path, job, wiki string, entries []FeedEntry) error {
	body, err := EncodeFeed(filepath.Base(path), job, wiki, entries)
	if err != nil {
		return err
	}
	dir, tmp := filepath.Dir(path), "."+filepath.Base(path)+".tmp"
	if _, err := writeFile(dir, tmp, func(w io.Writer) (int64, error) { n, err := w.Write(body); return int64(n), err }); err != nil {
		os.Remove(filepath.Join(dir, tmp))
		return err
	}
	return os.Rename(filepath.Join(dir, tmp), path)
}

// EncodeFeed returns the bytes WriteFeed writes to a file named name:
// verify compares a job's feed.atom with them.
func EncodeFeed(name, job, wiki string, entries []FeedEntry) ([]byte, error) {
	f := atomFeed{NS: "http://www.w3.org/2005/Atom", Title: "topicrank: " + job, ID: uuid(job),
		Author: atomPerson{Name: "topicrank"}, Generator: "topicrank"}
	f.Links = []atomLink{{Rel: "self", Href: name}}
	f.Updated = time.Unix(0, 0).UTC().Format(time.RFC3339)
	if len(entries) > 0 {
		f.Updated = entries[0].Finished.UTC().Format(time.RFC3339)
	}
	for _, e := range entries {
		f.Entries = append(f.Entries, atomEntry{
			Title: entryTitle(e), ID: uuid(job + "/" + e.RunID), Updated: e.Finished.UTC().Format(time.RFC3339),
			Links:   []atomLink{{Rel: "alternate", Href: e.Link}},
			Content: atomText{Type: "html", Body: entryHTML(e, wiki)},
		})
	}
	b, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

// uuid is a name-based (version 5 style, SHA-1) UUID URN of name.
func uuid(name string) string {
	h := sha1.Sum([]byte("topicrank:" + name))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("urn:uuid:%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// entryTitle says the run and what changed in a line.
func entryTitle(e FeedEntry) string {
	t := "Run " + e.RunID + " (" + e.Status + ")"
	if d := e.Digest; d != nil && d.PreviousRun != "" {
		if d.Empty() {
			return t + ": nothing changed"
		}
		t += fmt.Sprintf(": %d edited, %d changed, %d entered, %d left", len(d.Edited), len(d.Changed), len(d.Entered), len(d.Left))
		if len(d.Failed) > 0 {
			t += fmt.Sprintf(", %d failed or gone", len(d.Failed))
		}
		return t
	}
	return t
}

// entryHTML is an entry's content: the digest as lists.
func entryHTML(e FeedEntry, wiki string) string {
	var b strings.Builder
	esc := html.EscapeString
	fmt.Fprintf(&b, "<p>%s</p>", esc(e.Counts))
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "<p>Problem: %s</p>", esc(p))
	}
	d := e.Digest
	switch {
	case d == nil:
		return b.String() + "<p>What changed is not told here: a run of an older version (its changes.parquet has no causes), or its changes.parquet could not be read.</p>"
	case d.PreviousRun == "":
		return b.String() + "<p>The job's first run: nothing to compare with.</p>"
	case d.Empty():
		return b.String() + fmt.Sprintf("<p>Nothing changed since run %s.</p>", esc(d.PreviousRun))
	}
	fmt.Fprintf(&b, "<p>Since run %s:</p>", esc(d.PreviousRun))
	list := func(head string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(&b, "<h3>%s</h3><ul>", head)
		for _, it := range items {
			b.WriteString("<li>" + it + "</li>")
		}
		b.WriteString("</ul>")
	}
	page := func(p string) string {
		return fmt.Sprintf(`<a href="%s">%s</a>`, esc(wiki+p), esc(strings.TrimPrefix(p, "/wiki/")))
	}
	var edited, changed, entered, left, failed, movers []string
	for _, ed := range d.Edited {
		edited = append(edited, page(ed.Page)+fmt.Sprintf(` (<a href="%s">diff</a>)`, esc(ed.DiffURL(wiki))))
	}
	for _, p := range d.Changed {
		changed = append(changed, page(p))
	}
	for _, m := range d.Entered {
		entered = append(entered, page(m.Page)+" ("+esc(m.Cause)+")")
	}
	for _, m := range d.Left {
		left = append(left, page(m.Page)+" ("+esc(m.Cause)+")")
	}
	for _, m := range d.Failed {
		failed = append(failed, page(m.Page)+" ("+esc(m.Cause)+")")
	}
	for _, m := range d.Movers {
		movers = append(movers, page(m.Page)+fmt.Sprintf(" #%d → #%d (epsilon %g)", m.PreviousPosition, m.Position, d.Epsilon))
	}
	list("Edited", edited)
	list("Content changed", changed)
	list("Entered", entered)
	list("Left", left)
	list("Failed or gone", failed)
	list("Biggest movers", movers)
	return b.String()
}

type atomFeed struct {
	XMLName   xml.Name    `xml:"feed"`
	NS        string      `xml:"xmlns,attr"`
	Title     string      `xml:"title"`
	ID        string      `xml:"id"`
	Updated   string      `xml:"updated"`
	Author    atomPerson  `xml:"author"`
	Generator string      `xml:"generator"`
	Links     []atomLink  `xml:"link"`
	Entries   []atomEntry `xml:"entry"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomEntry struct {
	Title   string     `xml:"title"`
	ID      string     `xml:"id"`
	Updated string     `xml:"updated"`
	Links   []atomLink `xml:"link"`
	Content atomText   `xml:"content"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}
