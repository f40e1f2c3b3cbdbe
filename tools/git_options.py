#!/usr/bin/env python3
"""Print gate's option tables of git's read-only subcommands (src/shell/grammar.rs TABLE
entries) from git's manual pages (`man git-CMD`) and parse-options' completion helper
(`git CMD --git-completion-helper-all`, run in a repository given as the first argument)."""
import os, re, subprocess, sys

# Subcommands that share one table (the log family reads rev-list and diff options alike).
GROUPS = [
    ('git-log|git-show|git-whatchanged|git-rev-list|git-reflog', ['log', 'show', 'whatchanged', 'rev-list', 'reflog']),
    ('git-diff|git-diff-tree|git-diff-files|git-diff-index', ['diff', 'diff-tree', 'diff-files', 'diff-index']),
] + [('git-' + s, [s]) for s in (
    'shortlog status rev-parse ls-files ls-tree blame annotate describe grep cat-file merge-base name-rev '
    'show-ref count-objects for-each-ref check-ignore version show-branch var check-attr verify-commit '
    'verify-tag cherry range-diff hash-object check-ref-format fsck').split()]
# Entries the pages spell in prose or in the synopsis only, or wrongly for the parser.
EXTRA = {
    'diff': {'--staged': '', '--no-index': '', '--ours': '', '--theirs': '', '--base': '', '-0': '', '-1': '', '-2': '', '-3': ''},
    'grep': {'-e': '='},
    'log': {'-q': ''},
    # The page spells `--path=<file>` in the synopsis and prose only (red team 72: read as a flag).
    'hash-object': {'--path': '='},
    # `-x <pattern>, --exclude=<pattern>`: the page's first spelling hides the value.
    'ls-files': {'--exclude': '='},
    # `git fsck -h` lists `-v`; the page and the helper do not.
    'fsck': {'-v': ''},
    'check-ref-format': {'--branch': '', '--normalize': '', '--allow-onelevel': '', '--no-allow-onelevel': '',
                         '--refspec-pattern': ''},
}
# Every subcommand prints its usage (`-h`) or opens its manual (`--help`).
EVERY = {'-h': '', '--help': ''}
# What an option does, in the grammar's letters. None: what git's options read, write or run
# is decided where git is modelled (src/shell/tables.rs), and a run-time word in an option's
# place is decided there too.
EFFECTS = {}

def man(s):
    env = dict(os.environ, MANWIDTH='300')
    t = subprocess.run(['man', 'git-' + s], capture_output=True, text=True, env=env).stdout
    return subprocess.run(['col', '-b'], input=t, capture_output=True, text=True).stdout

def helper(s, repo):
    r = subprocess.run(['git', s, '--git-completion-helper-all'], capture_output=True, text=True, cwd=repo)
    return r.stdout.split() if r.returncode == 0 else []

def page(s, repo):
    """The options of one page: the first line that names an option decides its kind."""
    opts, num = {}, False
    for line in man(s).splitlines():
        line = line.expandtabs(8)
        m = re.match(r'^(?: {7}| {11})(-.*)$', line)
        if not m:
            continue
        seen, bare_seen, eq_seen = {}, set(), set()
        for piece in m.group(1).split(', '):
            piece = piece.strip()
            if piece.startswith('-<'):
                num = True
                continue
            pm = re.match(r'^(--?)(\[no-\])?([A-Za-z0-9][-A-Za-z0-9]*)(.*)$', piece)
            if not pm:
                continue
            dash, neg, name, rest = pm.groups()
            if dash == '-' and len(name) > 1:
                if name.isdigit():
                    seen['-' + name] = ''
                continue
            if rest.startswith('[='):
                kind = '?'
            elif rest.startswith('=') or rest.startswith(' <') or rest.startswith(' (') or (dash == '-' and rest.startswith('<')):
                kind = '='
            elif dash == '-' and rest.startswith('['):
                kind = '?'
            else:
                kind = ''
            # `--batch, --batch=<format>` (a bare form and an `=` form on one line): the value
            # is optional.
            bare = rest.strip() == ''
            if (dash + name) in bare_seen and rest.startswith('=') or (dash + name) in eq_seen and bare:
                seen[dash + name] = '?'
            elif seen.get(dash + name, '') == '':
                seen[dash + name] = kind
            if bare:
                bare_seen.add(dash + name)
            if rest.startswith('='):
                eq_seen.add(dash + name)
            if neg:
                seen['--no-' + name] = ''
        for n, k in seen.items():
            if n not in opts:
                opts[n] = k
    for w in helper(s, repo):
        if not w.startswith('-') or w == '--':
            continue
        n, k = (w[:-1], '=') if w.endswith('=') else (w, '')
        if n not in opts:
            opts[n] = k
    return opts, num

def spec(name, kind, sub):
    eff = EFFECTS.get(name + '@' + sub) or EFFECTS.get(name, '')
    if name.startswith('--'):
        s = name + {'': '', '=': '=', '?': '=?'}[kind]
    else:
        s = name + {'': '', '=': ':', '?': '::'}[kind]
    return s + ('/' + eff if eff else '')

def main():
    repo = sys.argv[1]
    ver = subprocess.run(['git', '--version'], capture_output=True, text=True).stdout.split()[2]
    print(f'    // git {ver}\'s read-only subcommands, generated by tools/git_options.py from its manual')
    print('    // pages and `git CMD --git-completion-helper-all`: every option they list.')
    for names, subs in GROUPS:
        opts, num = {}, False
        for s in subs:
            o, n = page(s, repo)
            num |= n
            for k, v in list(o.items()) + list(EXTRA.get(s, {}).items()) + list(EVERY.items()):
                if k not in opts or s in EXTRA and k in EXTRA[s]:
                    opts[k] = v
        head = 'num' if num else ''
        words = [spec(n, k, subs[0]) for n, k in sorted(opts.items(), key=lambda kv: (kv[0].lstrip('-').lower(), kv[0]))]
        lines, line = [], ''
        for w in words:
            if len(line) + len(w) + 1 > 100:
                lines.append(line)
                line = ''
            line += w + ' '
        lines.append(line.rstrip())
        body = ' \\\n      '.join(l.rstrip() for l in lines)
        print(f'    ("{names}", "{head}",\n     "{body}"),')

main()
