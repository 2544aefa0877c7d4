#!/usr/bin/env python3
"""Rebuild the blind sets' histories (testdata/labelled/v36..v48) from the
repositories their sessions were committed to.

usage: build.py SOURCES.tsv MIRROR OUT [SET...]
  SOURCES.tsv is testdata/labelled/blind-sources.tsv: per history its
  repository, the path inside it that holds the session files, and any
  filter; MIRROR/OWNER+NAME/repo is a git directory of each repository (a
  bare snapshot). OUT/SET/HISTORY is written: for every commit reachable,
  the largest version of each session file under the path (Claude Code's
  <uuid>.jsonl and <uuid>/subagents/agent-*.jsonl, Codex's rollout-*.jsonl;
  for agent "entire", Entire's checkpoints: each N/full.jsonl transcript,
  on any branch or under refs/entire/checkpoints/*, grouped by the
  session_id of the metadata.json beside it and written as
  <session_id>.jsonl, or a Codex rollout as Codex names it, a session
  with a version the snapshot lacks left out),
  kept as the builders kept them (a file with no user or assistant turn is
  left out; a Codex history with a cwd filter keeps the sessions run in
  that folder), each dated a day back (a scan leaves alone what changed in
  the last 10 minutes). It prints per history the files written against
  the count the builders wrote; a snapshot may lack files of 4 MiB or
  more, so a rebuild can be short of the original."""
import json, os, re, subprocess, sys, time

SESSION = re.compile(r'(^|/)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$|rollout-[^/]*\.jsonl$|/subagents/agent-[^/]*\.jsonl$')


def git(gd, *args, binary=False):
    p = subprocess.run(['git', '--git-dir', gd] + list(args), capture_output=True)
    return p.stdout if binary else p.stdout.decode('utf-8', 'replace')


def under(prefixes):
    """A regular expression for paths under any of prefixes (a * stands for one folder name)."""
    return re.compile('|'.join('^' + re.escape(p).replace(r'\*', '[^/]+') for p in prefixes))


def largest(gd, prefixes, subagents):
    """The largest blob of each session file under prefixes, over every commit."""
    best, trees, inside = {}, set(), under(prefixes)
    for c in git(gd, 'rev-list', '--all').split():
        t = git(gd, 'rev-parse', c + '^{tree}').strip()
        if t in trees:
            continue
        trees.add(t)
        for line in git(gd, 'ls-tree', '-r', '-l', c).splitlines():
            meta, path = line.split('\t', 1)
            kind, blob, size = meta.split()[1:4]
            if kind != 'blob' or not size.isdigit() or not inside.search(path):
                continue
            if not SESSION.search(path.replace('private_', '')) or not subagents and '/subagents/' in path:
                continue
            if path not in best or int(size) > best[path][0]:
                best[path] = (int(size), blob)
    return best


def where(rel, agent, flt):
    """Where a session file goes in its history, as the builders wrote it."""
    rel = '/'.join(part.removeprefix('private_') for part in rel.split('/'))
    name = os.path.basename(rel)
    if agent == 'codex':
        m = re.match(r'rollout-(\d{4})-(\d{2})-(\d{2})T', name)
        if 'written flat' in flt or not m:
            return name
        return '/'.join(('sessions',) + m.groups() + (name,))
    return rel


ENTIRE = re.compile(r'^(?:(?:.*/)?([0-9a-f]{2}/[0-9a-f]{10})/)?(\d+)/(full\.jsonl|metadata\.json)$')


def entire(gd):
    """Entire's transcripts: per session id, the largest full.jsonl blob, or
    None when some version of it is absent from the snapshot (its largest
    may be the one missing)."""
    slots, seen = {}, set()
    refs = [r for r in git(gd, 'for-each-ref', '--format=%(refname)').split() if r.startswith('refs/entire/checkpoints/')]
    walks = [(c, r[len('refs/entire/checkpoints/'):]) for r in refs for c in git(gd, 'rev-list', r).split()]
    walks += [(c, None) for c in git(gd, 'rev-list', '--all').split()]
    for c, ckpt in walks:
        t = git(gd, 'rev-parse', c + '^{tree}').strip()
        if (t, ckpt) in seen:
            continue
        seen.add((t, ckpt))
        for line in git(gd, 'ls-tree', '-r', '-l', c).splitlines():
            meta, path = line.split('\t', 1)
            _, kind, blob, size = meta.split()[:4]
            m = ENTIRE.match(path)
            if kind != 'blob' or not m or not (m.group(1) or ckpt):
                continue
            slot = slots.setdefault((m.group(1) or ckpt, m.group(2)), {'full': {}, 'meta': set()})
            if m.group(3) == 'full.jsonl':
                slot['full'][blob] = int(size) if size.isdigit() else -1
            else:
                slot['meta'].add(blob)
    best = {}
    for slot in slots.values():
        sid = next((json.loads(git(gd, 'cat-file', 'blob', b) or '{}').get('session_id') for b in sorted(slot['meta'])), None)
        if not sid:
            continue
        for blob, size in slot['full'].items():
            if size < 0 or best.get(sid, 0) is None:
                best[sid] = None
            elif sid not in best or size > best[sid][0]:
                best[sid] = (size, blob)
    return {sid + '.jsonl': b for sid, b in best.items() if b}


