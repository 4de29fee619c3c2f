package pipeline

import (
	"errors"
	"fmt"
	"github.com/topicrank/topicrank/pipeline/notify"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/topicrank/topicrank/stages/crawl/page"
)

// This file is the YAML side of jobs.yaml: a decoder that walks the
// document's nodes, so that every error names the line, the job and the
// key, and every unknown key is refused with the keys that are known.

// resolve makes relative paths relative to the config file's directory.
func (d *decoder) resolve(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(d.file), p)
		}
		out[i] = p
	}
	return out
}

// decoder walks the YAML nodes, collecting errors with their positions.
type decoder struct {
	file     string
	errs     []error
	warnings []string
	lines    map[string]int // line of each field of the current job
}

// errorf records a problem at n's line. ctx says where in the file it is:
// "defaults", `job "tennis"`, or "" at the top level.
func (d *decoder) errorf(n *yaml.Node, ctx, field, format string, args ...any) {
	where := fmt.Sprintf("%s:%d", d.file, n.Line)
	if ctx != "" {
		where += ": " + ctx
	}
	if field != "" {
		where += ": " + field
	}
	d.errs = append(d.errs, fmt.Errorf("%s: %s", where, fmt.Sprintf(format, args...)))
}

// mapping calls the handler of each key of a mapping node; unknown keys
// are errors.
func (d *decoder) mapping(n *yaml.Node, ctx string, handlers map[string]func(*yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		d.errorf(n, ctx, "", "want a mapping of keys to values")
		return
	}
	first := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if line, dup := first[k.Value]; dup {
			d.errorf(k, ctx, k.Value, "duplicate key (first at line %d): YAML would keep only the last", line)
			continue
		}
		first[k.Value] = k.Line
		h, ok := handlers[k.Value]
		if !ok {
			if near, ok := nearest(k.Value, slices.Collect(maps.Keys(handlers))); ok {
				d.errorf(k, ctx, k.Value, "unknown key: did you mean %s?", near)
			} else {
				d.errorf(k, ctx, k.Value, "unknown key (known: %s)", known(handlers))
			}
			continue
		}
		h(v)
	}
}

func known(handlers map[string]func(*yaml.Node)) string {
	keys := make([]string, 0, len(handlers))
	for k := range handlers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

// decode decodes a scalar or list value into dst, reporting type errors.
func (d *decoder) decode(n *yaml.Node, ctx, field string, dst any) bool {
	if d.lines != nil {
		d.lines[field] = n.Line
	}
	if err := n.Decode(dst); err != nil {
		var te *yaml.TypeError
		msg := err.Error()
		switch {
		case !errors.As(err, &te):
		case n.Kind == yaml.SequenceNode:
			msg = fmt.Sprintf("want %s, %s", want(dst), badItem(n, dst))
		default:
			msg = fmt.Sprintf("want %s, got %s%s", want(dst), got(n), quotedNumber(n, dst))
		}
		d.errorf(n, ctx, field, "%s", msg)
		return false
	}
	return true
}

// settings decodes the keys that defaults and jobs share into j.
func (d *decoder) settings(n *yaml.Node, ctx string, j *Job) {
	d.mapping(n, ctx, d.settingHandlers(ctx, j))
}

func (d *decoder) settingHandlers(ctx string, j *Job) map[string]func(*yaml.Node) {
	field := func(name string, dst any) func(*yaml.Node) {
		return func(n *yaml.Node) { d.decode(n, ctx, name, dst) }
	}
	return map[string]func(*yaml.Node){
		"base_url":            field("base_url", &j.BaseURL),
		"user_agent":          field("user_agent", &j.UserAgent),
		"epsilons":            field("epsilons", &j.Epsilons),
		"beta":                field("beta", &j.Beta),
		"max_pages":           field("max_pages", &j.MaxPages),
		"weighted":            field("weighted", &j.Weighted),
		"link_scope":          field("link_scope", &j.LinkScope),
		"strategy":            field("strategy", &j.Strategy),
		"admission":           field("admission", &j.Admission),
		"max_frontier":        field("max_frontier", &j.MaxFrontier),
		"relevance_threshold": field("relevance_threshold", &j.RelevanceThreshold),
		"topic_pages": func(n *yaml.Node) {
			if d.decode(n, ctx, "topic_pages", &j.TopicPages) {
				j.TopicPages = d.resolve(j.TopicPages)
			}
		},
		"keep":                     field("keep", &j.Keep),
		"feed_entries":             field("feed_entries", &j.FeedEntries),
		"notify":                   func(n *yaml.Node) { j.Notify = d.hooks(n, ctx) },
		"notify_timeout":           field("notify_timeout", &j.NotifyTimeout),
		"near_duplicate_threshold": field("near_duplicate_threshold", &j.NearDuplicateThreshold),
		"max_depth":                field("max_depth", &j.MaxDepth),
		"recheck_missing":          field("recheck_missing", &j.RecheckMissing),
		"include":                  field("include", &j.Include),
		"exclude":                  field("exclude", &j.Exclude),
		"state_dir": func(n *yaml.Node) {
			if d.decode(n, ctx, "state_dir", &j.StateDir) && j.StateDir != "" {
				j.StateDir = d.resolve([]string{j.StateDir})[0]
			}
		},
		"timezone": field("timezone", &j.Timezone),
		"revisit":  field("revisit", &j.Revisit),
		"global_ranks": func(n *yaml.Node) {
			if d.decode(n, ctx, "global_ranks", &j.GlobalRanks) && j.GlobalRanks != "" {
				j.GlobalRanks = d.resolve([]string{j.GlobalRanks})[0]
			}
		},
		"max_tunnel":      field("max_tunnel", &j.MaxTunnel),
		"topic_feedback":  field("topic_feedback", &j.TopicFeedback),
		"feedback_terms":  field("feedback_terms", &j.FeedbackTerms),
		"feedback_weight": field("feedback_weight", &j.FeedbackWeight),
		"max_requests":    field("max_requests", &j.MaxRequests),
		"max_duration":    field("max_duration", &j.MaxDuration),
		"new_share":       field("new_share", &j.NewShare),
		"search_index":    field("search_index", &j.SearchIndex),
		"politeness": func(n *yaml.Node) {
			d.mapping(n, ctx, map[string]func(*yaml.Node){
				"max_rps":     field("politeness.max_rps", &j.MaxRPS),
				"concurrency": field("politeness.concurrency", &j.Concurrency),
			})
		},
	}
}

// hooks decodes notify: a list of {url: ..., on: [...]}, each checked
// (notify.Check) with the line of what is wrong.
func (d *decoder) hooks(n *yaml.Node, ctx string) []notify.Hook {
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, ctx, "notify", "want a list of {url: ..., on: [run, failure, change]}")
		return nil
	}
	var hooks []notify.Hook
	for i, item := range n.Content {
		name := fmt.Sprintf("notify[%d]", i)
		var h notify.Hook
		d.mapping(item, ctx, map[string]func(*yaml.Node){
			"url": func(v *yaml.Node) { d.decode(v, ctx, name+".url", &h.URL) },
			"on":  func(v *yaml.Node) { d.decode(v, ctx, name+".on", &h.On) },
		})
		if msg := notify.Check(h); msg != "" {
			d.errorf(item, ctx, name, "%s", msg)
		}
		hooks = append(hooks, h)
	}
	return hooks
}

