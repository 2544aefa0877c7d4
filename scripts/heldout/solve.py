#!/usr/bin/env python3
"""Rename a rebuilt history's session files so the hand labels join.

usage: solve.py LABELS.tsv NAME DIR TRACE.jsonl [--apply]
Each label row (history NAME) names (file, line, family) of a call. For each
labelled file name, score every rebuilt file of the same extension: rows whose
line holds a call (needed: all), rows whose family matches too, then closeness
of the number; assign greedily, best-determined first, and swap names.
"""
import json, sys, os, collections
labels, name, d, trace = sys.argv[1:5]
apply = '--apply' in sys.argv
want = collections.defaultdict(set)
for l in open(labels):
    if l.startswith('#') or l.startswith('history\t'): continue
    c = l.rstrip('\n').split('\t')
    if len(c) < 5 or c[0] != name: continue
    want[c[2]].add((int(c[3]), c[4]))
lines = collections.defaultdict(dict)  # rel -> line -> set(families)
for l in open(trace):
    r = json.loads(l)
    if r.get('kind') != 'call': continue
    rel = os.path.relpath(r['file'], d)
    lines[rel].setdefault(r['line'], set()).add(r.get('family', ''))
allfiles = sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs if not f.startswith('.'))
def num(p): return int(os.path.basename(p)[:4])
def score(wf, f):
    ls = lines.get(f, {})
    at = sum(1 for ln, fm in want[wf] if ln in ls)
    fam = sum(1 for ln, fm in want[wf] if fm in ls.get(ln, ()))
    return (at, fam, -abs(num(f) - num(wf)))
cands = {}
for wf in want:
    ext = os.path.splitext(wf)[1]; top = wf.split('/')[0]
    fs = [f for f in allfiles if os.path.splitext(f)[1] == ext and f.split('/')[0] == top]
    cands[wf] = sorted(((score(wf, f), f) for f in fs), reverse=True)
assign = {}; used = set(); partial = 0; missing = 0; amb = 0
# most constrained first: files with the most rows
for wf in sorted(want, key=lambda w: -len(want[w])):
    o = [(s, f) for s, f in cands[wf] if f not in used and s[0] > 0]
    if not o: continue
    s, f = o[0]
    if len(o) > 1 and o[1][0][:2] == s[:2]: amb += 1
    if s[0] < len(want[wf]):
        partial += 1; missing += len(want[wf]) - s[0]
    assign[wf] = f; used.add(f)
unsolved = [wf for wf in want if wf not in assign]
print(f'{name}: rows {sum(len(v) for v in want.values())} files {len(want)} solved {len(assign)-partial} ambiguous {amb} partial {partial} (rows missing {missing}) unsolved {len(unsolved)}')
if apply and assign:
    ren = {f: os.path.join(os.path.dirname(f), os.path.basename(wf)) for wf, f in assign.items()}
    targets = set(ren.values())
    vacated = sorted(f for f in ren if f not in targets)
    for f in allfiles:
        if f not in ren and f in targets:
            v = vacated.pop(0)
            ren[f] = os.path.join(os.path.dirname(f), os.path.basename(v)[:4] + os.path.splitext(f)[1])
    for f in ren: os.rename(os.path.join(d, f), os.path.join(d, f) + '.tmp')
    for f, t in ren.items(): os.rename(os.path.join(d, f) + '.tmp', os.path.join(d, t))
    print('  renamed', sum(1 for f, t in ren.items() if f != t))
