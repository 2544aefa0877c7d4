#!/usr/bin/env python3
"""Rebuild one held-out history from a repository's Entire checkpoints.

usage: build.py GITDIR SOURCE OUTDIR NAME
SOURCE: a commit/branch (the checkpoint branch layout XX/YYYYYYYYYY/N/) or 'refs'
(per-checkpoint refs refs/entire/checkpoints/*, layout N/).
Writes per session (largest available transcript per session id) in the layout the
scanner reads: .claude/projects/-repo-NAME/NNNN.jsonl, codex/NNNN.jsonl,
gemini/NNNN.json[l], opencode/NNNN.json; numbered by first timestamp. Prints
a map file OUTDIR/.map.tsv: number, agent, session id, source dir, first ts.
"""
import json, subprocess, sys, os, collections, re

def main():
    git, source, out, name = sys.argv[1:5]
    def sh(*args):
        # git reads the snapshot only: no work tree, no hooks, no network
        return subprocess.run(['git', '--git-dir', git] + list(args), capture_output=True).stdout
    trees = [source]
    if source == 'refs':
        trees = sh('for-each-ref', '--format=%(refname)', 'refs/entire/checkpoints').decode().split()
    cands = collections.defaultdict(list)
    for t in trees:
        listing = sh('ls-tree', '-r', '-l', t).decode('utf-8', 'replace').splitlines()
        size = {}; metas = []
        for l in listing:
            _, _, h, sz, path = l.split(None, 4)
            d, base = (path.rsplit('/', 1) + [''])[:2] if '/' in path else ('', path)
            if base == 'full.jsonl':
                size[d] = (int(sz) if sz.isdigit() else -1, h)
            if base == 'metadata.json' and re.search(r'(^|/)\d+$', d):
                metas.append((d, h))
        for d, h in metas:
            try:
                m = json.loads(sh('cat-file', 'blob', h))
            except Exception:
                continue
            sz, bh = size.get(d, (-1, None))
            if sz < 0:
                continue
            cands[m.get('session_id') or d].append((sz, m.get('created_at') or '', bh, m.get('agent') or '', t + ':' + d))
    sessions = []
    for sid, L in cands.items():
        _, _, bh, agent, src = max(L, key=lambda x: (x[0], x[1]))  # the largest, then the latest
        data = sh('cat-file', 'blob', bh)
        key = firstts(data) or min(x[1] for x in L)
        sessions.append((key, sid, agent, src, data))
    sessions.sort(key=lambda s: (s[0], s[1]))
    os.makedirs(out, exist_ok=True)
    mp = []
    for i, (key, sid, agent, src, data) in enumerate(sessions):
        rel = layout(agent, name, i, data)
        p = os.path.join(out, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'wb') as f:
            f.write(data)
        mp.append('\t'.join([rel, agent, sid, src, key]))
    with open(os.path.join(out, '.map.tsv'), 'w') as f:
        f.write('\n'.join(mp) + '\n')
    print(name, len(sessions), 'sessions', collections.Counter(s[2] for s in sessions))

def firstts(data):
    s = data.lstrip()
    if s[:1] == b'{' and b'\n' not in s.strip()[:200000] or s[:1] == b'[':
        try:
            d = json.loads(s)
            for k in ('startTime', 'timestamp', 'created'):
                if isinstance(d, dict) and d.get(k):
                    return str(d[k])
            if isinstance(d, dict) and isinstance(d.get('info'), dict):
                t = d['info'].get('time', {}).get('created')
                if t: return str(t)
        except Exception:
            pass
    for l in data.splitlines()[:200]:
        try:
            r = json.loads(l)
        except Exception:
            continue
        if isinstance(r, dict):
            for k in ('timestamp', 'startTime'):
                if r.get(k):
                    return str(r[k])
    return ''

def layout(agent, name, i, data):
    a = agent.lower()
    if 'codex' in a:
        return 'codex/%04d.jsonl' % i
    if 'gemini' in a or 'antigravity' in a:
        s = data.lstrip()
        one = s[:1] == b'{' and s.count(b'\n{') == 0
        return 'gemini/%04d.%s' % (i, 'json' if one else 'jsonl')
    if 'opencode' in a:
        return 'opencode/%04d.json' % i
    return '.claude/projects/-repo-%s/%04d.jsonl' % (name, i)

main()