var (
	jobName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	lineRef = regexp.MustCompile(`line \d+: `) // yaml.v3's own, already in our prefix
)

func jobCtx(name string) string { return fmt.Sprintf("job %q", name) }

// job decodes one job over the defaults and validates the merged result.
func (d *decoder) job(n *yaml.Node, defaults Job) Job {
	j := defaults
	j.Line = n.Line
	d.lines = map[string]int{}
	defer func() { d.lines = nil }()
	// The name comes first so that every later error can name the job.
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "name" {
				d.decode(n.Content[i+1], "job", "name", &j.Name)
			}
		}
	}
	ctx := jobCtx(j.Name)
	h := d.settingHandlers(ctx, &j)
	h["name"] = func(*yaml.Node) {}
	h["schedule"] = func(v *yaml.Node) { d.decode(v, ctx, "schedule", &j.Schedule) }
	h["seeds"] = func(v *yaml.Node) { d.decode(v, ctx, "seeds", &j.Seeds) }
	h["topics"] = func(v *yaml.Node) { d.decode(v, ctx, "topics", &j.Topics) }
	d.mapping(n, ctx, h)
	d.validate(n, &j)
	d.warn(n, &j)
	return j
}

// warn notes what is valid in a job but likely not meant.
func (d *decoder) warn(n *yaml.Node, j *Job) {
	where := fmt.Sprintf("%s:%d: job %q", d.file, n.Line, j.Name)
	if len(j.Topics) == 0 && len(j.TopicPages) == 0 {
		d.warnings = append(d.warnings, where+": no topics: the crawl is unweighted and no page is judged (no relevance, no harvest); add topics: [words, ...] to focus it")
	}
	for _, list := range []struct {
		field string
		items []string
		fold  func(string) string
	}{{"seeds", j.Seeds, func(s string) string { k, _ := page.ArticleKey(s, nil); return k }}, {"topics", j.Topics, strings.ToLower}} {
		seen := map[string]bool{}
		for _, it := range list.items {
			k := list.fold(strings.TrimSpace(it))
			if seen[k] {
				d.warnings = append(d.warnings, fmt.Sprintf("%s: %s: %q is given twice", where, list.field, it))
			}
			seen[k] = true
		}
	}
}

// Keys lists every key jobs.yaml accepts: a job's (which defaults may set
// too, but name, schedule, seeds and topics), politeness's as
// politeness.max_rps, and the top level's. docs/configuration.md has a
// row for each (TestConfigurationDocumentsEveryKey).
func Keys() []string {
	d := &decoder{}
	var j Job
	keys := []string{"name", "schedule", "seeds", "topics", "max_parallel_jobs", "politeness.max_rps", "politeness.concurrency"}
	for k := range d.settingHandlers("", &j) {
		if k != "politeness" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
