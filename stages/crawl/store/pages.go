package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/topicrank/topicrank/stages/crawl"
)

// checksum is the stored copy's checksum: every field a re-crawl trusts
// (what the links were made with, the validators, the hash, the links),
// so that a changed byte anywhere in them makes the copy missing.
func checksum(key, digest, etag, lastModified, hash, structure string, bytes int, doc string) string {
	h := sha256.New()
	for _, f := range []string{key, digest, etag, lastModified, hash, structure, strconv.Itoa(bytes), doc} {
		h.Write([]byte(strconv.Itoa(len(f))))
		h.Write([]byte{':'})
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Load implements crawl.State. A copy whose checksum fails is missing.
func (s *Store) Load(key, digest string) (crawl.Stored, bool, bool) {
	var st crawl.Stored
	var run, at, structure, doc, sum string
	err := s.read(s.load, []any{key, digest}, &run, &at, &st.ETag, &st.LastModified, &st.Hash, &structure, &st.Bytes, &doc, &sum)
	if err != nil {
		return crawl.Stored{}, false, false
	}
	if sum != checksum(key, digest, st.ETag, st.LastModified, st.Hash, structure, st.Bytes, doc) ||
		json.Unmarshal([]byte(doc), &st.Doc) != nil {
		s.mu.Lock()
		s.bad[key] = true
		s.mu.Unlock()
		return crawl.Stored{}, false, false
	}
	st.FetchedAt, _ = time.Parse(time.RFC3339Nano, at)
	replay := s.resumes != "" && run == s.resumes
	return st, replay, true
}

// Save implements crawl.State: it stores the page as fetched by this run
// and counts content and structure changes against what was stored.
func (s *Store) Save(key, digest string, st crawl.Stored) error {
	b, err := json.Marshal(st.Doc)
	if err != nil {
		return err
	}
	doc, structure := string(b), strconv.FormatUint(st.Doc.Structure, 16)
	if err := s.write(s.found, key); err != nil {
		return err
	}
	h, err := s.observe(key, st.Hash, structure, st.Doc.RevisionID, st.Doc.Relevance, st.LastModified)
	if err != nil {
		return err
	}
	err = s.write(s.save, key, s.runID, time.Now().UTC().Format(time.RFC3339Nano), digest, st.ETag, st.LastModified, st.Hash,
		structure, st.Bytes, doc, h, checksum(key, digest, st.ETag, st.LastModified, st.Hash, structure, st.Bytes, doc), st.Doc.RevisionID)
	s.wrote(key, err)
	return err
}

// wrote notes a page this run saved or touched.
func (s *Store) wrote(key string, err error) {
	if err != nil {
		return
	}
	s.mu.Lock()
	if s.written == nil {
		s.written = map[string]bool{}
	}
	s.written[key] = true
	s.mu.Unlock()
}

const saveSQL = `
INSERT INTO pages (key, run_id, fetched_at, digest, etag, last_modified, content_hash, structure, bytes, doc, history, checksum, revision)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (key) DO UPDATE SET
	run_id = excluded.run_id, fetched_at = excluded.fetched_at, digest = excluded.digest,
	etag = excluded.etag, last_modified = excluded.last_modified, bytes = excluded.bytes, doc = excluded.doc,
	history = excluded.history, checksum = excluded.checksum, revision = excluded.revision,
	fetches = fetches + 1,
	content_changes = content_changes + (content_hash != excluded.content_hash
		AND (content_hash LIKE 'a1:%') = (excluded.content_hash LIKE 'a1:%')), -- page.ContentChanged
	structure_changes = structure_changes + (structure != excluded.structure),
	content_hash = excluded.content_hash, structure = excluded.structure`

// Touch implements crawl.State: this run found key unchanged (a 304
// giving lastModified).
func (s *Store) Touch(key, lastModified string) error {
	h, err := s.observe(key, "", "", 0, math.NaN(), lastModified)
	if err != nil {
		return err
	}
	err = s.write(s.touch, s.runID, time.Now().UTC().Format(time.RFC3339Nano), h, key)
	s.wrote(key, err)
	return err
}

// Requests implements crawl.State: the run has spent n requests so far,
// those of the run it resumes included.
func (s *Store) Requests(n int) error { return s.write(s.requests, n, s.runID) }

// Missing implements crawl.State.
func (s *Store) Missing(key string) (int, time.Time, bool) {
	var status int
	var at string
	if s.read(s.missing, []any{key}, &status, &at) != nil {
		return 0, time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	return status, t, err == nil && (status == 404 || status == 410)
}

// SaveMissing implements crawl.State.
func (s *Store) SaveMissing(key string, status int) error {
	return s.write(s.saveMissing, key, status, time.Now().UTC().Format(time.RFC3339Nano))
}

// Counters returns a page's fetch and change counts.
func (s *Store) Counters(key string) (fetches, contentChanges, structureChanges int, err error) {
	err = s.read(s.counters, []any{key}, &fetches, &contentChanges, &structureChanges)
	return
}

// storedRow is a stored copy as the pages table holds it: the fields its
// checksum covers, and the checksum.
type storedRow struct {
	key, digest, etag, lastModified, hash, structure, doc, sum string
	bytes                                                      int
}

// storedColumns are a storedRow's columns, in eachStored's order.
const storedColumns = `key, digest, etag, last_modified, content_hash, structure, bytes, doc, checksum`

// checksum is the row's checksum as its fields make it.
func (r storedRow) checksum() string {
	return checksum(r.key, r.digest, r.etag, r.lastModified, r.hash, r.structure, r.bytes, r.doc)
}

// eachStored calls f for every stored copy the condition where (with
// args) selects, and stops at f's first error.
func (s *Store) eachStored(where string, args []any, f func(storedRow) error) error {
	return eachStoredIn(s.db, where, args, f)
}

// querier is a database or a transaction.
type querier interface {
	Query(query string, args ...any) (*sql.Rows, error)
	Exec(query string, args ...any) (sql.Result, error)
}

// eachStoredIn is eachStored through q.
func eachStoredIn(q querier, where string, args []any, f func(storedRow) error) error {
	rows, err := q.Query(`SELECT `+storedColumns+` FROM pages WHERE `+where, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r storedRow
		if err := rows.Scan(&r.key, &r.digest, &r.etag, &r.lastModified, &r.hash, &r.structure, &r.bytes, &r.doc, &r.sum); err != nil {
			return err
		}
		if err := f(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// sumAll gives every stored copy its checksum, through q (a migration
// from a version without them: the copies are trusted once, as they were
// before).
func sumAll(q querier) error {
	sums := map[string]string{} // by key
	if err := eachStoredIn(q, `checksum = ''`, nil, func(r storedRow) error {
		sums[r.key] = r.checksum()
		return nil
	}); err != nil {
		return err
	}
	for key, sum := range sums {
		if _, err := q.Exec(`UPDATE pages SET checksum = ? WHERE key = ?`, sum, key); err != nil {
			return err
		}
	}
	return nil
}

// openReadOnly opens the file at path for reading only, without a lock.
func openReadOnly(path string) (*Store, error) {
	db, err := sql.Open("sqlite", fileURI(path)+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return &Store{path: path, db: db}, nil
}
