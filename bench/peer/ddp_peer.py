#!/usr/bin/python3
"""Plain PyTorch DDP, the peer of Parity's engine in bench/peer/pair.sh (#21): the same job as
`parity-cli run --model mlp|cnn --num-processes W --per-device-batch-size B --epochs 1` on
Fashion-MNIST with SGD lr 0.05, as fast as a Python user gets it: the decoded dataset in memory,
batches by index_select of a seeded randperm (rank r takes batches r, r + W, ... as Accelerate's
BatchSamplerShard), DDP over Gloo on 127.0.0.1, cores / W intra-op threads per rank.

W processes are started by the script itself (torch.multiprocessing, fork): Debian's
`python3 -m torch.distributed.run` of torch 1.13 fails on Python 3.11 before it starts a worker.
Prints one JSON line: samples/s inside training (first step to last, as Parity's RunEnd counts
them), the final loss (the ranks' mean of the last step), and the seconds to the first step.
Needs Debian's python3-torch.
"""
import argparse
import gzip
import json
import os
import socket
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

FASHION = "/usr/share/datasets/fashion-mnist"
MEAN, STD = 0.2860, 0.3530  # as Parity (and torchvision's tutorials) normalise Fashion-MNIST


def idx(name, offset):
    with gzip.open(os.path.join(FASHION, name), "rb") as f:
        return torch.frombuffer(bytearray(f.read()), dtype=torch.uint8, offset=offset)


def model_of(kind):
    if kind == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128),
                             nn.ReLU(), nn.Linear(128, 10))
    return nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(32 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))


def train(rank, a, x, y, out):
    world = a.nproc
    torch.set_num_threads(max(1, (os.cpu_count() or 1) // world))
    torch.manual_seed(a.seed)
    model = model_of(a.model)
    if world > 1:
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{a.port}", rank=rank,
                                world_size=world)
        model = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator()
    g.manual_seed(a.seed)
    order = torch.randperm(x.shape[0], generator=g)
    global_batch = a.bs * world
    steps = x.shape[0] // global_batch
    if a.max_steps > 0:
        steps = min(steps, a.max_steps)
    t0 = time.perf_counter()
    first = None
    loss = torch.zeros(())
    for step in range(steps):
        if step == 1:
            first = time.perf_counter()  # the first step's warm-up is start-up, as in Parity
        start = step * global_batch + rank * a.bs
        b = order[start:start + a.bs]
        loss = F.cross_entropy(model(x.index_select(0, b)), y.index_select(0, b))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    end = time.perf_counter()
    mean = loss.detach().clone()
    if world > 1:
        dist.all_reduce(mean)
        mean /= world
    if rank == 0:
        counted = (steps - 1) * global_batch
        out.put({"samples_per_s": counted / (end - first) if first and end > first else 0.0,
                 "final_loss": float(mean), "to_first_step_s": (first or end) - t0,
                 "steps": steps})
    if world > 1:
        dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", choices=["mlp", "cnn"], default="mlp")
    p.add_argument("--nproc", type=int, default=1)
    p.add_argument("--bs", type=int, default=64)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--max-steps", type=int, default=0)
    a = p.parse_args()
    start = time.perf_counter()
    raw = idx("train-images-idx3-ubyte.gz", 16)
    x = ((raw.float() / 255.0 - MEAN) / STD).reshape(-1, 1, 28, 28).contiguous()
    y = idx("train-labels-idx1-ubyte.gz", 8).long()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        a.port = s.getsockname()[1]
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    procs = [ctx.Process(target=train, args=(r, a, x, y, out)) for r in range(a.nproc)]
    for proc in procs:
        proc.start()
    result = out.get()
    for proc in procs:
        proc.join()
    result["data_s"] = time.perf_counter() - start
    print(json.dumps(result))


if __name__ == "__main__":
    main()
