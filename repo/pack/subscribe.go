package pack

import (
	"fmt"
	"regexp"

	lessons "github.com/lessons-dev/lessons"
)

// Subscription is one pack a config subscribes to, with the lock file
// beside that config which pins it.
type Subscription struct {
	lessons.PackRef
	// Lock is the lessons.lock path (see LockPath).
	Lock string
}

// Scoped is one config file and what it holds.
type Scoped struct {
	Path   string // config.yaml
	Config lessons.Config
}

// Subscriptions lists the packs that configs, lowest precedence first
// (global, then project), subscribe to: a later config's pack replaces an
// earlier one of the same name, as lessons.Config.Overlay does, and the
// replaced one is reported in shadowed.
func Subscriptions(configs ...Scoped) (subs []Subscription, shadowed []string) {
	for _, sc := range configs {
		for _, p := range sc.Config.Packs {
			s := Subscription{PackRef: p, Lock: LockPath(sc.Path)}
			replaced := false
			for i := range subs {
				if subs[i].Name == p.Name {
					if subs[i].URL != p.URL || subs[i].Ref != p.Ref {
						shadowed = append(shadowed, fmt.Sprintf("pack %s of %s is replaced by the one in %s", p.Name, subs[i].Lock, s.Lock))
					}
					subs[i], replaced = s, true
				}
			}
			if !replaced {
				subs = append(subs, s)
			}
		}
	}
	return subs, shadowed
}

var packName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// CheckName reports whether name can name a pack: kebab-case, as the
// config schema says, so it is safe as a directory name.
func CheckName(name string) error {
	if !packName.MatchString(name) || len(name) > 64 {
		return fmt.Errorf("pack name %q must be kebab-case (a-z, 0-9 and single dashes), at most 64 characters", name)
	}
	return nil
}
