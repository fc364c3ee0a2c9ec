"""Adds up meson test logs into the closing line "N passed, N failed".

Each argument is a meson-logs/testlog.json (one JSON object per test
program).  A Check program reports its own cases ("Checks: N, Failures: F,
Errors: E"), and those cases are what is counted; a program that prints no
such line counts as one test, passed or failed by its exit.  A program that
reports cases but then fails (a crash after the summary, a sanitizer report)
adds one failure of its own.
"""
import json
import re
import sys

CHECK = re.compile(r"Checks: (\d+), Failures: (\d+), Errors: (\d+)")
PLAIN = re.compile(r"^(\d+) passed, (\d+) failed", re.M)

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError:
        failed += 1
        print(f"missing test log {path}")
        continue
    for line in lines:
        if not line.strip():
            continue
        entry = json.loads(line)
        result = entry.get("result")
        out = entry.get("stdout") or ""
        ok = result in ("OK", "EXPECTEDFAIL")
        if result == "SKIP":
            skipped += 1
            continue
        cases = CHECK.findall(out)
        plain = PLAIN.findall(out)
        if cases:
            for n, f, e in cases:
                bad = int(f) + int(e)
                passed += int(n) - bad
                failed += bad
            if not ok and all(int(f) + int(e) == 0 for _, f, e in cases):
                failed += 1
        elif plain:
            p, f = plain[-1]
            passed += int(p)
            failed += int(f)
            if not ok and int(f) == 0:
                failed += 1
        elif ok:
            passed += 1
        else:
            failed += 1
tail = f", {skipped} skipped" if skipped else ""
print(f"{passed} passed, {failed} failed{tail}")
