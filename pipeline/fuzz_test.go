package pipeline

import (
	"testing"
)

// FuzzParseConfig: any jobs.yaml is a config or an error naming the file,
// never a panic; every job of a config keeps within the limits.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(validYAML))
	f.Add([]byte("defaults:\n  user_agent: \"a (a@b)\"\njobs:\n  - name: x\n    seeds: [/wiki/A]\n    max_pages: 1\n    max_pages: 2\n"))
	f.Add([]byte("jobs: [{name: a, seeds: [/wiki/A], user_agent: \"x\\r\\n (a@b)\"}]"))
	f.Add([]byte("defaults: &d {beta: 0.5}\njobs:\n  - <<: *d\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig("jobs.yaml", data)
		if err != nil {
			return
		}
		for _, j := range cfg.Jobs {
			if !jobName.MatchString(j.Name) || j.MaxPages < 1 || j.MaxPages > Limits.MaxPages ||
				j.MaxRPS < Limits.MinRPS || j.MaxRPS > Limits.MaxRPS || len(j.Seeds) == 0 || !(j.Beta > 0 && j.Beta < 1) {
				t.Fatalf("invalid job accepted: %+v", j)
			}
		}
	})
}