def codexName(data):
    """Where a Codex rollout Entire kept goes, as Codex names its files:
    sessions/YYYY/MM/DD/rollout-<start, in the session's time zone>-<id>.jsonl;
    None for a transcript of another agent."""
    meta, tz = None, None
    for line in data.decode('utf-8', 'replace').splitlines()[:200]:
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if isinstance(o, dict) and o.get('type') == 'session_meta' and meta is None:
            meta = o.get('payload') or {}
        if tz is None and (m := re.search(r'<timezone>([^<]+)</timezone>', line)):
            tz = m.group(1)
        if meta and tz:
            break
    if not meta or not meta.get('id') or not meta.get('timestamp'):
        return None
    from datetime import datetime
    from zoneinfo import ZoneInfo
    ts = datetime.fromisoformat(meta['timestamp'].replace('Z', '+00:00')).astimezone(ZoneInfo(tz or 'UTC'))
    return ts.strftime('sessions/%Y/%m/%d/rollout-%Y-%m-%dT%H-%M-%S-') + meta['id'] + '.jsonl'


def firstCwd(data):
    m = re.search(rb'"cwd":\s*("(?:[^"\\]|\\.)*")', data[:65536])
    return json.loads(m.group(1)) if m else None


def turns(data):
    return b'"user"' in data or b'"assistant"' in data


def main():
    src, mirror, out = sys.argv[1:4]
    only = set(sys.argv[4:])
    day = time.time() - 86400
    rows = [l.rstrip('\n').split('\t') for l in open(src) if not l.startswith('#')]
    head = rows[0]
    for r in rows[1:]:
        row = dict(zip(head, r))
        if only and row['set'] not in only:
            continue
        gd = os.path.join(mirror, row['repo'].replace('/', '+'), 'repo')
        if not os.path.isdir(gd):
            print(f"{row['set']} {row['history']}: no snapshot at {gd}")
            continue
        flt = row.get('filter', '')
        prefixes = [p.strip().strip('`').rstrip('/') + '/' for p in row['path'].split(',') if p.strip()]
        cwd = re.search(r'cwd is (.+?)(?: \(|;|$)', flt)
        d = os.path.join(out, row['set'], row['history'])
        files = entire(gd) if row['agent'] == 'entire' else {}  # by where it goes: two folders may hold copies of one session
        for path, (size, blob) in sorted(largest(gd, prefixes, 'top-level <uuid>.jsonl only' not in flt).items() if row['agent'] != 'entire' else ()):
            rel = path
            for p in prefixes:
                if m := under([p]).match(path):
                    rel = path[m.end():]
                    break
            to = where(rel, row['agent'], flt)
            if to not in files or size > files[to][0]:
                files[to] = (size, blob)
        n = 0
        for to, (size, blob) in sorted(files.items()):
            data = git(gd, 'cat-file', 'blob', blob, binary=True)
            if not turns(data) or row['agent'] == 'codex' and b'"user_message"' not in data:
                continue  # no turn of the user's: nothing a session is made of
            if row['agent'] in ('codex', 'entire') and cwd and (firstCwd(data) or '').lower() != cwd.group(1).strip().lower():
                continue  # run in another folder: another project's session
            if row['agent'] == 'entire' and (name := codexName(data)):
                if 'no exec' in flt and re.search(rb'"source":\s*"exec"', data[:65536]):
                    continue  # a codex exec run: no session of the work
                to = name  # a Codex rollout: named as Codex names it
            if row['agent'] == 'codex' and 'guardian' in flt and b'"guardian"' in data[:65536]:
                continue  # Codex's approval reviewer, no session of the work
            parent = to.split('/subagents/')[0] + '.jsonl'
            if '/subagents/' in to and parent not in files:
                continue  # a subagent's transcript whose session is not there
            f = os.path.join(d, to)
            os.makedirs(os.path.dirname(f), exist_ok=True)
            open(f, 'wb').write(data)
            os.utime(f, (day, day))
            n += 1
        print(f"{row['set']} {row['history']}: {n} files written, {row.get('files', '?')} built")


if __name__ == '__main__':
    main()
