// Package dump reads Wikimedia's SQL dumps of a wiki (page, pagelinks,
// linktarget, redirect; *.sql.gz as https://dumps.wikimedia.org publishes
// them) into the wiki's article link graph, for runner rank -dump.
//
// sql.go is a streaming reader of the INSERT statements mysqldump writes:
// one row at a time, in memory bounded by a row's size whatever a line's.
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

// Next returns the next row, or io.EOF after the last. The values are
// valid until the following call.
func (t *Table) Next() ([]Value, error) {
	if t.pending != nil {
		return nil, t.pending
	}
	for !t.inInsert {
		if err := t.nextInsert(); err != nil {
			return nil, err
		}
	}
	return t.row()
}

// nextInsert skips to the next INSERT INTO the table, past its VALUES.
func (t *Table) nextInsert() error {
	prefix := []byte("INSERT INTO `" + t.table + "` VALUES")
	for {
		head, err := t.r.Peek(len(prefix))
		if err == io.EOF || (err != nil && len(head) == 0) {
			return io.EOF
		}
		if bytes.Equal(head, prefix) {
			t.r.Discard(len(prefix))
			t.off += int64(len(prefix))
			t.inInsert = true
			return nil
		}
		if bytes.HasPrefix(head, []byte("INSERT INTO `")) {
			return t.errorf("an INSERT into another table (%q)", head)
		}
		if _, err := t.line(0); err != nil && err != io.EOF {
			return t.wrap(err)
		} else if err == io.EOF {
			return io.EOF
		}
	}
}

func (t *Table) byte() (byte, error) {
	c, err := t.r.ReadByte()
	if err != nil {
		if err == io.EOF {
			return 0, &Error{File: t.name, Offset: t.off, Err: ErrTruncated}
		}
		return 0, t.wrap(err)
	}
	t.off++
	return c, nil
}

// skipSpace returns the next byte that is not white space.
func (t *Table) skipSpace() (byte, error) {
	for {
		c, err := t.byte()
		if err != nil || (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
			return c, err
		}
	}
}

// row reads one (v, v, ...) tuple and what follows it: a comma, or the
// semicolon that ends the INSERT.
func (t *Table) row() ([]Value, error) {
	c, err := t.skipSpace()
	if err != nil {
		return nil, err
	}
	if c != '(' {
		return nil, t.errorf("want ( to start a row, got %q", c)
	}
	t.vals, t.buf = t.vals[:0], t.buf[:0]
	var spans [][2]int
	for {
		c, err := t.skipSpace()
		if err != nil {
			return nil, err
		}
		start := len(t.buf)
		v := Value{}
		switch {
		case c == '\'':
			v.Str = true
			if err := t.str(); err != nil {
				return nil, err
			}
			c, err = t.skipSpace()
		case c == 'N':
			if err := t.expect("ULL"); err != nil {
				return nil, err
			}
			v.Null = true
			c, err = t.skipSpace()
		case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
			for c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || c >= '0' && c <= '9' {
				t.buf = append(t.buf, c)
				if c, err = t.byte(); err != nil {
					return nil, err
				}
			}
			if c == ' ' || c == '\n' {
				c, err = t.skipSpace()
			}
		default:
			return nil, t.errorf("want a value (a number, 'string' or NULL), got %q", c)
		}
		if err != nil {
			return nil, err
		}
		t.vals = append(t.vals, v)
		spans = append(spans, [2]int{start, len(t.buf)})
		if c == ')' {
			break
		}
		if c != ',' {
			return nil, t.errorf("want , or ) after a value, got %q", c)
		}
	}
	for i, s := range spans {
		t.vals[i].Bytes = t.buf[s[0]:s[1]]
	}
	if len(t.vals) != len(t.columns) {
		return nil, t.errorf("a row of %d values in table `%s` of %d columns", len(t.vals), t.table, len(t.columns))
	}
	switch c, err := t.skipSpace(); {
	case err != nil:
		t.pending = err // the row is whole; what follows it is not
		return t.vals, nil
	case c == ';':
		t.inInsert = false
	case c != ',':
		return nil, t.errorf("want , or ; after a row, got %q", c)
	}
	return t.vals, nil
}

func (t *Table) expect(rest string) error {
	for i := range len(rest) {
		c, err := t.byte()
		if err != nil {
			return err
		}
		if c != rest[i] {
			return t.errorf("want NULL, got %q", c)
		}
	}
	return nil
}

// str reads a quoted string's bytes into t.buf, undoing MySQL's escapes.
// Runs without a quote or backslash are copied from the reader's buffer
// in one piece: most of a dump's bytes are titles.
func (t *Table) str() error {
	for {
		if n := t.r.Buffered(); n > 0 {
			chunk, _ := t.r.Peek(n)
			if i := bytes.IndexAny(chunk, `'\`); i != 0 {
				if i < 0 {
					i = n
				}
				t.buf = append(t.buf, chunk[:i]...)
				t.r.Discard(i)
				t.off += int64(i)
				continue
			}
		}
		c, err := t.byte()
		if err != nil {
			return err
		}
		switch c {
		case '\\':
			e, err := t.byte()
			if err != nil {
				return err
			}
			switch e {
			case '0':
				c = 0
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'Z':
				c = 0x1a
			case '%', '_':
				t.buf = append(t.buf, '\\') // MySQL keeps the backslash of \% and \_
				c = e
			default:
				c = e
			}
		case '\'':
			if n, _ := t.r.Peek(1); len(n) == 1 && n[0] == '\'' { // '' is a quote
				t.r.Discard(1)
				t.off++
			} else {
				return nil
			}
		}
		t.buf = append(t.buf, c)
	}
}
