package repo

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"

	lessons "github.com/lessons-dev/lessons"
)

// Schema names one of the JSON Schemas embedded in lessons.Schemas.
type Schema string

// The file formats lessons reads.
const (
	LessonSchema Schema = "lesson.schema.json"
	ConfigSchema Schema = "config.schema.json"
	PackSchema   Schema = "pack.schema.json"
)

// compiled holds each schema compiled on first use: compiling costs a few
// milliseconds, which commands that never read a file should not pay.
var compiled = map[Schema]func() (*jsonschema.Schema, error){
	LessonSchema: sync.OnceValues(func() (*jsonschema.Schema, error) { return compile(LessonSchema) }),
	ConfigSchema: sync.OnceValues(func() (*jsonschema.Schema, error) { return compile(ConfigSchema) }),
	PackSchema:   sync.OnceValues(func() (*jsonschema.Schema, error) { return compile(PackSchema) }),
}

func compile(s Schema) (*jsonschema.Schema, error) {
	data, err := lessons.Schemas.ReadFile(path.Join("schemas", string(s)))
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", s, err)
	}
	c := jsonschema.NewCompiler()
	c.UseRegexpEngine(compileECMAScript)
	c.AssertFormat()
	if err := c.AddResource(string(s), doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", s, err)
	}
	return c.Compile(string(s))
}

// ecmaRegexp adapts lessons.Pattern to the validator, so the schemas'
// patterns are ECMAScript, as JSON Schema says they are.
type ecmaRegexp struct {
	p   *lessons.Pattern
	src string
}

func (re ecmaRegexp) MatchString(s string) bool {
	ok, err := re.p.MatchString(s)
	return err == nil && ok
}

func (re ecmaRegexp) String() string { return re.src }

func compileECMAScript(s string) (jsonschema.Regexp, error) {
	re, err := lessons.CompilePattern(s)
	if err != nil {
		return nil, err
	}
	return ecmaRegexp{re, s}, nil
}

// validate checks v, decoded from root, against schema s and places each
// failure in the file.
func validate(s Schema, file string, root *yaml.Node, v any) (Problems, error) {
	sch, err := compiled[s]()
	if err != nil {
		return nil, err
	}
	err = sch.Validate(v)
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return nil, err
	}
	var ps Problems
	for _, leaf := range leaves(verr, nil) {
		ps = append(ps, placeSchemaError(file, root, leaf)...)
	}
	return ps, nil
}

// leaves collects the failures at the bottom of the validator's tree: the
// ones that say what is wrong rather than which keyword failed.
func leaves(e *jsonschema.ValidationError, out []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return append(out, e)
	}
	for _, c := range e.Causes {
		out = leaves(c, out)
	}
	return out
}

// requiredWhen names, for a key the lesson schema requires only when
// another is true (its if/then), that other key.
var requiredWhen = map[string]string{"blockReason": "block"}

// placeSchemaError turns one failure into problems at the value it is
// about: an unknown key points at the key, one problem per key.
func placeSchemaError(file string, root *yaml.Node, e *jsonschema.ValidationError) Problems {
	at := locate(root, e.InstanceLocation)
	one := func(at located, msg string) *FileError {
		line, col := at.position()
		return &FileError{File: file, Line: line, Column: col, Field: at.field, Msg: msg}
	}
	atKey := func(at located, msg string) *FileError {
		line, col := at.keyPosition()
		return &FileError{File: file, Line: line, Column: col, Field: at.field, Msg: msg}
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		var ps Problems
		for _, name := range k.Properties {
			ps = append(ps, atKey(locate(root, slices.Concat(e.InstanceLocation, []string{name})), "unknown key "+quote(name)))
		}
		return ps
	case *kind.Required:
		var ps Problems
		for _, name := range k.Missing {
			p := one(at, "required key is missing")
			if cond, ok := requiredWhen[name]; ok {
				// The schema's if/then: point at the key that asks for it.
				p = atKey(locate(root, slices.Concat(e.InstanceLocation, []string{cond})), "is required when "+cond+" is true")
			}
			p.Field = joinField(at.field, name)
			ps = append(ps, p)
		}
		return ps
	case *kind.DependentRequired:
		p := atKey(locate(root, slices.Concat(e.InstanceLocation, []string{k.Prop})), fmt.Sprintf("is required when %s is set", k.Prop))
		p.Field = joinField(at.field, k.Missing[0])
		return Problems{p}
	}
	return Problems{one(at, describe(e))}
}

// describe says what is wrong with a value in a user's words.
func describe(e *jsonschema.ValidationError) string {
	switch k := e.ErrorKind.(type) {
	case *kind.MinLength:
		return fmt.Sprintf("is %d characters long, must be at least %d", k.Got, k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("is %d characters long, must be at most %d", k.Got, k.Want)
	case *kind.Pattern:
		return fmt.Sprintf("%s does not match the pattern %s", quote(k.Got), k.Want)
	case *kind.Type:
		return fmt.Sprintf("is a%s %s, must be %s", article(k.Got), k.Got, strings.Join(k.Want, " or "))
	case *kind.Format:
		return fmt.Sprintf("%s is not a valid %s: %v", quote(fmt.Sprint(k.Got)), k.Want, k.Err)
	case *kind.Minimum:
		return fmt.Sprintf("is %s, must be at least %s", number(k.Got), number(k.Want))
	case *kind.Maximum:
		return fmt.Sprintf("is %s, must be at most %s", number(k.Got), number(k.Want))
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		return fmt.Sprintf("is %s, must be one of %s", quote(fmt.Sprint(k.Got)), strings.Join(want, ", "))
	}
	// Every other kind already reads well; drop the "at '/pointer': " the
	// library puts before it, since the position says where.
	msg := (&jsonschema.ValidationError{ErrorKind: e.ErrorKind}).Error()
	return strings.TrimPrefix(msg, "at '': ")
}

// number prints a schema bound or a value checked against it as decimal.
func number(r *big.Rat) string {
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "n"
	}
	return ""
}

func quote(s string) string { return fmt.Sprintf("%q", s) }
