package lessons

import "strings"

// NearDuplicateThreshold is the word overlap from which two lessons say the
// same thing.
const NearDuplicateThreshold = 0.5

// Similarity is the Jaccard index of the words of two lessons' problem and
// solution: 1 for the same words, 0 for none in common.
func Similarity(a, b *Lesson) float64 {
	wa, wb := words(a.Problem+" "+a.Solution), words(b.Problem+" "+b.Solution)
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	common := 0
	for w := range wa {
		if wb[w] {
			common++
		}
	}
	return float64(common) / float64(len(wa)+len(wb)-common)
}

func words(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) {
		if len(w) > 2 {
			set[w] = true
		}
	}
	return set
}
