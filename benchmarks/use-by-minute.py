#!/usr/bin/env python3
"""Use while people wait, minute by minute, from the series.csv of simulator runs.

Usage: python3 benchmarks/use-by-minute.py DIR/SCENARIO/series.csv...

Each second in which someone waits counts the fuller of active / total limit and admissions of
the last 60 s / per-minute limit, as the simulator's summary does; the table splits the run's
figure into its first minute, its second and third (the crowd arrives and the room fills) and
the rest.
"""
import csv
import sys


def use(row):
    by_active = int(row["active"]) / int(row["total_active_limit"])
    by_rate = int(row["admitted_last_60s"]) / int(row["new_users_per_minute_limit"])
    return min(1.0, max(by_active, by_rate))


def mean(values):
    return f"{100 * sum(values) / len(values):.1f}% ({len(values)} s)" if values else "-"


print("| run | use while people wait | minute 1 | minutes 2-3 | minute 4 on |")
print("|---|---|---|---|---|")
for path in sys.argv[1:]:
    parts = {0: [], 1: [], 2: []}
    for row in csv.DictReader(open(path)):
        if int(row["queue"]) > 0:
            minute = int(row["second"]) // 60
            parts[0 if minute == 0 else 1 if minute < 3 else 2].append(use(row))
    every = parts[0] + parts[1] + parts[2]
    name = path.rstrip("/").split("/")[-2]
    print(f"| {name} | {mean(every)} | {mean(parts[0])} | {mean(parts[1])} | {mean(parts[2])} |")
