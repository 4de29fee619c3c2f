package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"time"

	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/revisit"
)

// Tick is this run's tick of the revisit clock: the number of runs before
// it (a resumed run shares the tick of the run it resumes).
func (s *Store) Tick() int { return s.tick }

// Spent is the requests spent before this run began: those of the run it
// resumes, so that a killed run never spends its budget twice.
func (s *Store) Spent() int { return s.spent }

// observe records this tick's visit of key in its history and returns the
// history as stored JSON. hash and structure are what the visit found (""
// for a 304: unchanged), revision the page's revision id (0: unknown or a
// 304); relevance is NaN to keep the stored one;
// lastModified is the answer's Last-Modified header ("" if none).
func (s *Store) observe(key, hash, structure string, revision int64, relevance float64, lastModified string) (string, error) {
	var oldHash, oldStructure, raw string
	var oldRevision int64
	err := s.read(s.history, []any{key}, &oldHash, &oldStructure, &raw, &oldRevision)
	var h revisit.History
	switch {
	case errors.Is(err, sql.ErrNoRows):
		h = revisit.New(key, s.tick, relevance)
	case err != nil:
		return "", err
	case raw == "" || json.Unmarshal([]byte(raw), &h) != nil:
		// Stored before histories were kept, or damaged: it starts now.
		h = revisit.New(key, s.tick, relevance)
	default:
		if math.IsNaN(relevance) {
			relevance = h.Relevance
		}
		if _, known := page.ContentChanged(oldHash, hash); !known && hash != "" {
			oldHash = hash // a hash of the bytes, stored before: no change can be told
		}
		changed := revisit.Changed(oldHash, hash, oldRevision, revision)
		if changed && revision != 0 && oldRevision != 0 && h.LastVisit < s.tick {
			h.Edits++
		}
		h.Observe(s.tick, changed, changed && structure != oldStructure, relevance)
	}
	if math.IsNaN(h.Relevance) {
		h.Relevance = 0
	}
	if t, err := http.ParseTime(lastModified); err == nil {
		days := float64(t.Unix()) / 86400
		h.SawModified(s.tick, days)
		s.mu.Lock()
		newer := days > s.latest
		s.latest = max(s.latest, days)
		s.mu.Unlock()
		if newer {
			if err := s.write(s.serverNow, days, s.runID); err != nil {
				return "", err
			}
		}
	}
	b, err := json.Marshal(h)
	return string(b), err
}

// Histories returns the change history of every page the state holds, in
// the order they were first stored. A page stored before histories were
// kept counts as seen once, at tick 0: the oldest, so it is planned.
func (s *Store) Histories() ([]revisit.History, error) {
	s.sync() // a failed commit's writes are counted lost (Err); what is stored is read

	s.mu.Lock()
	defer s.mu.Unlock()
	rows, err := s.db.Query(`SELECT key, history FROM pages ORDER BY rowid`)
	if err != nil {
		s.noteCorrupt(err)
		return nil, err
	}
	defer rows.Close()
	var out []revisit.History
	for rows.Next() {
		var key, raw string
		if err := rows.Scan(&key, &raw); err != nil {
			return nil, err
		}
		h := revisit.New(key, 0, 0)
		if raw != "" && json.Unmarshal([]byte(raw), &h) != nil {
			h = revisit.New(key, 0, 0) // damaged: known, its history lost
		}
		h.Key = key
		out = append(out, h)
	}
	s.noteCorrupt(rows.Err())
	return out, rows.Err()
}

// Clock turns ticks into times: when each run of the job started, and the
// mean days between runs (NaN before a second run).
type Clock struct {
	Started     map[int]time.Time // by tick, the first run of the tick
	DaysPerTick float64
}

// Clock reads the start of every run by tick.
func (s *Store) Clock() (Clock, error) {
	s.sync()

	s.mu.Lock()
	defer s.mu.Unlock()
	rows, err := s.db.Query(`SELECT tick, MIN(started) FROM runs GROUP BY tick ORDER BY tick`)
	if err != nil {
		return Clock{}, err
	}
	defer rows.Close()
	c := Clock{Started: map[int]time.Time{}, DaysPerTick: math.NaN()}
	first, last := -1, -1
	for rows.Next() {
		var tick int
		var at string
		if err := rows.Scan(&tick, &at); err != nil {
			return Clock{}, err
		}
		t, err := time.Parse(time.RFC3339Nano, at)
		if err != nil {
			return Clock{}, err
		}
		c.Started[tick] = t
		if first < 0 {
			first = tick
		}
		last = tick
	}
	if last > first {
		c.DaysPerTick = c.Started[last].Sub(c.Started[first]).Hours() / 24 / float64(last-first)
	}
	return c, rows.Err()
}

// ServerClock returns the server's clock by tick, read off the newest
// Last-Modified date each run saw (nil until it spans two ticks).
func (s *Store) ServerClock() (*revisit.ServerClock, error) {
	s.sync() // a failed commit's writes are counted lost (Err); what is stored is read

	s.mu.Lock()
	defer s.mu.Unlock()
	rows, err := s.db.Query(`SELECT tick, MAX(server_now) FROM runs WHERE server_now > 0 GROUP BY tick`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	now := map[int]float64{}
	for rows.Next() {
		var tick int
		var days float64
		if err := rows.Scan(&tick, &days); err != nil {
			return nil, err
		}
		now[tick] = days
	}
	return revisit.NewServerClock(now), rows.Err()
}
