package pack

import (
	"errors"
	"fmt"
	"path"
	"runtime"
	"slices"
	"sort"
	"sync"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/repo"
)

// Check validates every lesson file of a pack version, files mapping
// "lessons/<slug>.yaml" to content: the schema and semantic checks of
// repo.ParseLesson, no control characters in any text (they could drive
// the terminal that lists the lesson), the backtracking probe on every
// regex, a slug equal to the file name, and ids used once. It returns every problem, each naming
// its file (and line where there is one), sorted.
func Check(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	parsed := make([]*lessons.Lesson, len(names))
	problems := make([][]string, len(names))
	var probes sync.Map // pattern → error, shared by the workers
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range work {
				parsed[i], problems[i] = checkFile(names[i], files[names[i]], &probes)
			}
		})
	}
	for i := range names {
		work <- i
	}
	close(work)
	wg.Wait()
	var out []string
	for _, ps := range problems {
		out = append(out, ps...)
	}
	ids := map[string]string{}
	for i, l := range parsed {
		if l == nil || l.ID == "" {
			continue
		}
		if first, ok := ids[l.ID]; ok {
			out = append(out, fmt.Sprintf("%s: id %s is also the id of %s", names[i], l.ID, first))
			continue
		}
		ids[l.ID] = names[i]
	}
	slices.Sort(out)
	return out
}

func checkFile(name string, data []byte, probes *sync.Map) (*lessons.Lesson, []string) {
	l, err := repo.ParseLesson(name, data)
	if err != nil {
		var ps repo.Problems
		if errors.As(err, &ps) {
			out := make([]string, len(ps))
			for i, p := range ps {
				out[i] = p.Error()
			}
			return nil, out
		}
		return nil, []string{name + ": " + err.Error()}
	}
	var out []string
	for _, p := range lessons.ControlProblems(l) {
		out = append(out, name+": "+p.Error())
	}
	if slug := slugOf(path.Base(name)); l.Slug != slug {
		out = append(out, fmt.Sprintf("%s: slug %q differs from the file name: name the file %s.yaml", name, l.Slug, l.Slug))
	}
	for kind, list := range map[string][]string{
		"commands": l.Triggers.Commands, "unless": l.Triggers.Unless, "content": l.Triggers.Content,
	} {
		for i, src := range list {
			res, ok := probes.Load(src)
			if !ok {
				res, _ = probes.LoadOrStore(src, probeResult{lessons.ProbeBacktracking(src)})
			}
			if err := res.(probeResult).err; err != nil {
				out = append(out, fmt.Sprintf("%s: triggers.%s[%d]: %v", name, kind, i, err))
			}
		}
	}
	return l, out
}

// probeResult boxes a probe's error so a nil error can be cached.
type probeResult struct{ err error }
