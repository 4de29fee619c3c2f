// Package deploy_test checks that the deployment files work as written:
// the Kubernetes objects fit together and with the image, the systemd
// units pass systemd-analyze, and the Dockerfile's build command builds.
package deploy_test

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/topicrank/topicrank/pipeline"
)

// object is a decoded Kubernetes object; get walks it by keys and
// indexes.
type object map[string]any

func get(v any, path ...any) any {
	if o, ok := v.(object); ok {
		v = map[string]any(o)
	}
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// objects decodes every document of the YAML files in deploy/kubernetes,
// by kind and name.
func objects(t *testing.T) map[string]object {
	t.Helper()
	out := map[string]object{}
	files, _ := filepath.Glob("kubernetes/*.yaml")
	for _, f := range files {
		file, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(file)
		for {
			var o map[string]any
			if err := dec.Decode(&o); err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("%s: %v", f, err)
				}
				break
			}
			kind, _ := o["kind"].(string)
			name, _ := get(o, "metadata", "name").(string)
			if kind == "Kustomization" {
				continue
			}
			if kind == "" || name == "" {
				t.Fatalf("%s: a document without kind or metadata.name", f)
			}
			out[kind+"/"+name] = o
		}
		file.Close()
	}
	return out
}

// imageUID is the user the Dockerfile's image runs as.
func imageUID(t *testing.T) int {
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^USER (\d+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("the Dockerfile sets no numeric USER")
	}
	n := 0
	for _, c := range m[1] {
		n = n*10 + int(c-'0')
	}
	return n
}

func TestKubernetes(t *testing.T) {
	objs := objects(t)
	cm := objs["ConfigMap/topicrank-jobs"]
	if cm == nil {
		t.Fatal("no ConfigMap topicrank-jobs")
	}
	cfg, err := pipeline.ParseConfig("configmap.yaml:jobs.yaml", []byte(get(cm, "data", "jobs.yaml").(string)))
	if err != nil {
		t.Fatalf("the ConfigMap's jobs.yaml: %v", err)
	}
	uid := imageUID(t)
	cronjobs := 0
	hosts := map[string]string{} // host -> the CronJob crawling it
	for name, o := range objs {
		if !strings.HasPrefix(name, "CronJob/") {
			continue
		}
		cronjobs++
		pod := get(o, "spec", "jobTemplate", "spec", "template", "spec")
		c := get(pod, "containers", 0)
		args := toStrings(get(c, "args"))
		flag := func(f string) string {
			if i := slices.Index(args, f); i >= 0 && i+1 < len(args) {
				return args[i+1]
			}
			return ""
		}
		// Every job it runs is of one host, on its schedule, and no other
		// CronJob crawls that host: one process per host keeps the host's
		// politeness budget whole.
		var jobs []pipeline.Job
		for i := range args {
			if args[i] == "-job" && i+1 < len(args) {
				j, ok := cfg.Job(args[i+1])
				if !ok {
					t.Errorf("%s: -job %s is not in the ConfigMap", name, args[i+1])
					continue
				}
				jobs = append(jobs, j)
			}
		}
		for _, j := range jobs {
			u, _ := url.Parse(j.BaseURL)
			if other, ok := hosts[u.Host]; ok && other != name {
				t.Errorf("%s and %s both crawl %s: run a host's jobs in one CronJob", name, other, u.Host)
			}
			hosts[u.Host] = name
			if get(o, "spec", "schedule") != j.Schedule || get(o, "spec", "timeZone") != j.Timezone {
				t.Errorf("%s: schedule %v %v, job %s's is %q %s", name, get(o, "spec", "schedule"), get(o, "spec", "timeZone"), j.Name, j.Schedule, j.Timezone)
			}
		}
		var job pipeline.Job
		ok := len(jobs) > 0
		if ok {
			job = jobs[0]
		}
		switch {
		case get(o, "spec", "concurrencyPolicy") != "Forbid":
			t.Errorf("%s: concurrencyPolicy %v, want Forbid", name, get(o, "spec", "concurrencyPolicy"))
		case args[0] != "run" || !ok:
			t.Errorf("%s: args %v: want run -job of a job in the ConfigMap", name, args)
		case get(pod, "securityContext", "runAsUser") != uid || get(pod, "securityContext", "fsGroup") != uid:
			t.Errorf("%s: runAsUser %v, fsGroup %v; the image's user is %d", name, get(pod, "securityContext", "runAsUser"), get(pod, "securityContext", "fsGroup"), uid)
		case get(c, "securityContext", "readOnlyRootFilesystem") != true || get(c, "securityContext", "allowPrivilegeEscalation") != false:
			t.Errorf("%s: the container may write its root or escalate", name)
		}
		if g, _ := get(pod, "terminationGracePeriodSeconds").(int); g < 60 {
			t.Errorf("%s: terminationGracePeriodSeconds %d: a stopped run needs time to publish", name, g)
		}
		mounts := mountsOf(t, objs, pod, c)
		for _, want := range []struct{ path, kind string }{
			{filepath.Dir(flag("-config")), "configMap:topicrank-jobs"},
			{flag("-out"), "pvc:ReadWriteMany"},
			{job.StateDir, "pvc:ReadWriteOnce"}, // SQLite: never on shared storage
			{"/tmp", "emptyDir"},
		} {
			if mounts[want.path] != want.kind {
				t.Errorf("%s: %s is mounted from %q, want %s", name, want.path, mounts[want.path], want.kind)
			}
		}
	}
	if cronjobs == 0 {
		t.Error("no CronJob")
	}
}

// mountsOf maps each mount path of container c to what backs it:
// "configMap:NAME", "pvc:ACCESSMODE" (the claim must exist) or "emptyDir".
func mountsOf(t *testing.T, objs map[string]object, pod, c any) map[string]string {
	volumes := map[string]string{}
	for i := 0; get(pod, "volumes", i) != nil; i++ {
		v := get(pod, "volumes", i)
		name := get(v, "name").(string)
		switch {
		case get(v, "configMap") != nil:
			cm := get(v, "configMap", "name").(string)
			if objs["ConfigMap/"+cm] == nil {
				t.Errorf("volume %s: no ConfigMap %s", name, cm)
			}
			volumes[name] = "configMap:" + cm
		case get(v, "persistentVolumeClaim") != nil:
			claim := objs["PersistentVolumeClaim/"+get(v, "persistentVolumeClaim", "claimName").(string)]
			if claim == nil {
				t.Errorf("volume %s: no such claim", name)
				continue
			}
			volumes[name] = "pvc:" + toStrings(get(claim, "spec", "accessModes"))[0]
		case get(v, "emptyDir") != nil:
			volumes[name] = "emptyDir"
		}
	}
	mounts := map[string]string{}
	for i := 0; get(c, "volumeMounts", i) != nil; i++ {
		m := get(c, "volumeMounts", i)
		mounts[get(m, "mountPath").(string)] = volumes[get(m, "name").(string)]
	}
	return mounts
}

func toStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
