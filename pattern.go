package lessons

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2"
)

// PatternTimeout bounds one search by a pattern that needs backtracking
// (lookaround, backreferences). It is a wall-clock limit, so it is set
// far above what a sound pattern takes even on a machine busy with
// builds; doctor and pack validation reject patterns that come near it.
const PatternTimeout = 100 * time.Millisecond

// Pattern is a compiled trigger regex. Its syntax is ECMAScript; a
// pattern without lookaround or backreferences runs on Go's regexp, whose
// time is linear in the input whatever the pattern, and the rest on
// regexp2, a backtracking engine bounded by PatternTimeout.
type Pattern struct {
	src    string
	linear *regexp.Regexp
	// ascii: the linear form holds only for ASCII subjects (a \b, which
	// regexp2 decides with Unicode letters and Go with ASCII ones).
	ascii bool
	// back is compiled on first need; patterns are shared by goroutines.
	back     *regexp2.Regexp
	backErr  error
	backOnce sync.Once
}

// A process compiles one pattern many times over (replay recompiles the
// lessons it learns as they gather, the scanner checks each candidate's
// triggers): compiled patterns, and whether a source is valid, are kept
// by their source, up to maxCached of each. A Pattern is safe to share.
var (
	compiled, checked         sync.Map
	compiledSize, checkedSize atomic.Int32
)

const maxCached = 4096

// CompilePattern compiles a trigger regex the way the hook runs it. A
// pattern that is not valid ECMAScript fails with regexp2's error.
func CompilePattern(src string) (*Pattern, error) {
	if p, ok := compiled.Load(src); ok {
		return p.(*Pattern), nil
	}
	p, err := compilePattern(src)
	if err == nil && compiledSize.Add(1) <= maxCached {
		compiled.Store(src, p)
	}
	return p, err
}

func compilePattern(src string) (*Pattern, error) {
	if goSrc, ascii, ok := re2Source(src); ok {
		if re, err := regexp.Compile(goSrc); err == nil {
			return &Pattern{src: src, linear: re, ascii: ascii}, nil
		}
	}
	re, err := compileBacktracking(src, PatternTimeout)
	if err != nil {
		return nil, err
	}
	p := &Pattern{src: src, back: re}
	p.backOnce.Do(func() {})
	return p, nil
}

// CheckPattern reports whether src is a valid ECMAScript regex: what a
// lesson's author wrote is checked as written, whichever engine runs it.
func CheckPattern(src string) error {
	if err, ok := checked.Load(src); ok {
		e, _ := err.(error)
		return e
	}
	_, err := compileBacktracking(src, PatternTimeout)
	if checkedSize.Add(1) <= maxCached {
		checked.Store(src, err)
	}
	return err
}

func compileBacktracking(src string, limit time.Duration) (*regexp2.Regexp, error) {
	re, err := regexp2.Compile(src, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = limit
	return re, nil
}

// Linear reports whether the pattern runs in time linear in any input.
// A pattern with \b is linear on ASCII input only.
func (p *Pattern) Linear() bool { return p.linear != nil && !p.ascii }

// LinearOn reports whether MatchString(s) runs in time linear in s.
func (p *Pattern) LinearOn(s string) bool {
	return p.linear != nil && (!p.ascii || isASCII(s))
}

// MatchString reports whether the pattern finds a match in s. Only a
// search on the backtracking engine can fail, when it runs out of time.
func (p *Pattern) MatchString(s string) (bool, error) {
	return p.MatchWithin(s, PatternTimeout)
}

// MatchWithin is MatchString with the backtracking engine's time limit
// given; a limit other than PatternTimeout compiles a copy for the call,
// so a shared pattern is never changed.
func (p *Pattern) MatchWithin(s string, limit time.Duration) (bool, error) {
	if p.LinearOn(s) {
		return p.linear.MatchString(s), nil
	}
	if limit != PatternTimeout {
		re, err := compileBacktracking(p.src, limit)
		if err != nil {
			return false, err
		}
		return re.MatchString(s)
	}
	p.backOnce.Do(func() { p.back, p.backErr = compileBacktracking(p.src, PatternTimeout) })
	if p.backErr != nil {
		return false, p.backErr
	}
	return p.back.MatchString(s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// ecmaSpace is what \s means in ECMAScript (regexp2's ECMAScript mode);
// Go's \s lacks \v and the Unicode spaces.
const ecmaSpace = `\t-\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// re2Source rewrites an ECMAScript pattern in Go's regexp syntax with the
// same meaning, or reports false when it cannot: lookaround,
// backreferences, and whatever escape, flag or construct the two read
// differently. A differential test against regexp2 keeps it honest.
func re2Source(src string) (goSrc string, ascii, ok bool) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\':
			if i+1 >= len(src) {
				return "", false, false
			}
			i++
			e := src[i]
			switch {
			case strings.IndexByte("dDwWnrtfv", e) >= 0:
				b.WriteByte('\\')
				b.WriteByte(e)
			case e == 's':
				if inClass {
					b.WriteString(ecmaSpace)
				} else {
					b.WriteString("[" + ecmaSpace + "]")
				}
			case e == 'S' && !inClass:
				b.WriteString("[^" + ecmaSpace + "]")
			case (e == 'b' || e == 'B') && !inClass:
				b.WriteByte('\\')
				b.WriteByte(e)
				ascii = true
			case e == 'x' && i+2 < len(src) && isHex(src[i+1]) && isHex(src[i+2]):
				b.WriteString(`\x` + src[i+1:i+3])
				i += 2
			case e == 'u' && i+4 < len(src) && isHex(src[i+1]) && isHex(src[i+2]) && isHex(src[i+3]) && isHex(src[i+4]):
				b.WriteString(`\x{` + src[i+1:i+5] + `}`)
				i += 4
			case e < 0x80 && !isAlnum(e):
				b.WriteByte('\\')
				b.WriteByte(e)
			default:
				return "", false, false // backreferences, \c, \0, \p, \k, identity escapes of letters
			}
		case inClass:
			switch c {
			case ']':
				inClass = false
				b.WriteByte(c)
			case '[':
				b.WriteString(`\[`) // Go would read [: as a POSIX class
			default:
				b.WriteByte(c)
			}
		case c == '[':
			inClass = true
			b.WriteByte(c)
			if strings.HasPrefix(src[i+1:], "^") {
				b.WriteByte('^')
				i++
			}
			if strings.HasPrefix(src[i+1:], "]") {
				return "", false, false // [] and [^] mean never and anything in ECMAScript
			}
		case c == '(' && strings.HasPrefix(src[i+1:], "?"):
			rest := src[i+2:]
			switch {
			case strings.HasPrefix(rest, ":"), strings.HasPrefix(rest, "i)"), strings.HasPrefix(rest, "i:"):
				b.WriteString("(?")
				i++
			case strings.HasPrefix(rest, "<") && !strings.HasPrefix(rest, "<=") && !strings.HasPrefix(rest, "<!"):
				b.WriteString("(?")
				i++
			default:
				return "", false, false // lookaround, other flags
			}
		case c == '.':
			b.WriteString(`[^\n\r]`)
		case c == '$':
			b.WriteString(`\z`) // ECMAScript's $ is the end of the text
		default:
			b.WriteByte(c)
		}
	}
	if inClass {
		return "", false, false
	}
	return b.String(), ascii, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
