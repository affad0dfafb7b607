#!/usr/bin/env python3
"""Prints a Markdown table from a JMH JSON result file (-rf json), with -prof gc's B/op."""
import json
import sys

rows = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/results/jmh.json"))
print("| benchmark | param | score | error (99.9%) | unit | allocated B/op |")
print("|---|---|---|---|---|---|")
for r in rows:
    name = r["benchmark"].split(".")[-2] + "." + r["benchmark"].split(".")[-1]
    params = ", ".join(f"{k}={v}" for k, v in (r.get("params") or {}).items())
    m = r["primaryMetric"]
    alloc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
    alloc_s = f"{alloc:,.0f}" if alloc is not None else ""
    print(f"| {name} | {params} | {m['score']:,.1f} | ± {m['scoreError']:,.1f} | {m['scoreUnit']} | {alloc_s} |")
