// Package dump reads Wikimedia's SQL dumps of a wiki (page, pagelinks,
// linktarget, redirect; *.sql.gz as https://dumps.wikimedia.org publishes
// them) into the wiki's article link graph, for runner rank -dump.
//
// sql.go and rows.go are a streaming reader of the INSERT statements
// mysqldump writes: one row at a time, in memory bounded by a row's size
// whatever a line's.
package dump

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Value is one field of a row: NULL, a number as written, or a string
// with its escapes undone (binary titles stay the bytes they are).
type Value struct {
	Null  bool
	Bytes []byte // the number's text or the string's bytes; valid until the next row
	Str   bool
}

// Int returns the value as an integer.
func (v Value) Int() (int64, error) {
	if v.Null || v.Str {
		return 0, fmt.Errorf("want an integer, got %s", v.describe())
	}
	return strconv.ParseInt(string(v.Bytes), 10, 64)
}

func (v Value) describe() string {
	switch {
	case v.Null:
		return "NULL"
	case v.Str:
		return fmt.Sprintf("the string %q", v.Bytes)
	}
	return string(v.Bytes)
}

// Table reads the rows of one table from a dump.
type Table struct {
	name     string // the file, for errors
	r        *bufio.Reader
	off      int64 // bytes read so far
	table    string
	columns  []string
	inInsert bool
	pending  error // met after a whole row: returned by the next call
	vals     []Value
	buf      []byte
}

// Error is a problem at a byte offset of a dump's SQL.
type Error struct {
	File   string
	Offset int64 // of the uncompressed SQL
	Err    error
}

func (e *Error) Error() string { return fmt.Sprintf("%s: byte %d: %v", e.File, e.Offset, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// ErrTruncated is the cause of an Error where the SQL ends inside a statement.
var ErrTruncated = errors.New("the SQL ends inside an INSERT statement: the dump is cut short")

// OpenTable reads a dump's preamble up to its CREATE TABLE, which must
// create table (a dump of another table under the right file name is an
// error), and returns the reader of its rows.
func OpenTable(name string, r io.Reader, table string) (*Table, error) {
	t := &Table{name: name, r: bufio.NewReaderSize(r, 1<<16)}
	for {
		line, err := t.line(4096)
		if err == io.EOF {
			return nil, t.errorf("no CREATE TABLE: not a MySQL dump of table `%s`", table)
		}
		if err != nil {
			return nil, t.wrap(err)
		}
		name, ok := bytes.CutPrefix(line, []byte("CREATE TABLE `"))
		if !ok {
			continue
		}
		name, _, _ = bytes.Cut(name, []byte("`"))
		if string(name) != table {
			return nil, t.errorf("a dump of table `%s`, want `%s`", name, table)
		}
		t.table = table
		return t, t.readColumns()
	}
}

// Columns returns the table's column names, in order.
func (t *Table) Columns() []string { return t.columns }

// Column returns the index of a column, or -1.
func (t *Table) Column(name string) int {
	for i, c := range t.columns {
		if c == name {
			return i
		}
	}
	return -1
}

func (t *Table) readColumns() error {
	for {
		line, err := t.line(4096)
		if err != nil {
			return t.wrap(noEOF(err))
		}
		line = bytes.TrimSpace(line)
		if c, ok := bytes.CutPrefix(line, []byte("`")); ok {
			c, _, _ = bytes.Cut(c, []byte("`"))
			t.columns = append(t.columns, string(c))
			continue
		}
		if bytes.HasPrefix(line, []byte(")")) {
			if len(t.columns) == 0 {
				return t.errorf("CREATE TABLE `%s` names no columns", t.table)
			}
			return nil
		}
	}
}

// line returns the next line without its newline; longer lines are
// skipped past max bytes (they are not part of the table's definition).
func (t *Table) line(max int) ([]byte, error) {
	var out []byte
	for {
		chunk, err := t.r.ReadSlice('\n')
		t.off += int64(len(chunk))
		if len(out) < max {
			out = append(out, chunk[:min(len(chunk), max-len(out))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(out) > 0 {
			return bytes.TrimRight(out, "\r\n"), nil
		}
		return bytes.TrimRight(out, "\r\n"), err
	}
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func (t *Table) errorf(format string, args ...any) error {
	return &Error{File: t.name, Offset: t.off, Err: fmt.Errorf(format, args...)}
}

func (t *Table) wrap(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("the SQL ends early (%w)", err)
	}
	return &Error{File: t.name, Offset: t.off, Err: err}
}
