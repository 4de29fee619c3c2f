package publish

import (
	"path/filepath"

	"github.com/topicrank/topicrank/internal/parquet"
)

// categoriesTable is categories.parquet: one row per page and category,
// as the page says them (page.Identity): hidden is null where the page
// gave no catlinks block to tell, sort_key where a Parsoid view gave one.
func categoriesTable(in *Input) tableSpec {
	fields := []column{
		distinct(field("page", tString, false)),
		field("vertex_id", tInt32, false),
		distinct(field("category", tString, false)),
		field("hidden", tBool, true),
		field("sort_key", tString, true),
	}
	return tableSpec{fields, func(t *table) {
		for i, p := range in.Crawl.Pages {
			for _, c := range p.Categories {
				t.name(2).Append(p.Key)
				t.i32(3).Append(int32(i))
				t.name(4).Append(c.Name)
				optBool(t.boolean(5), c.Hidden)
				optString(t.str(6), c.SortKey)
				t.endRow()
			}
		}
	}}
}

func optInt64(c *parquet.Col[int64], v int64) {
	if v == 0 {
		c.AppendNull()
		return
	}
	c.Append(v)
}

func optBool(c *parquet.Col[bool], v *bool) {
	if v == nil {
		c.AppendNull()
		return
	}
	c.Append(*v)
}

// PageCategory is one of a page's categories as categories.parquet has it.
type PageCategory struct {
	Name   string
	Hidden bool // false where unknown
}

// ReadCategories reads the categories.parquet of the run in dir: each
// page's categories.
func ReadCategories(dir string) (map[string][]PageCategory, error) {
	out := map[string][]PageCategory{}
	err := readTable(filepath.Join(dir, "categories.parquet"), func(r row) {
		hidden, _ := r.boolean("hidden")
		page := r.mustStr("page")
		out[page] = append(out[page], PageCategory{r.mustStr("category"), hidden})
	})
	return out, err
}
