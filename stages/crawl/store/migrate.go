package store

import (
	"database/sql"
	"fmt"
)

// schemaVersion is kept in SQLite's user_version. The state is a cache of
// what the web said: a file of an unknown version is rebuilt; version 1
// gains the columns of change history (its pages start their history at
// their next visit); version 2 gains checksums, computed once from the
// copies it holds.
const schemaVersion = 3

// migrations are the statements that bring a state of each older version
// to the columns of schemaVersion, one statement each.
var migrations = map[int][]string{
	1: {
		`ALTER TABLE pages ADD COLUMN history TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE runs ADD COLUMN tick INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE runs ADD COLUMN requests INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE runs ADD COLUMN server_now REAL NOT NULL DEFAULT 0`,
		`ALTER TABLE pages ADD COLUMN checksum TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE pages ADD COLUMN revision INTEGER NOT NULL DEFAULT 0`,
	},
	2: {
		`ALTER TABLE pages ADD COLUMN checksum TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE pages ADD COLUMN revision INTEGER NOT NULL DEFAULT 0`,
	},
}

// upgradeFault, set by tests (and by builds tagged killpoints, from the
// environment), is called after each statement of an upgrade, numbered
// from 0: an error it returns stops the upgrade there, as a kill would.
var upgradeFault func(statement int) error

// upgrade brings a state of the given schema version to schemaVersion in
// one transaction: the migration's statements, the checksums of the
// copies it holds, the schema's new tables and the version bump commit
// together or not at all, so a kill at any instant leaves the old schema
// (migrated again by the next run) or the new one, never half of each.
func (s *Store) upgrade(version int) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() // a no-op once committed
	q := &counted{Tx: tx}
	if m, ok := migrations[version]; ok {
		for _, stmt := range m {
			if _, err := q.Exec(stmt); err != nil {
				return err
			}
		}
		if err := sumAll(q); err != nil {
			return err
		}
	} else if version != schemaVersion {
		if _, err := q.Exec(`DROP TABLE IF EXISTS pages; DROP TABLE IF EXISTS runs;`); err != nil {
			return err
		}
	}
	if _, err := q.Exec(schema); err != nil {
		return err
	}
	if _, err := q.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// counted is a transaction that calls upgradeFault after each statement
// it executes.
type counted struct {
	*sql.Tx
	n int
}

func (c *counted) Exec(query string, args ...any) (sql.Result, error) {
	r, err := c.Tx.Exec(query, args...)
	if err == nil && upgradeFault != nil {
		err = upgradeFault(c.n)
	}
	c.n++
	return r, err
}
