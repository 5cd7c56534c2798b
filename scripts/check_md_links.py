#!/usr/bin/env python3
"""Checks relative links (and #anchors) in the repository's Markdown files.

Usage: python3 scripts/check_md_links.py [REPO_ROOT]   (default: .)
Prints each missing file or anchor; exits 1 if there is any.
"""
import os, re, subprocess, sys
root = sys.argv[1] if len(sys.argv) > 1 else '.'
files = subprocess.run(['git', '-C', root, 'ls-files', '*.md'], capture_output=True, text=True).stdout.split()
files += [f for f in subprocess.run(['git', '-C', root, 'ls-files', '--others', '--exclude-standard', '*.md'], capture_output=True, text=True).stdout.split()]
if not files:
    sys.exit(f'no Markdown files found through git in {root}')
link_re = re.compile(r'!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
def slugs(path):
    out = {}
    res = set()
    inside = False
    for line in open(path, encoding='utf-8'):
        if line.lstrip().startswith('```'):
            inside = not inside
            continue
        if inside: continue
        m = re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if not m: continue
        s = m.group(2).strip().lower()
        s = re.sub(r'[^\w\- ]', '', s)  # drop punctuation (keeps _ and -)
        s = s.replace(' ', '-')
        n = out.get(s, 0)
        res.add(s if n == 0 else f'{s}-{n}')
        out[s] = n + 1
    return res
bad = 0
for f in files:
    p = os.path.join(root, f)
    inside = False
    for i, line in enumerate(open(p, encoding='utf-8'), 1):
        if line.lstrip().startswith('```'):
            inside = not inside
            continue
        if inside: continue
        line = re.sub(r'`[^`]*`', '', line)
        for m in link_re.finditer(line):
            t = m.group(1)
            if re.match(r'^[a-z]+:', t): continue
            path, _, anchor = t.partition('#')
            target = os.path.normpath(os.path.join(os.path.dirname(p), path)) if path else p
            if not os.path.exists(target):
                print(f'{f}:{i}: missing {t}'); bad += 1; continue
            if anchor and target.endswith('.md'):
                if anchor not in slugs(target):
                    print(f'{f}:{i}: no anchor #{anchor} in {os.path.relpath(target, root)}'); bad += 1
print(f'{len(files)} files, {bad} bad links')
sys.exit(1 if bad else 0)
