#!/usr/bin/env python3
"""Score OUT (from eval.sh): per set, recall through scripts/labelscore on the
labels that join a call of the rebuilt histories (the count left out is
printed), and the kept rate: candidates listed for review (status new) at
or above 0.5 whose (history, id) a verdict file labels keep (the latest
label wins; files whose rows name no history label by id), over all such candidates
(unlabelled ones count as not kept).

usage: score.py OUT SET...   (run from anywhere; it finds the repo by itself)"""
import sys, os, re, json, subprocess, glob, collections
OUT = sys.argv[1]; sets = sys.argv[2:]
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
L = os.path.join(REPO, 'testdata', 'labelled')
def order(f):  # a set's own labels first, then relabels, later rounds last: the latest verdict wins
    m = re.match(r'round(\d+)', os.path.basename(f))
    return (1, int(m.group(1)), f) if m else (0, 0, f)
verd = {}  # by (history, id), and by id for the files whose rows name no history
for f in sorted(glob.glob(L + '/*verdicts*.tsv'), key=order):
    for l in open(f):
        if l.startswith('#'): continue
        c = l.rstrip('\n').split('\t')
        for x in c[1:4]:
            if len(x) == 12 and all(ch in '0123456789abcdef' for ch in x) and ('keep' in c or 'noise' in c):
                v = 'keep' if 'keep' in c else 'noise'
                verd[x] = v; verd[(c[0], x)] = v
res = {}
for s in sets:
    od = os.path.join(OUT, s)
    names = sorted(f[:-6] for f in os.listdir(od) if f.endswith('.trace'))
    # labels that join
    failed = collections.defaultdict(set)
    for n in names:
        for l in open(os.path.join(od, n + '.trace')):
            r = json.loads(l)
            if r.get('kind') == 'call':
                failed[n].add((os.path.basename(r['file']), r['line'], r['family']))
    lab = os.path.join(L, s + '-repeats.tsv'); keep = []; drop = 0; total = 0
    for l in open(lab):
        c = l.rstrip('\n').split('\t')
        if l.startswith('#') or c[0] == 'history' or len(c) < 6:
            keep.append(l); continue
        if c[0] not in names:
            continue
        total += 1
        if any(b == os.path.basename(c[2]) and ln == int(c[3]) and True for b, ln, f in failed[c[0]]):
            keep.append(l)
        else:
            drop += 1
    fl = os.path.join(od, 'labels.tsv'); open(fl, 'w').writelines(keep)
    args = ['go', 'run', './scripts/labelscore', '-labels', fl] + sum([['-history', f'{n}={od}/{n}.trace'] for n in names], [])
    p = subprocess.run(args, cwd=REPO, capture_output=True, text=True)
    tot = [l for l in p.stdout.splitlines() if l.startswith('total')]
    if p.returncode != 0:
        print(s, 'labelscore error', p.stderr.strip()[:300]); continue
    t = tot[0].split()
    kept = noise = unl = 0
    for n in names:
        try: cs = json.load(open(os.path.join(od, n + '.cands.json')))
        except Exception: cs = []
        for c in cs:
            if (c.get('confidence') or 0) < 0.5 or c.get('status') not in (None, 'new'):
                continue  # folded into another, or a duplicate of an active lesson: never listed for review
            v = verd.get((n, c['id']), verd.get(c['id']))
            if v == 'keep': kept += 1
            elif v == 'noise': noise += 1
            else: unl += 1
    print(f'{s:10s} recall {t[3]}/{t[2]} ({t[4]}) calls {t[5]} learned-fine/100 {t[6]} builtin/100 {t[7]} missed {t[8]} | kept {kept}/{kept+noise+unl} (unlabelled {unl}) | labels dropped {drop}/{total}')
