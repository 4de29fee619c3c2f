package store

import (
	"cmp"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strconv"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
)

// Memory implements crawl.Memory: every page stored under digest (so
// judged against the same topic), with its relevance and its links to
// the known relevant pages. It is kept as this run began (the memory
// table), so that a run resuming this one ranks pages as this one did:
// pages the killed run fetched do not become known to the run that
// resumes it. Stored copies failing their checksums are left out.
//
// Its cost is one row per topic digest (KeepDigests at most): per known
// page its key and relevance, and per link between known relevant pages
// the target's key.
func (s *Store) Memory(digest string, threshold float64) (map[string]crawl.Known, error) {
	s.sync()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resumes != "" {
		var run, blob string
		err := s.db.QueryRow(`SELECT run_id, known FROM memory WHERE digest = ?`, digest).Scan(&run, &blob)
		switch {
		case err == nil && run == s.resumes:
			var known map[string]crawl.Known
			if err := json.Unmarshal([]byte(blob), &known); err == nil {
				_, err := s.db.Exec(`UPDATE memory SET run_id = ? WHERE digest = ?`, s.runID, digest)
				if err == nil {
					err = s.noteBad(digest)
				}
				s.noteCorrupt(err)
				return known, err
			}
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			s.noteCorrupt(err)
			return nil, err
		}
	}
	known, err := s.known(digest, threshold)
	if err != nil {
		s.noteCorrupt(err)
		return nil, err
	}
	blob, err := json.Marshal(known)
	if err != nil {
		return nil, err
	}
	_, err = s.db.Exec(`INSERT INTO memory (digest, run_id, known) VALUES (?, ?, ?)
		ON CONFLICT (digest) DO UPDATE SET run_id = excluded.run_id, known = excluded.known`, digest, s.runID, string(blob))
	if err == nil {
		_, err = s.db.Exec(pruneDigests("memory"))
	}
	if err != nil {
		return nil, s.failed(1, err)
	}
	return known, nil
}

// KeepDigests bounds the topics whose memory and link model a state keeps:
// the newest ones used. A job's topic words are edited now and then; a
// state whose topic changed every night would otherwise grow by a memory
// and a model a night. Four keep a topic's model through an edit tried
// and taken back.
const KeepDigests = 4

// pruneDigests is the statement that drops table's rows beyond the
// KeepDigests newest (by run id, which never goes back).
func pruneDigests(table string) string {
	return `DELETE FROM ` + table + ` WHERE digest NOT IN (SELECT digest FROM ` + table + ` ORDER BY run_id DESC, digest LIMIT ` +
		strconv.Itoa(KeepDigests) + `)`
}

// SaveVertices implements crawl.Vertices: the vertices of the complete
// run under digest, each with whether it was admitted by exploring.
func (s *Store) SaveVertices(digest string, vertices map[string]bool) error {
	b, err := json.Marshal(vertices)
	if err != nil {
		return err
	}
	err = s.exec(`INSERT INTO vertices (digest, run_id, keys) VALUES (?, ?, ?)
		ON CONFLICT (digest) DO UPDATE SET run_id = excluded.run_id, keys = excluded.keys`, digest, s.runID, string(b))
	if err != nil {
		return err
	}
	return s.exec(pruneDigests("vertices"))
}

// lastVertices reads the vertices SaveVertices kept under digest (nil:
// none); s.mu is held.
func (s *Store) lastVertices(digest string) (map[string]bool, error) {
	var blob string
	err := s.db.QueryRow(`SELECT keys FROM vertices WHERE digest = ?`, digest).Scan(&blob)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var v map[string]bool
	if json.Unmarshal([]byte(blob), &v) != nil {
		return nil, nil // unreadable: memory goes on without a last graph
	}
	return v, nil
}

