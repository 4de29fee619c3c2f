package pipeline

import (
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/robfig/cron/v3"
	"gopkg.in/yaml.v3"

	"github.com/topicrank/topicrank/stages/crawl"
	"github.com/topicrank/topicrank/stages/crawl/page"
	"github.com/topicrank/topicrank/stages/revisit"
)

// validate checks a merged job; a problem is reported at the line of the
// field that caused it, or at the job's line for a value from defaults.
func (d *decoder) validate(n *yaml.Node, j *Job) {
	bad := func(field, format string, args ...any) {
		at := n
		if line, ok := d.lines[field]; ok {
			at = &yaml.Node{Line: line}
		}
		d.errorf(at, jobCtx(j.Name), field, format, args...)
	}
	if !jobName.MatchString(j.Name) {
		bad("name", "%q is not a safe path segment: want [a-z0-9][a-z0-9_-]*", j.Name)
	} else if len(j.Name) > MaxJobName {
		bad("name", "is %d characters: at most %d, so that every file named after it (the job's folder, its crawl state, evaluate's states) fits a file system's 255-byte names", len(j.Name), MaxJobName)
	}
	if _, err := time.LoadLocation(j.Timezone); err != nil || j.Timezone == "" || strings.EqualFold(j.Timezone, "local") {
		hint := "such as UTC or Europe/Paris"
		if z, ok := zoneHints[strings.ToUpper(j.Timezone)]; ok {
			hint = fmt.Sprintf("such as %s (what %s usually means; it follows daylight saving time)", z, j.Timezone)
		} else if strings.EqualFold(j.Timezone, "local") {
			hint += ": a schedule must not change with the host it runs on"
		}
		bad("timezone", "%q: want an IANA zone %s", j.Timezone, hint)
	} else if j.Schedule != "" {
		if _, err := cron.ParseStandard(j.Schedule); err != nil || strings.Contains(j.Schedule, "TZ=") {
			bad("schedule", "%q: %v (set the zone with timezone:, not in the expression)", j.Schedule, err)
		}
	}
	if len(j.Seeds) == 0 {
		bad("seeds", "empty: list at least one /wiki/Title page")
	}
	for _, s := range j.Seeds {
		if _, ok := page.ArticleKey(s, nil); !ok {
			if u, err := url.Parse(s); err == nil && u.Host != "" && strings.HasPrefix(u.Path, "/wiki/") {
				bad("seeds", "%q is a URL: write its path, %s (the host is base_url's)", s, u.Path)
				continue
			}
			bad("seeds", "%q is not an article path such as /wiki/Tennis", s)
		}
	}
	if len(j.Topics) > 0 && page.NewTopics(j.Topics).Empty() {
		bad("topics", "every entry is blank: give topic words, or remove topics for an unweighted crawl")
	}
	if j.MaxPages < 1 || j.MaxPages > Limits.MaxPages {
		bad("max_pages", "must be between 1 and %d, got %d", Limits.MaxPages, j.MaxPages)
	}
	if len(j.Seeds) > Limits.Seeds {
		bad("seeds", "%d seeds: at most %d", len(j.Seeds), Limits.Seeds)
	}
	if len(j.Topics) > Limits.Topics {
		bad("topics", "%d topics: at most %d", len(j.Topics), Limits.Topics)
	}
	if len(j.Epsilons) > Limits.Epsilons {
		bad("epsilons", "%d epsilons: at most %d", len(j.Epsilons), Limits.Epsilons)
	}
	if len(j.Epsilons) == 0 {
		bad("epsilons", "empty: give at least one, e.g. [0.01]")
	}
	for _, e := range j.Epsilons {
		if !(e >= Limits.MinEpsilon && e <= 2) {
			bad("epsilons", "%v must be between %g and 2 (an L1 distance between rank vectors is at most 2)", e, Limits.MinEpsilon)
		}
	}
	if !(j.Beta > 0 && j.Beta < 1) {
		bad("beta", "%v must be in (0,1)", j.Beta)
	}
	if u, err := url.Parse(j.BaseURL); err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		bad("base_url", "%q: want http(s)://host", j.BaseURL)
	}
	if i := strings.IndexFunc(j.UserAgent, unicode.IsControl); i >= 0 {
		bad("user_agent", "holds the control character %q at byte %d: a header value must be one line of text", j.UserAgent[i], i)
	} else if len(j.UserAgent) > 512 {
		bad("user_agent", "is %d bytes: keep it under 512", len(j.UserAgent))
	} else if strings.TrimSpace(j.UserAgent) == "" {
		bad("user_agent", "required: Wikimedia's User-Agent policy asks for a name and contact, e.g. \"topicrank/0.1 (https://example.org; ops@example.org)\"")
	} else if !strings.Contains(j.UserAgent, "@") && !strings.Contains(j.UserAgent, "http") {
		bad("user_agent", "%q has no contact: add an e-mail address or URL (Wikimedia's User-Agent policy)", j.UserAgent)
	}
	if !(j.MaxRPS >= Limits.MinRPS && j.MaxRPS <= Limits.MaxRPS) {
		bad("politeness.max_rps", "%v must be between %g and %g requests a second", j.MaxRPS, Limits.MinRPS, Limits.MaxRPS)
	}
	if j.Concurrency < 1 || j.Concurrency > 64 {
		bad("politeness.concurrency", "%d must be between 1 and 64", j.Concurrency)
	}
	if _, ok := page.ParseScope(j.LinkScope); !ok {
		bad("link_scope", "%q: want prose, body or legacy", j.LinkScope)
	}
	if _, err := page.ParseStrategy(j.Strategy); err != nil {
		bad("strategy", "%v", err)
	}
	if _, err := crawl.ParseAdmission(j.Admission); err != nil {
		bad("admission", "%v", err)
	}
	if j.MaxFrontier > Limits.MaxFrontier {
		bad("max_frontier", "%d is above %d", j.MaxFrontier, Limits.MaxFrontier)
	}
	if j.MaxFrontier != 0 && j.MaxFrontier < j.MaxPages {
		bad("max_frontier", "%d is below max_pages (%d): the frontier must hold at least a crawl's worth of pages", j.MaxFrontier, j.MaxPages)
	}
	if !(j.RelevanceThreshold >= 0 && j.RelevanceThreshold <= 1) {
		bad("relevance_threshold", "%v must be in [0,1]", j.RelevanceThreshold)
	}
	for _, p := range j.TopicPages {
		if st, err := os.Stat(p); err != nil {
			bad("topic_pages", "%v", err)
		} else if !st.Mode().IsRegular() {
			bad("topic_pages", "%s is not a file", p)
		}
	}
	if !(j.NearDuplicateThreshold > 0 && j.NearDuplicateThreshold <= 1) {
		bad("near_duplicate_threshold", "%v must be in (0,1]", j.NearDuplicateThreshold)
	}
	if _, set := d.lines["max_depth"]; j.MaxDepth < 0 || set && j.MaxDepth == 0 {
		bad("max_depth", "%d must be at least 1 (leave it out for no limit)", j.MaxDepth)
	}
	for _, f := range []struct {
		name     string
		patterns []string
	}{{"include", j.Include}, {"exclude", j.Exclude}} {
		for _, p := range f.patterns {
			if _, err := regexp.Compile(p); err != nil {
				bad(f.name, "%q is not a Go regexp: %v", p, err)
			}
		}
	}
	if j.RecheckMissing < 0 || j.RecheckMissing > 10*365*24*time.Hour {
		bad("recheck_missing", "%v must be between 0 (ask every run) and 87600h", j.RecheckMissing)
	}
	if j.MaxTunnel != nil && (*j.MaxTunnel < 0 || *j.MaxTunnel > 100) {
		bad("max_tunnel", "%d must be between 0 and 100 (leave it out for no limit)", *j.MaxTunnel)
	}
	if _, set := d.lines["feedback_terms"]; set && (j.FeedbackTerms < 1 || j.FeedbackTerms > 200) {
		bad("feedback_terms", "%d must be between 1 and 200", j.FeedbackTerms)
	}
	if _, set := d.lines["feedback_weight"]; set && !(j.FeedbackWeight > 0 && j.FeedbackWeight < 1) {
		bad("feedback_weight", "%v must be in (0,1): the rest of a link's priority stays its strategy's", j.FeedbackWeight)
	}
	if j.GlobalRanks != "" {
		if st, err := os.Stat(j.GlobalRanks); err != nil {
			bad("global_ranks", "%v (make one with runner rank -dump DIR -out OUT: OUT/ranks/<e>.parquet)", err)
		} else if !st.Mode().IsRegular() {
			bad("global_ranks", "%s is not a file", j.GlobalRanks)
		}
	}
	d.validateRevisit(j, bad)
	if !(j.NotifyTimeout > 0 && j.NotifyTimeout <= MaxNotifyTimeout) {
		bad("notify_timeout", "%v must be in (0, %v]", j.NotifyTimeout, MaxNotifyTimeout)
	}
	if j.FeedEntries < 1 || j.FeedEntries > MaxFeedEntries {
		bad("feed_entries", "%d must be in [1, %d]", j.FeedEntries, MaxFeedEntries)
	}
	if j.Keep < 0 {
		bad("keep", "%d must be >= 0 (0 keeps every run)", j.Keep)
	}
}

