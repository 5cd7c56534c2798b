#!/usr/bin/env python3
"""Summarizes the 'timeline' lines of db_bench --timeline_ms logs.

    python3 scripts/timeline_summary.py [--benchmark=readzipf] [--rows] LOG...

For the read benchmark of each log (readzipf unless --benchmark says
otherwise) it prints one Markdown row per phase: the intervals in which
background table reads went on (a compaction, or ElasticBF loading units)
and those without. Per phase: share of the Gets, Gets/s, foreground reads
per Get, mean wait per foreground read, foreground CPU per Get, the rest of
the process's CPU, and background read MB/s. Before the rows: files per
level when the reads began and when they ended, and when level 0 first held
fewer than four files. With --rows, one row per log instead. The lines
come from benchmarks/bench_timeline.h.
"""

import re
import sys

FIELD = re.compile(r"(\w+)=([^ ]+)")
# Background reads below this many MB in an interval count as quiet: the
# filter layer loads units in the background too, a few KB at a time.
QUIET_MB = 1.0


def samples(path, benchmark):
    rows = []
    with open(path, errors="replace") as f:
        for line in f:
            at = line.find("timeline ")
            if at < 0:
                continue
            parts = line[at:].split()
            if len(parts) < 3 or parts[1] != benchmark:
                continue
            row = dict(FIELD.findall(line[at:]))
            try:
                row["files"] = [int(x) for x in row["files"].split(",")]
                for k in row:
                    if k != "files":
                        row[k] = float(row[k])
            except (KeyError, ValueError):
                continue
            rows.append(row)
    return rows


def phase_rows(rows):
    """Sums of each figure over the busy and the quiet intervals."""
    phases = {"busy": {}, "quiet": {}}
    prev = dict.fromkeys(rows[0], 0.0)
    prev["t"] = 0.0
    for row in rows:
        delta = {k: row[k] - prev[k] for k in row if k != "files"}
        kind = "busy" if delta["bg_mb"] >= QUIET_MB else "quiet"
        acc = phases[kind]
        for k, v in delta.items():
            acc[k] = acc.get(k, 0.0) + v
        prev = row
    return phases


def describe(path, benchmark):
    rows = samples(path, benchmark)
    if not rows:
        print(f"{path}: no timeline lines for {benchmark}")
        return
    first, last = rows[0], rows[-1]
    drained = next((r["t"] for r in rows if r["files"][0] < 4), None)
    print(f"### {path}")
    print()
    print(f"- files per level at the first sample: {first['files']}, "
          f"at the end: {last['files']}")
    print("- level 0 under four files from: "
          + (f"{drained:.1f} s" if drained is not None else "never"))
    print(f"- compacted during the reads: {last['compact_read_mb']:.0f} MB "
          f"read, {last['compact_write_mb']:.0f} MB written")
    print()
    print("| phase | seconds | Gets | Gets/s | fg reads per Get | "
          "us per fg read | fg CPU us per Get | other CPU (cores) | "
          "bg read MB/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    total_ops = last["ops"] or 1
    for kind, acc in phase_rows(rows).items():
        if not acc or acc["ops"] <= 0:
            continue
        secs, ops = acc["t"], acc["ops"]
        other = (acc["cpu_all_ms"] - acc["cpu_fg_ms"]) / 1000 / max(secs, 1e-9)
        wait = acc["fg_read_ms"] * 1000 / max(acc["fg_reads"], 1)
        print(f"| {kind} | {secs:.1f} | {ops / total_ops:.0%} | "
              f"{ops / secs:.0f} | {acc['fg_reads'] / ops:.3f} | {wait:.0f} | "
              f"{acc['cpu_fg_ms'] * 1000 / ops:.1f} | {other:.2f} | "
              f"{acc['bg_mb'] / secs:.1f} |")
    print()


def one_row(path, benchmark):
    """One Markdown row per log: the table that --rows prints."""
    rows = samples(path, benchmark)
    if not rows:
        return f"| {path} | no timeline lines | - | - | - | - | - |"
    last = rows[-1]
    drained = next((r["t"] for r in rows if r["files"][0] < 4), None)
    phases = phase_rows(rows)
    cells = []
    for kind in ("busy", "quiet"):
        acc = phases[kind]
        if not acc or acc["ops"] <= 0:
            cells.append("-")
            continue
        wait = acc["fg_read_ms"] * 1000 / max(acc["fg_reads"], 1)
        cells.append(f"{acc['ops'] / max(acc['t'], 1e-9):.0f} Gets/s, "
                     f"{acc['fg_reads'] / acc['ops']:.3f} reads, "
                     f"{wait:.0f} us/read, "
                     f"{acc['cpu_fg_ms'] * 1000 / acc['ops']:.1f} us CPU")
    busy_ops = phases["busy"].get("ops", 0.0)
    return (f"| {path} | {rows[0]['files'][0]} | "
            + (f"{drained:.1f}" if drained is not None else "never")
            + f" | {busy_ops / max(last['ops'], 1):.0%} | {cells[0]} | "
            f"{cells[1]} | {last['ops'] / max(last['t'], 1e-9):.0f} |")


def main(argv):
    benchmark = "readzipf"
    paths = []
    rows = False
    for arg in argv:
        if arg.startswith("--benchmark="):
            benchmark = arg.split("=", 1)[1]
        elif arg == "--rows":
            rows = True
        elif arg in ("-h", "--help"):
            print(__doc__)
            return 0
        elif arg.startswith("--"):
            print(f"timeline_summary.py: unknown option {arg}", file=sys.stderr)
            return 2
        else:
            paths.append(arg)
    if not paths:
        print("timeline_summary.py: no log given (see --help)", file=sys.stderr)
        return 2
    if rows:
        print("| log | L0 files at the first sample | L0 < 4 from (s) | "
              "Gets during background reads | while busy | while quiet | "
              "Gets/s |")
        print("|---|---|---|---|---|---|---|")
    for path in paths:
        try:
            if rows:
                print(one_row(path, benchmark))
            else:
                describe(path, benchmark)
        except OSError as e:
            print(f"timeline_summary.py: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
