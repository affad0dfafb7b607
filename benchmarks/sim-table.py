#!/usr/bin/env python3
"""Prints Markdown tables from the simulator's summary.json files.

Usage: python3 benchmarks/sim-table.py DIR [DIR ...]   (each DIR holds <scenario>/summary.json)
"""
import glob
import json
import os
import sys


def pct(v, digits=1):
    return "n/a" if v is None else f"{100 * v:.{digits}f} %"


ORDER = ["one-node", "dc5x4", "flash20x5", "hostile-base", "parallel", "replay", "clone", "skew",
         "store-fail-open", "store-fail-closed", "burst"]


def line_inverted(r):
    """Users inverted by an admission from the line; runs before it was measured did not count walk-ins."""
    v = r.get("fifoInversionUsersFromLine")
    return "n/a" if v is None else f"{v:,}"


def rank(r):
    name = r.get("scenario", "")
    base = name.split("+")[0]
    return (ORDER.index(base) if base in ORDER else len(ORDER), name)


def load(dirs):
    rows = []
    for d in dirs:
        for f in glob.glob(os.path.join(d, "*", "summary.json")):
            rows.append(json.load(open(f)))
    return sorted(rows, key=rank)


def main():
    rows = load(sys.argv[1:] or ["benchmarks/results/sim"])
    print("| scenario | arrivals | admitted | peak active / limit | s over limit | peak in any 60 s / limit |"
          " utilization while queued (s < 97 %) | FIFO inversion users (by the line) | ETA abs. error p50 / p90 |"
          " ETA in 25-75 range | ahead grew (users) | bounced / lost place |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "arrivals" not in r:
            continue
        print(f"| {r['scenario']} | {r['arrivals']:,} | {r['admitted']:,} | {r['peakActive']:,} / {r['totalActiveUsers']:,}"
              f" (**{r['peakActiveRatio']:.3f}x**) | {r['overLimitSeconds']:,} | {r['peakPerMinute']:,} / {r['newUsersPerMinute']:,}"
              f" (**{r['peakPerMinuteRatio']:.3f}x**) | **{pct(r['utilization'])}** ({r['secondsBelow97']:,} of {r['queuedSeconds']:,} s)"
              f" | **{r['fifoInversionUsers']:,}** ({line_inverted(r)}) | **{pct(r['etaMedianAbsError'])}** / {pct(r['etaP90AbsError'])}"
              f" | {pct(r['etaRangeHitRate'], 0)} | {r['aheadIncreases']:,} ({r['aheadGrewUsers']:,}) | {r['bounced']} / {r['lostPlace']} |")


if __name__ == "__main__":
    main()
