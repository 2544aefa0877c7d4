package scanner

import (
	"strings"
	"testing"
)

func TestWeightsWith(t *testing.T) {
	w, err := DefaultWeights().With(map[string]float64{"heuristicConfidence": 0.3, "basePriority": 4})
	if err != nil {
		t.Fatal(err)
	}
	if w.HeuristicConfidence != 0.3 || w.BasePriority != 4 || w.TagConfidence != 0.85 {
		t.Errorf("With = %+v, want two weights changed and the rest default", w)
	}
	if _, err := DefaultWeights().With(map[string]float64{"heuristicConfidense": 1}); err == nil || !strings.Contains(err.Error(), "heuristicConfidense") {
		t.Errorf("unknown weight: err = %v, want one naming it", err)
	}
}

func TestWeakRejectionEarnsNoFixBonus(t *testing.T) {
	c := &Candidate{Kind: KindRejection, Occurrences: 1, Signals: Signals{FixConfirmed: true, UserCorrection: true, Question: true}}
	DefaultWeights().Score(c)
	if c.Confidence >= 0.5 {
		t.Errorf("a question followed by a change scored %.2f, want below minConfidence 0.5", c.Confidence)
	}
}
