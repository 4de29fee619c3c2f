package store

import "fmt"

// schemaVersion is kept in SQLite's user_version. The state is a cache of
// what the web said: a file of an unknown version is rebuilt; version 1
// gains the columns of change history (its pages start their history at
// their next visit); version 2 gains checksums, computed once from the
// copies it holds.
const schemaVersion = 3

var migrations = map[int]string{
	1: `ALTER TABLE pages ADD COLUMN history TEXT NOT NULL DEFAULT '';
		ALTER TABLE runs ADD COLUMN tick INTEGER NOT NULL DEFAULT 0;
		ALTER TABLE runs ADD COLUMN requests INTEGER NOT NULL DEFAULT 0;
		ALTER TABLE runs ADD COLUMN server_now REAL NOT NULL DEFAULT 0;
		ALTER TABLE pages ADD COLUMN checksum TEXT NOT NULL DEFAULT '';
		ALTER TABLE pages ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;`,
	2: `ALTER TABLE pages ADD COLUMN checksum TEXT NOT NULL DEFAULT '';
		ALTER TABLE pages ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;`,
}

// upgradeFault, set by tests, is called after each step of an upgrade: an
// error it returns stops the upgrade there, as a kill would.
var upgradeFault func(step int) error

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
	steps := []func() error{func() error { return nil }}
	if m, ok := migrations[version]; ok {
		steps = []func() error{
			func() error { _, err := tx.Exec(m); return err },
			func() error { return sumAll(tx) },
		}
	} else if version != schemaVersion {
		steps = []func() error{func() error {
			_, err := tx.Exec(`DROP TABLE IF EXISTS pages; DROP TABLE IF EXISTS runs;`)
			return err
		}}
	}
	steps = append(steps,
		func() error { _, err := tx.Exec(schema); return err },
		func() error { _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); return err })
	for i, step := range steps {
		if err := step(); err != nil {
			return err
		}
		if upgradeFault != nil {
			if err := upgradeFault(i); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}
