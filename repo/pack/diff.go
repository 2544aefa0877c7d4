package pack

import (
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
)

// Diff is what an update changes in a pack, by lesson slug.
type Diff struct {
	Added   []string `json:"added"`
	Changed []string `json:"changed"`
	Removed []string `json:"removed"`
}

// Empty reports whether nothing changed.
func (d Diff) Empty() bool { return len(d.Added)+len(d.Changed)+len(d.Removed) == 0 }

// diffSlugs compares two versions given as slug → content identity.
func diffSlugs[T comparable](old, cur map[string]T) Diff {
	d := Diff{Added: []string{}, Changed: []string{}, Removed: []string{}}
	for slug, v := range cur {
		if o, ok := old[slug]; !ok {
			d.Added = append(d.Added, slug)
		} else if o != v {
			d.Changed = append(d.Changed, slug)
		}
	}
	for slug := range old {
		if _, ok := cur[slug]; !ok {
			d.Removed = append(d.Removed, slug)
		}
	}
	slices.Sort(d.Added)
	slices.Sort(d.Changed)
	slices.Sort(d.Removed)
	return d
}

// lessonBlobs maps the slug of each lesson file of commit h to its blob,
// without checking anything: enough to say what an update changes. A
// commit the clone lacks yields no lessons.
func (c *clone) lessonBlobs(h plumbing.Hash) map[string]plumbing.Hash {
	out := map[string]plumbing.Hash{}
	cm, err := c.repo.CommitObject(h)
	if err != nil {
		return out
	}
	tree, err := cm.Tree()
	if err != nil {
		return out
	}
	dir, err := tree.Tree(LessonsDir)
	if err != nil {
		return out
	}
	for _, e := range dir.Entries {
		if e.Mode.IsFile() && isLessonName(e.Name) {
			out[slugOf(e.Name)] = e.Hash
		}
	}
	return out
}
