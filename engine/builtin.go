package engine

import (
	"cmp"
	"fmt"
	"slices"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

//go:generate go run ./internal/genbuiltin -o builtin_gen.go

// The built-in lessons that block (deny or ask) are compiled into the
// hook binary as a manifest (builtinBlocks, in builtin_gen.go, which go
// generate writes from lessons.d). The hook answers from it when the
// project's manifest cannot be had or trusted: missing with no
// lessons-cli to build it, locked by a rebuild that never finished,
// torn, rewritten under the hook, or when the payload is too large to
// parse. A refusal of `rm -rf ~` then never depends on a file the agent
// can create or a state it can leave behind.

// EncodeBuiltinBlocks compiles the blocking lessons among the built-in
// store's into a manifest and returns its bytes: what go generate
// writes into builtin_gen.go, and what its freshness test compares.
func EncodeBuiltinBlocks(builtin []scope.Resolved) ([]byte, error) {
	var blocks []scope.Resolved
	for _, r := range builtin {
		if r.Block && r.AllowBlock {
			blocks = append(blocks, r)
		}
	}
	slices.SortFunc(blocks, func(a, b scope.Resolved) int { return cmp.Compare(a.Slug, b.Slug) })
	man, err := Compile(scope.Merged{Config: lessons.DefaultConfig(), Active: blocks}, scope.Stamp{})
	if err != nil {
		return nil, err
	}
	if w := man.Warnings(); len(w) > 0 {
		return nil, fmt.Errorf("built-in blocks left out: %v", w)
	}
	return man.data, nil
}

// builtinManifest decodes the embedded built-in blocks.
func builtinManifest() (*Manifest, error) {
	return decodeManifest([]byte(builtinBlocks))
}

// builtinMatch matches the payload's call against the built-in blocks,
// once: the blocks that match, none for an event that is not before a
// call.
func (r *run) builtinMatch() ([]Candidate, Call) {
	if r.builtinTried {
		return r.builtinCands, r.builtinCall
	}
	r.builtinTried = true
	if !r.beforeCall() {
		return nil, Call{}
	}
	defer func() {
		if v := recover(); v != nil {
			r.note("built-in blocks: panic: %v", v)
			r.builtinCands = nil
		}
	}()
	if r.call == nil { // the payload is decoded once: it may be large
		call, err := r.p.Call()
		if err != nil {
			return nil, Call{}
		}
		r.call = &call
	}
	call := *r.call
	r.builtinCands, r.builtinCall = r.builtinBlocks(call), call
	return r.builtinCands, call
}

// builtinAnswer is the built-in blocks' refusal of the payload's call,
// false when none refuses it: the hook's answer whenever the project's
// manifest fails it.
func (r *run) builtinAnswer() (any, bool) {
	blocks, call := r.builtinMatch()
	switch {
	case len(blocks) == 0:
		return nil, false
	case r.p.HookEventName == skillShellEvent:
		return r.skillShellBlock(blocks, call), true
	}
	return r.block(blocks, call), true
}

// beforeCall reports whether the payload asks whether a call may run:
// the events a block answers.
func (r *run) beforeCall() bool {
	return r.pf != nil && (r.pf.Event(cmp.Or(r.p.HookEventName, r.h.Event)) == "PreToolUse" || r.p.HookEventName == skillShellEvent)
}

// builtinDenies reports whether a built-in block denies the call: the
// manifest could not make that stronger, so the call need not wait for
// it.
func (r *run) builtinDenies() bool {
	blocks, _ := r.builtinMatch()
	return slices.ContainsFunc(blocks, func(c Candidate) bool { return c.Decision == lessons.DecisionDeny })
}

// builtinBlocks are the built-in blocks that match call.
func (r *run) builtinBlocks(call Call) []Candidate {
	m, err := builtinManifest()
	if err != nil {
		r.note("built-in blocks: %v", err) // a stale go generate; the test catches it
		return nil
	}
	var mt Matcher
	hits, err := mt.Match(m, call)
	if err != nil {
		r.note("built-in blocks: %v", err)
	}
	var blocks []Candidate
	for _, hit := range hits {
		e, err := m.Entry(hit.Index)
		if err == nil && e.Block {
			blocks = append(blocks, Candidate{Entry: e, Trigger: hit.Kinds})
		}
	}
	return blocks
}
