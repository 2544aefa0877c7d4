package doctor

import (
	"fmt"

	"github.com/lessons-dev/lessons/scope"
)

// refusedOverrides reports the lessons of stores that may not block
// (packs subscribed without allowBlock) that reuse the slug or id of a
// blocking lesson: the merge refuses them and the block stays, which the
// pack's author and the subscriber should both know.
func (c *checkup) refusedOverrides(cwd string) {
	for _, o := range scope.Merge(c.dirs, cwd, c.loader).Overrides {
		if !o.Refused {
			continue
		}
		c.add(SeverityWarning, o.By.Path, 0, 0, "slug", fmt.Sprintf(
			"reuses the slug or id of the blocking %s lesson %s (%s): refused, the block stays active because %s may not block (allowBlock)",
			o.Of.Scope, o.Of.Slug, o.Of.Path, o.By.Scope),
			"give the lesson a slug and id of its own, or subscribe its pack with --allow-block if it should decide blocks; "+
				"to turn the block off yourself: lessons disable "+o.Of.Slug)
	}
}
