package scanner

import (
	"strings"
	"testing"

	"github.com/lessons-dev/lessons"
)

// TestErrorWithoutItsExcerpt: PowerShell quotes the line it could not
// parse, with a marker under it, before saying what is wrong. The quoted
// code is one script's words: the lesson's problem and its error trigger
// are what is wrong, which another script's failure matches too.
func TestErrorWithoutItsExcerpt(t *testing.T) {
	psError := func(excerpt string) string {
		return "At line:2 char:489\r\n+ ... " + excerpt + " } } | Format- ...\r\n+                                  ~\r\nAn empty pipe element is not allowed.\r\n" +
			"    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\r\n    + FullyQualifiedErrorId : EmptyPipeElement\r\n"
	}
	cs := scanned(t, []step{
		run("foreach ($e in $list) { [PSCustomObject]@{Name=$e;Error=$_.Exception.Message} } | Format-Table", 1, psError("Name=$e;Error=$_.Exception.Message}")),
		run("$rows = foreach ($e in $list) { [PSCustomObject]@{Name=$e;Error=$_.Exception.Message} }; $rows | Format-Table", 0, "Name Error"),
	})
	var c *Candidate
	for i := range cs {
		if cs[i].Kind == KindRetry {
			c = &cs[i]
		}
	}
	if c == nil {
		t.Fatalf("no retry: %v", summaries(cs))
	}
	if !strings.HasPrefix(c.Problem, "An empty pipe element is not allowed.") {
		t.Errorf("problem %q leads with the quoted code", c.Problem)
	}
	other := psError("Select-Object FullName,LastWriteTime")
	if len(c.Triggers.Errors) == 0 {
		t.Fatal("no error trigger")
	}
	p, err := lessons.CompilePattern(c.Triggers.Errors[0])
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := p.MatchString(other); !ok {
		t.Errorf("error trigger %q does not match the same error in another script", c.Triggers.Errors)
	}
}