// known reads the pages stored under digest; s.mu is held.
func (s *Store) known(digest string, threshold float64) (map[string]crawl.Known, error) {
	known := map[string]crawl.Known{}
	last, err := s.lastVertices(digest)
	if err != nil {
		return nil, err
	}
	links := map[string][]page.Link{}
	article := map[string]string{} // each stored title's article: its canonical, else itself
	err = s.eachStored(`digest = ?`, []any{digest}, func(r storedRow) error {
		var d page.Document
		if r.sum != r.checksum() || json.Unmarshal([]byte(r.doc), &d) != nil {
			s.bad[r.key] = true
			return nil
		}
		explored, vertex := last[r.key]
		known[r.key] = crawl.Known{Relevance: d.Relevance, Vertex: vertex, Explored: explored}
		links[r.key] = d.Links
		article[r.key] = cmp.Or(d.Canonical, r.key)
		return nil
	})
	if err != nil {
		return nil, err
	}
	markAliases(known, article)
	if err := s.knownGone(known, last); err != nil {
		return nil, err
	}
	for key, ls := range links {
		k := known[key]
		for _, l := range ls {
			t, ok := known[l.Key]
			if !ok || l.Key == key {
				continue
			}
			if t.Relevance >= threshold && !slices.Contains(k.Relevant, l.Key) {
				k.Relevant = append(k.Relevant, l.Key)
			}
			if k.Vertex && (t.Vertex || t.Relevance >= threshold) && !slices.Contains(k.Out, l.Key) {
				k.Out = append(k.Out, l.Key)
			}
		}
		known[key] = k
	}
	return known, nil
}

// markAliases marks as Alias every stored title of an article but the
// one that stands for it: the title it was a vertex under last night
// (whose paths the next night keeps), else the article's own title. A
// night fetches the others only to fold them into the article.
func markAliases(known map[string]crawl.Known, article map[string]string) {
	stands := map[string]string{} // article -> its title
	for key, a := range article {
		if known[key].Vertex {
			stands[a] = key
		}
	}
	for key, a := range article {
		if _, ok := stands[a]; !ok && key == a {
			stands[a] = key
		}
	}
	for key, a := range article {
		if t, ok := stands[a]; ok && t != key && !known[key].Vertex {
			k := known[key]
			k.Alias = true
			known[key] = k
		}
	}
}

// knownGone adds to known the pages whose last answer was 404 or 410,
// with nothing to say for them but that: so that a plan leaves them out
// and exploring does not spend itself on them again.
func (s *Store) knownGone(known map[string]crawl.Known, last map[string]bool) error {
	rows, err := s.db.Query(`SELECT key FROM missing`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		if err := rows.Scan(&key); err != nil {
			return err
		}
		if _, ok := known[key]; !ok {
			_, vertex := last[key]
			known[key] = crawl.Known{Gone: true, Vertex: vertex}
		}
	}
	return rows.Err()
}

// LinkModel implements crawl.LinkModel: the link model the last complete
// run under digest ended with (nil if none). A killed run keeps none, so
// the run that resumes it starts from the same model it did.
func (s *Store) LinkModel(digest string) ([]byte, error) {
	s.sync()
	s.mu.Lock()
	defer s.mu.Unlock()
	var b []byte
	err := s.db.QueryRow(`SELECT model FROM models WHERE digest = ?`, digest).Scan(&b)
	s.noteCorrupt(err)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return b, err
}

// SaveLinkModel implements crawl.LinkModel.
func (s *Store) SaveLinkModel(digest string, model []byte) error {
	err := s.exec(`INSERT INTO models (digest, run_id, model) VALUES (?, ?, ?)
		ON CONFLICT (digest) DO UPDATE SET run_id = excluded.run_id, model = excluded.model`, digest, s.runID, model)
	if err != nil {
		return err
	}
	return s.exec(pruneDigests("models"))
}

// LinkModels reads every link model the state file at path keeps, one per
// topic (cmd/trainprior). It takes no lock and changes nothing.
func LinkModels(path string) ([][]byte, error) {
	s, err := openReadOnly(path)
	if err != nil {
		return nil, err
	}
	defer s.db.Close()
	rows, err := s.db.Query(`SELECT model FROM models ORDER BY digest`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}
