package lessons

import (
	"fmt"
	"strings"
)

// MaxBraceAlternatives caps what one path glob's braces may expand to:
// thirty {a,b} groups in 300 bytes would otherwise be 2^30 globs.
const MaxBraceAlternatives = 64

// ExpandBraces turns "*.{js,ts}" into "*.js" and "*.ts"; nested and
// repeated groups expand too, and unbalanced braces stay literal. It
// fails, having done at most about MaxBraceAlternatives expansions, when
// the glob stands for more globs than that.
func ExpandBraces(glob string) ([]string, error) {
	out, ok := expandBraces(glob, nil)
	if !ok {
		return nil, fmt.Errorf("braces expand to more than %d globs", MaxBraceAlternatives)
	}
	return out, nil
}

func expandBraces(glob string, out []string) ([]string, bool) {
	open := strings.IndexByte(glob, '{')
	if open < 0 {
		return appendGlob(out, glob)
	}
	depth, start := 0, open+1
	var alts []string
	for i := open; i < len(glob); i++ {
		switch glob[i] {
		case '{':
			depth++
		case ',':
			if depth == 1 {
				alts = append(alts, glob[start:i])
				start = i + 1
			}
		case '}':
			depth--
			if depth == 0 {
				alts = append(alts, glob[start:i])
				for _, a := range alts {
					var ok bool
					if out, ok = expandBraces(glob[:open]+a+glob[i+1:], out); !ok {
						return out, false
					}
				}
				return out, true
			}
		}
	}
	return appendGlob(out, glob) // unbalanced: kept literally
}

func appendGlob(out []string, glob string) ([]string, bool) {
	if len(out) == MaxBraceAlternatives {
		return out, false
	}
	return append(out, glob), true
}