// MinRequestTime is the shortest max_duration accepted: a request may
// take this long (the fetcher's time-out of one attempt).
const MinRequestTime = 30 * time.Second

// validateRevisit checks the revisit policy and the budget.
func (d *decoder) validateRevisit(j *Job, bad func(field, format string, args ...any)) {
	policy, known := revisit.All, true
	if j.Revisit != "" {
		p, err := revisit.ParsePolicy(j.Revisit, false)
		if err != nil {
			bad("revisit", "%v", err)
		}
		policy, known = p, err == nil
	}
	if _, set := d.lines["max_requests"]; set && j.MaxRequests < 1 {
		bad("max_requests", "%d must be at least 1 (leave it out for no limit)", j.MaxRequests)
	}
	if _, set := d.lines["max_duration"]; set && j.MaxDuration <= 0 {
		bad("max_duration", "%v must be above 0 (leave it out for no limit)", j.MaxDuration)
	} else if set && j.MaxDuration < MinRequestTime {
		bad("max_duration", "%v is shorter than one request may take (%v): give at least %v", j.MaxDuration, MinRequestTime, MinRequestTime)
	}
	if j.NewShare != nil && !(*j.NewShare >= 0 && *j.NewShare < 1) {
		bad("new_share", "%v must be in [0,1)", *j.NewShare)
	}
	if !known {
		return // the checks below depend on the policy
	}
	if policy == revisit.All && j.MaxRequests > 0 && j.MaxRequests < j.MaxPages+1 {
		bad("max_requests", "%d cannot cover a first crawl with revisit: all (max_pages %d and robots.txt take %d): raise it, or choose a policy (revisit: dynamicity, adaptive or freshness)",
			j.MaxRequests, j.MaxPages, j.MaxPages+1)
	}
	if policy != revisit.All && j.MaxRequests == 0 && j.MaxDuration == 0 {
		bad("revisit", "%s needs a budget: set max_requests or max_duration (without one every page is revisited: revisit: all)", policy)
	}
}
