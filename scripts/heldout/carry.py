#!/usr/bin/env python3
"""Carry verdicts to candidates whose id changed only because a trigger's regex text changed
form: at f96bf97 (round 18) headPattern began to take a quoted program path, and every
lesson with a command trigger got a new id (ids hash the trigger text). Same lesson = same set, history,
kind, tool, summary, solution and sessions, and triggers equal once the new head form is
written in the old one. Prints TSV rows (no text): history set new_id kind verdict why (naming the old id).
usage: carry.py OLD NEW [pool]   (OLD/NEW: eval.sh dirs of SET/NAME.cands.json, or pool dirs SET/NAME.json)"""
import sys, os, json, glob, re
OLD, NEW = sys.argv[1], sys.argv[2]; pool = len(sys.argv) > 3
L = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), 'testdata', 'labelled')
verd = {}  # id, and (history, id) where a file names the history: one id may be kept in one history, noise in another
def order(f):  # a set's own labels first, then relabels, later rounds last: the latest verdict wins
    m = re.match(r'round(\d+)', os.path.basename(f))
    return (1, int(m.group(1)), f) if m else (0, 0, f)
for f in sorted(glob.glob(L + '/v*-kept-labels.tsv') + glob.glob(L + '/*verdicts*.tsv'), key=order):
    for l in open(f):
        if l.startswith('#'): continue
        c = l.rstrip('\n').split('\t')
        for x in c[:4]:
            if len(x) == 12 and all(ch in '0123456789abcdef' for ch in x) and ('keep' in c or 'noise' in c):
                v = 'keep' if 'keep' in c else 'noise'
                verd[x] = v; verd[(c[0], x)] = v
NEWPRE = """(?:['"](?:[^'"]*/)?|[^\\s;&|()'"]*/)?"""
OLDPRE = """(?:[^\\s;&|()'"]*/)?"""
END = """(?=$|[\\s;&|)])"""
form = re.compile(re.escape(NEWPRE) + r'(.*?)' + re.escape("""['"]?""" + END))
def old_form(s): return form.sub(lambda m: OLDPRE + m.group(1) + END, s)
def key(c, conv):
    t = json.loads(json.dumps(c.get('triggers') or {}))
    for k, v in t.items():
        if isinstance(v, list): t[k] = [conv(x) if isinstance(x, str) else x for x in v]
    return (c.get('kind'), c.get('tool'), c.get('summary'), c.get('solution'), tuple(sorted(c.get('sessions') or [])), json.dumps(t, sort_keys=True))
suffix = '.json' if pool else '.cands.json'
for f in sorted(glob.glob(NEW + '/*/*' + suffix)):
    s = f.split('/')[-2]; n = os.path.basename(f)[:-len(suffix)]
    of = os.path.join(OLD, s, n + suffix)
    if not os.path.exists(of): continue
    vd = lambda i: verd.get((n, i), verd[i])
    try: old = [c for c in (json.load(open(of)) or []) if c['id'] in verd]
    except Exception: continue
    for c in (json.load(open(f)) or []):
        if (c.get('confidence') or 0) < 0.5 or c['id'] in verd or c.get('status', 'new') != 'new': continue
        m = [o for o in old if key(o, lambda x: x) == key(c, old_form)]
        if len(m) == 1:
            o = m[0]
            print(f"{n}\t{s}\t{c['id']}\t{c.get('kind')}\t{vd(o['id'])}\tcarried from {o['id']}: the same lesson, its command trigger now also takes a quoted program path")
        else:
            print(f"{s}\t{n}\t{c['id']}\t-\t{len(m)} matches", file=sys.stderr)
