package dump

// rows.go reads the rows of an INSERT statement, value by value.

import (
	"bytes"
	"io"
)

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
