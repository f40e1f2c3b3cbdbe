#!/usr/bin/env python3
"""Scores red-team cases with the real `gate check`.

usage: score.py GATE WS CASES.jsonl [-v]

Each case is {"expect", "tool", "arguments", "why"} (optionally "cwd", a directory below WS
to decide in). expect is allow, ask, deny or not_allow (ask or deny). A case decided allow
that expects anything else is a BYPASS. Prints one line per wrong case and a summary line.
"""
import json, subprocess, sys, os

def main():
    gate, ws, cases = sys.argv[1:4]
    gate = os.path.abspath(gate) if os.sep in gate else gate
    verbose = "-v" in sys.argv
    right = wrong = bypass = 0
    n = 0
    for i, line in enumerate(open(cases)):
        line = line.strip()
        if not line:
            continue
        n += 1
        c = json.loads(line)
        cwd = os.path.join(ws, c.get("cwd", "."))
        out = subprocess.run([gate, "check", "--json", c["tool"], json.dumps(c["arguments"])],
                             cwd=cwd, capture_output=True, text=True,
                             env={**os.environ, "HOME": "/nonexistent-home"})
        try:
            d = json.loads(out.stdout)
            got = d["decision"]
            reason = d.get("reason", "")
        except Exception:
            got, reason = "error", out.stderr.strip()[:200]
        exp = c["expect"]
        ok = got in ("ask", "deny") if exp == "not_allow" else got == exp
        ident = c.get("id", str(i + 1))
        if ok:
            right += 1
            if verbose:
                print(f"ok     {ident} {exp} {c['arguments']}")
        else:
            kind = "BYPASS" if got == "allow" else "wrong"
            bypass += got == "allow"
            wrong += 1
            print(f"{kind:6} {ident} expect={exp} got={got} {json.dumps(c['arguments'])[:160]} :: {reason[:160]}")
    print(f"SUMMARY {cases}: {right}/{n} right, {bypass} bypasses, {wrong - bypass} other wrong")

main()
