#!/usr/bin/env python3
"""List the held-out histories the label files name: set, history, repo@rev.

usage: sets.py > sets.tsv   (rev: a commit of the checkpoint branch, or
refs-… for a history read from per-checkpoint refs refs/entire/checkpoints/*)
A history with no labelled row (no repeat unit, no candidate) is not listed.
"""
import glob, os, re
L = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), 'testdata', 'labelled')
rows = set()
for f in glob.glob(os.path.join(L, 'heldout*-*.tsv')):
    s = re.sub(r'-(repeats|verdicts)\.tsv$', '', os.path.basename(f))
    for l in open(f, encoding='utf-8'):
        c = l.rstrip('\n').split('\t')
        if l.startswith('#') or len(c) < 3 or c[0] == 'history' or '/' not in c[1] or '@' not in c[1]:
            continue
        rows.add((s, c[0], c[1]))
for r in sorted(rows):
    print('\t'.join(r))
