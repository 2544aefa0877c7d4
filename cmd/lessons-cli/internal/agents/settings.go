package agents

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// emptySettings is a settings file that did not exist.
var emptySettings = []byte("{}\n")

// AddHooks returns the settings file src with lessons' entry for every
// event of a, running the lessons binary at bin. Entries already there
// stay; an entry of lessons' that differs (another binary, another
// timeout) is replaced. Everything else keeps its bytes.
func (a *Agent) AddHooks(src []byte, bin string) ([]byte, error) {
	if a.HookName != "" {
		return a.addNamed(src, bin)
	}
	if len(bytes.TrimSpace(src)) == 0 {
		src = emptySettings
	}
	for _, ev := range a.Events {
		want := a.group(ev, bin)
		for {
			d, err := load(src)
			if err != nil {
				return nil, err
			}
			arr, grown, err := d.eventList(ev.Name)
			switch {
			case err != nil:
				return nil, err
			case grown != nil:
				src = grown
				continue
			}
			g, h := findOurs(arr)
			switch {
			case g < 0:
				src = appendElem(src, d.style, arr, want)
			case !sameJSON(src, arr.elems[g], want):
				src = removeOurs(src, arr, g, h)
				continue
			}
			break
		}
	}
	return src, nil
}

// RemoveHooks returns src without any entry that runs `lessons hook` in
// the events of a, and without the lists and the hooks object that
// removing them left empty, unless the file before lessons touched it
// (its backup, nil when there is none) had them. It reports whether it
// removed anything.
func (a *Agent) RemoveHooks(src, backup []byte) ([]byte, bool, error) {
	if a.HookName != "" {
		return a.removeNamed(src)
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return src, false, nil
	}
	var had *value
	if d, err := load(backup); err == nil {
		had = d.root
	}
	removed := false
	for _, ev := range a.Events {
		touched := false
		for {
			d, err := load(src)
			if err != nil {
				return nil, false, err
			}
			hooks := d.root.get("hooks")
			arr := hooks.get(ev.Name)
			if arr == nil || arr.kind != '[' {
				break
			}
			if g, h := findOurs(arr); g >= 0 {
				src, touched = removeOurs(src, arr, g, h), true
				continue
			}
			if touched && len(arr.elems) == 0 && had.get("hooks").get(ev.Name) == nil {
				src = removeMember(src, hooks, ev.Name)
			}
			break
		}
		removed = removed || touched
	}
	if !removed {
		return src, false, nil
	}
	d, err := load(src)
	if err != nil {
		return nil, false, err
	}
	if hooks := d.root.get("hooks"); hooks != nil && hooks.kind == '{' && len(hooks.members) == 0 && had.get("hooks") == nil {
		src = removeMember(src, d.root, "hooks")
	}
	return src, true, nil
}

// Installed reports which of a's events have lessons' entry in src, and
// the commands those entries run.
func (a *Agent) Installed(src []byte) (events, commands []string, err error) {
	if a.HookName != "" {
		return a.installedNamed(src)
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, nil, nil
	}
	d, err := load(src)
	if err != nil {
		return nil, nil, err
	}
	for _, ev := range a.Events {
		arr := d.root.get("hooks").get(ev.Name)
		if arr == nil || arr.kind != '[' {
			continue
		}
		if g, h := findOurs(arr); g >= 0 {
			events = append(events, ev.Name)
			commands = append(commands, arr.elems[g].get("hooks").elems[h].get("command").str)
		}
	}
	return events, commands, nil
}

// document is a parsed settings file.
type document struct {
	src   []byte
	root  *value
	style style
}

func load(src []byte) (document, error) {
	root, err := parseJSON(src)
	if err != nil {
		return document{}, err
	}
	if root.kind != '{' {
		return document{}, errors.New("the file is not a JSON object")
	}
	return document{src: src, root: root, style: styleOf(src, root)}, nil
}

// eventList finds the list of hook entries for event. When the list or
// the hooks object is missing, it returns the source with it added
// instead, to be parsed again.
func (d document) eventList(event string) (arr *value, grown []byte, err error) {
	hooks := d.root.get("hooks")
	switch {
	case hooks == nil:
		return nil, appendMember(d.src, d.style, d.root, "hooks", struct{}{}), nil
	case hooks.kind != '{':
		return nil, nil, errors.New(`"hooks" is not an object`)
	}
	arr = hooks.get(event)
	switch {
	case arr == nil:
		return nil, appendMember(d.src, d.style, hooks, event, []any{}), nil
	case arr.kind != '[':
		return nil, nil, fmt.Errorf(`"hooks.%s" is not a list`, event)
	}
	return arr, nil, nil
}

// findOurs finds the first hook running `lessons hook` in an event's
// list: the index of its entry and its index in the entry's hooks, or
// -1, -1.
func findOurs(arr *value) (group, hook int) {
	for g, e := range arr.elems {
		hooks := e.get("hooks")
		if hooks == nil || hooks.kind != '[' {
			continue
		}
		for h, c := range hooks.elems {
			if cmd := c.get("command"); cmd != nil && cmd.kind == '"' && isOurs(cmd.str) {
				return g, h
			}
		}
	}
	return -1, -1
}

// removeOurs removes hook h of entry g, or the whole entry when that hook
// is its only one.
func removeOurs(src []byte, arr *value, g, h int) []byte {
	hooks := arr.elems[g].get("hooks")
	if len(hooks.elems) == 1 {
		return removeItem(src, arr, elemSpans(arr), g)
	}
	return removeItem(src, hooks, elemSpans(hooks), h)
}

// removeMember removes key from obj.
func removeMember(src []byte, obj *value, key string) []byte {
	for i, m := range obj.members {
		if m.key == key {
			return removeItem(src, obj, memberSpans(obj), i)
		}
	}
	return src
}

// sameJSON reports whether the value v in src means the same as want.
func sameJSON(src []byte, v *value, want any) bool {
	var got, exp any
	if err := json.Unmarshal(stripComments(src[v.start:v.end]), &got); err != nil {
		return false
	}
	b, _ := json.Marshal(want)
	_ = json.Unmarshal(b, &exp)
	return reflect.DeepEqual(got, exp)
}

// stripComments blanks the comments of a JSON text out.
func stripComments(src []byte) []byte {
	out := bytes.Clone(src)
	p := &parser{src: out}
	for p.pos < len(out) {
		switch out[p.pos] {
		case '"':
			_, _ = p.string()
			continue
		case '/':
			start := p.pos
			if p.space() == nil && p.pos > start {
				for i := start; i < p.pos; i++ {
					if out[i] != '\n' {
						out[i] = ' '
					}
				}
				continue
			}
		}
		p.pos++
	}
	return out
}
