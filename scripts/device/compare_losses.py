"""Compares two per-step loss curves for the GPU checks and appends one row to a results CSV.

A curve is either a Parity run in a `parity-cli export --no-ranks` CSV (run:ID, read from
--curves) or a CSV with step and loss columns (csv:PATH, as accelerate_mlp.py writes). Reported,
for the steps both curves have:
  first    relative difference at the first step (same parameters, same batch: only the
           arithmetic of one forward pass differs)
  early    largest relative difference over the first --early steps
  all      largest relative difference over every step (reported, not judged: two runs whose
           arithmetic differs drift apart slowly, as any chaotic iteration does)
  end      relative difference of the means of the last 20 losses (where the curves ended up)
  identical  every loss bit-identical (with --f32: identical once both are rounded to float32,
           for a curve whose losses went through a float32 collective)
Verdict PASS when first <= tol_first, early <= tol_early and end <= tol_end, or, with
--identical, when every loss is identical. Exit status 0 always (the report carries verdicts).

`compare_losses.py --copy-db SRC DST` copies a Parity database into one file (for $OUT).
"""
import argparse
import csv
import math
import os
import struct
import sys


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0] if math.isfinite(x) else x


def load(spec, curves):
    kind, _, what = spec.partition(":")
    out = {}
    if kind == "run":
        with open(curves, newline="") as f:
            for r in csv.DictReader(f):
                if r["run_id"] == what and r["rank"] == "-1":
                    out[int(r["step"])] = float(r["loss"])
    elif kind == "csv":
        with open(what, newline="") as f:
            for r in csv.DictReader(f):
                out[int(r["step"])] = float(r["loss"])
    else:
        raise SystemExit(f"unknown curve {spec!r}: use run:ID or csv:PATH")
    return out


def rel(a, b):
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.inf if a != b else 0.0
    return abs(a - b) / max(abs(b), 1e-12)


def copy_db(src, dst):
    """A consistent one-file copy of a SQLite database (no -wal/-shm beside it)."""
    import sqlite3
    s, d = sqlite3.connect(src), sqlite3.connect(dst)
    s.backup(d)
    d.execute("PRAGMA journal_mode=DELETE")
    d.close()
    s.close()
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--copy-db":
        return copy_db(sys.argv[2], sys.argv[3])
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--a", required=True, help="run:ID or csv:PATH (the one under test)")
    ap.add_argument("--b", required=True, help="run:ID or csv:PATH (the reference)")
    ap.add_argument("--curves", default="", help="parity-cli export CSV for run:ID curves")
    ap.add_argument("--early", type=int, default=10)
    ap.add_argument("--tol-first", type=float, default=1e-5)
    ap.add_argument("--tol-early", type=float, default=1e-4)
    ap.add_argument("--tol-end", type=float, default=2e-2)
    ap.add_argument("--identical", action="store_true", help="the verdict asks for identity")
    ap.add_argument("--f32", action="store_true", help="identity after rounding to float32")
    ap.add_argument("--results", required=True, help="CSV to append the row to")
    a = ap.parse_args()

    row = dict(kind="compare", name=a.name, a=a.a, b=a.b, steps=0, first="", early="", all="",
               end="", identical="", first_diff_step="",
               tol=("identical" + (" (float32)" if a.f32 else "")) if a.identical
               else f"{a.tol_first:g}/{a.tol_early:g}/{a.tol_end:g}",
               verdict="MISSING", note="")
    try:
        ca, cb = load(a.a, a.curves), load(a.b, a.curves)
    except (OSError, KeyError) as e:
        ca, cb = {}, {}
        row["note"] = f"cannot read: {e}"
    steps = sorted(set(ca) & set(cb))
    if steps:
        conv = f32 if a.f32 else (lambda v: v)
        diffs = [rel(ca[s], cb[s]) for s in steps]
        same = [conv(ca[s]) == conv(cb[s]) for s in steps]
        tail = steps[-20:]
        end = rel(sum(ca[s] for s in tail) / len(tail), sum(cb[s] for s in tail) / len(tail))
        row.update(steps=len(steps), first=f"{diffs[0]:.3g}", early=f"{max(diffs[:a.early]):.3g}",
                   all=f"{max(diffs):.3g}", end=f"{end:.3g}", identical=str(all(same)).lower())
        if not all(same):
            row["first_diff_step"] = steps[same.index(False)]
        if len(ca) != len(cb):
            row["note"] = f"{len(ca)} vs {len(cb)} steps"
        if a.identical:
            ok = all(same)
        else:
            ok = diffs[0] <= a.tol_first and max(diffs[:a.early]) <= a.tol_early and end <= a.tol_end
        row["verdict"] = "PASS" if ok else "FAIL"
    new = not os.path.exists(a.results)
    with open(a.results, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(row))
        if new:
            w.writeheader()
        w.writerow(row)
    print(f"| {row['name']} | {row['steps']} | {row['first']} | {row['early']} | {row['all']} | "
          f"{row['end']} | {row['identical']} | {row['first_diff_step']} | {row['tol']} | "
          f"**{row['verdict']}** {row['note']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
