#!/usr/bin/env python3
"""One-step jobs, before and after, alternating: wall time, per-phase start-up marks and peak RSS.

    bench/startup/startup_bench.py --after build/bin --before /tmp/before/bin [--reps 7]

Each job is `parity-cli run --num-processes W --max-steps 1 --eval-every-epoch false` (Fashion-MNIST,
MLP 2x64) with PARITY_STARTUP_TRACE=1: the launcher and every rank write "parity-startup WHO PHASE T"
lines (the ranks to their logs), and each rank its peak RSS (VmHWM) as it exits. Wall time is the
whole parity-cli process, measured here around it. Extra `--env NAME=VALUE` pairs go to every job
of one side (`--after-env`, `--before-env`).
"""
import argparse
import glob
import os
import statistics
import subprocess
import tempfile
import time


def one_job(bindir, w, extra_env, extra_args, steps):
    tmp = tempfile.mkdtemp(prefix="parity-startup-")
    db = os.path.join(tmp, "x.db")
    env = dict(os.environ, PARITY_STARTUP_TRACE="1", **extra_env)
    cmd = [os.path.join(bindir, "parity-cli"), "run", "--db", db, "--num-processes", str(w),
           "--max-steps", str(steps), "--epochs", "1", "--eval-every-epoch", "false", "--model",
           "mlp", "--hidden", "64,64", "-q"] + extra_args
    t0 = time.time()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode != 0:
        raise SystemExit(f"{cmd} failed: {p.stderr}")
    marks, rss, pss = {}, {}, {}
    lines = p.stderr.splitlines()
    for log in glob.glob(os.path.join(tmp, "x.db.logs", "*", "rank*.log")):
        lines += open(log).read().splitlines()
    for line in lines:
        f = line.split()
        if len(f) == 4 and f[0] == "parity-startup":
            marks[(f[1], f[2])] = float(f[3])
        elif len(f) >= 3 and f[0] == "parity-startup-rss":
            rss[f[1]] = int(f[2])
            if len(f) >= 11:
                pss[f[1]] = int(f[10])
    subprocess.run(["rm", "-rf", tmp])
    return wall, t0, marks, rss, pss


# Each phase: (name, who, from mark, to mark); "t0" is this script's start of the process.
PHASES = [
    ("cli start (exec, load, parse)", "launcher", "t0", "main"),
    ("cli: db, config, run folder", "launcher", "main", "spawn"),
    ("spawn ranks", "launcher", "spawn", "spawned"),
    ("rank 0: exec + library load", "rank0", "@spawned", "main"),
    ("rank 0: store", "rank0", "main", "store"),
    ("rank 0: process group", "rank0", "store", "process_group"),
    ("rank 0: decode train", "rank0", "?process_group|main", "decoded_train"),
    ("rank 0: to float train", "rank0", "decoded_train", "converted_train"),
    ("rank 0: decode test", "rank0", "converted_train", "decoded_test"),
    ("rank 0: to float test", "rank0", "decoded_test", "converted_test"),
    ("rank 0: dataset (all)", "rank0", "?process_group|main", "dataset"),
    ("rank 0: model, broadcast", "rank0", "dataset", "model"),
    ("rank 0: optimizer, grad sync, shm", "rank0", "model", "optimization"),
    ("rank 0: first step", "rank0", "optimization", "first_step"),
    ("rank 0: finish", "rank0", "first_step", "end"),
    ("rank 0: end to exit", "rank0", "end", "exit"),
    ("cli: reap ranks after rank 0 exit", "launcher", "@rank0:exit", "reaped"),
    ("cli: record end, exit", "launcher", "reaped", "exit"),
]


def phase_times(t0, marks):
    def at(who, name):
        if name == "t0":
            return t0
        if name.startswith("@"):
            ref = name[1:]
            if ":" in ref:
                w, n = ref.split(":")
                return marks.get((w, n))
            return marks.get(("launcher", ref))
        if name.startswith("?"):
            for n in name[1:].split("|"):
                if (who, n) in marks:
                    return marks[(who, n)]
            return None
        return marks.get((who, name))

    out = {}
    for label, who, a, b in PHASES:
        ta, tb = at(who, a), at(who, b)
        if ta is not None and tb is not None:
            out[label] = tb - ta
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--after", required=True)
    ap.add_argument("--before", required=True)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--worlds", default="1,2")
    ap.add_argument("--after-env", action="append", default=[])
    ap.add_argument("--before-env", action="append", default=[])
    ap.add_argument("--args", default="", help="extra parity-cli run arguments")
    ap.add_argument("--steps", type=int, default=1, help="--max-steps (0: one whole epoch)")
    a = ap.parse_args()
    sides = {"before": (a.before, dict(kv.split("=", 1) for kv in a.before_env)),
             "after": (a.after, dict(kv.split("=", 1) for kv in a.after_env))}
    extra = a.args.split()
    worlds = [int(w) for w in a.worlds.split(",")]
    results = {(s, w): [] for s in sides for w in worlds}
    print(f"load average at start: {os.getloadavg()}")
    for _ in range(a.reps):
        for w in worlds:
            for s, (bindir, env) in sides.items():
                results[(s, w)].append(one_job(bindir, w, env, extra, a.steps))
    print(f"load average at end: {os.getloadavg()}")
    for w in worlds:
        print(f"\n## W={w}, {a.steps or 'all'} step(s), median of {a.reps} (alternating)")
        walls = {s: [r[0] for r in results[(s, w)]] for s in sides}
        for s in sides:
            rss = [sum(r[3].values()) / 1024 for r in results[(s, w)]]
            pss = [sum(r[4].values()) / 1024 for r in results[(s, w)]]
            pss_text = f", PSS at exit summed {statistics.median(pss):.0f} MiB" if any(pss) else ""
            print(f"{s:7s} wall median {statistics.median(walls[s]):.3f} s "
                  f"(min {min(walls[s]):.3f}, max {max(walls[s]):.3f}); ranks' peak RSS (VmHWM) "
                  f"summed {statistics.median(rss):.0f} MiB{pss_text}")
        print(f"\n| phase | before (s) | after (s) |\n|---|---:|---:|")
        per = {s: [phase_times(r[1], r[2]) for r in results[(s, w)]] for s in sides}
        for label, *_ in PHASES:
            cells = []
            for s in sides:
                v = [p[label] for p in per[s] if label in p]
                cells.append(f"{statistics.median(v):.3f}" if v else "-")
            print(f"| {label} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
