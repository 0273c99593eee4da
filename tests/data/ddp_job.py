#!/usr/bin/python3
"""The user's own training script for Parity's "your command" tests: plain PyTorch DDP over Gloo
(Debian's python3-torch 1.13, the version of the LibTorch Parity links), W processes started by
the script itself (torch.multiprocessing, `--nproc W --port P`: Debian's `python3 -m
torch.distributed.run` of torch 1.13 fails on Python 3.11 before it starts a worker, in
elastic's to_map), reporting its losses in Parity's PARITY line protocol.

It trains what Parity's engine trains with `--dataset csv --target y --task regression --model
mlp --hidden 8` and SGD, written as a PyTorch user writes it, copying nothing of the engine:
torch.manual_seed(seed) before the model, whose layers take PyTorch's own default initialisation;
each epoch's order from torch.utils.data.RandomSampler with a generator seeded seed + epoch
(Accelerate's use_seedable_sampler, the engine's default), cut by BatchSampler, rank r taking
batches r, r + W, ... (Accelerate's BatchSamplerShard); DDP averages the gradients; the loss rank
0 reports is the mean of the ranks' batch losses (all_reduce). So its per-step losses equal the
engine's run of the same setup, which is what the test checks: the engine against PyTorch.
"""
import argparse
import csv
import json

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import BatchSampler, RandomSampler

p = argparse.ArgumentParser()
p.add_argument("--data", required=True)
p.add_argument("--bs", type=int, required=True)
p.add_argument("--lr", type=float, required=True)
p.add_argument("--seed", type=int, required=True)
p.add_argument("--epochs", type=int, default=1)
p.add_argument("--nproc", type=int, default=1)
p.add_argument("--port", type=int, required=True)
a = p.parse_args()


def train(rank):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{a.port}", rank=rank,
                            world_size=a.nproc)
    world = a.nproc
    with open(a.data) as f:
        rows = list(csv.DictReader(f))
    x = torch.tensor([[float(r["x"])] for r in rows], dtype=torch.float32)
    y = torch.tensor([[float(r["y"])] for r in rows], dtype=torch.float32)
    torch.manual_seed(a.seed)
    model = torch.nn.Sequential(torch.nn.Linear(1, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=a.lr)
    if rank == 0:
        print("PARITY " + json.dumps({"hparams": {"per_device_train_batch_size": a.bs,
                                                  "num_processes": world, "seed": a.seed}}))
    step = 0
    for epoch in range(a.epochs):
        sampler = RandomSampler(range(len(rows)),
                                generator=torch.Generator().manual_seed(a.seed + epoch))
        batches = list(BatchSampler(sampler, batch_size=a.bs, drop_last=False))
        for b in batches[rank::world]:
            opt.zero_grad()
            loss = F.mse_loss(ddp(x[b]), y[b])
            loss.backward()
            opt.step()
            mean = loss.detach().clone()
            dist.all_reduce(mean)
            step += 1
            if rank == 0:
                print("PARITY " + json.dumps({"step": step, "loss": mean.item() / world,
                                              "lr": a.lr, "epoch": epoch + 1}), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(train, nprocs=a.nproc, join=True)
