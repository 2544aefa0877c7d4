#!/usr/bin/env python3
"""After-fire figures of OUT (from eval.sh), over the sets named:

  - learned fires after failures per 100 calls: failed calls a learned
    lesson came after (a fire at "after" of a learned- lesson) ÷ calls × 100;
  - after-fire precision: of the labelled failed calls a learned lesson
    came after, those labelled catchable.

usage: afterfire.py OUT SET..."""
import sys, os, json, glob
OUT = sys.argv[1]
calls = fired = labelled = catchable = 0
for s in sys.argv[2:]:
    od = os.path.join(OUT, s)
    labs = {}
    for l in open(os.path.join(od, 'labels.tsv')):
        c = l.rstrip('\n').split('\t')
        if l.startswith('#') or c[0] == 'history' or len(c) < 7:
            continue
        labs[(c[0], os.path.basename(c[2]), int(c[3]))] = c[5]
    for t in glob.glob(os.path.join(od, '*.trace')):
        n = os.path.basename(t)[:-6]
        for l in open(t):
            r = json.loads(l)
            if r['kind'] != 'call' or r.get('copy'):
                continue  # a call copied from an earlier log is no call of its session
            calls += 1
            if r.get('outcome') != 'failed' or not any(
                    f.get('at') == 'after' and f['slug'].startswith('learned-') for f in r.get('fired') or []):
                continue
            fired += 1
            v = labs.get((n, os.path.basename(r['file']), r['line']))
            if v:
                labelled += 1
                catchable += v == 'catchable'
print(f'learned fires after failures {fired} ({fired * 100 / max(calls, 1):.2f} per 100 calls); '
      f'after-fire precision {catchable} of {labelled} ({catchable * 100 / max(labelled, 1):.0f}%)')
