package dump

import (
	"bytes"
	"io"
	"testing"
)

// FuzzTable feeds the reader arbitrary SQL after a table's definition:
// it returns rows or an error, never panics, and ends.
func FuzzTable(f *testing.F) {
	f.Add([]byte("INSERT INTO `t` VALUES (1,'a\\'b',NULL),(2,'',-3.5e2);\n"))
	f.Add([]byte("INSERT INTO `t` VALUES (1,'unterminated"))
	f.Add([]byte("INSERT INTO `t` VALUES (1,2,3,4);INSERT INTO `u` VALUES (1);"))
	f.Add([]byte("-- comment\n/*!40000 ALTER TABLE `t` DISABLE KEYS */;\nINSERT INTO `t` VALUES (1,'x''y',2)\n;"))
	f.Fuzz(func(t *testing.T, sql []byte) {
		head := "CREATE TABLE `t` (\n  `a` int,\n  `b` varbinary(255),\n  `c` int\n);\n"
		tb, err := OpenTable("fuzz.sql", io.MultiReader(bytes.NewReader([]byte(head)), bytes.NewReader(sql)), "t")
		if err != nil {
			t.Fatal(err)
		}
		for range len(sql) + 2 { // each row takes at least a byte
			row, err := tb.Next()
			if err != nil {
				return
			}
			if len(row) != 3 {
				t.Fatalf("a row of %d values", len(row))
			}
		}
		t.Fatal("more rows than bytes: the reader does not end")
	})
}
