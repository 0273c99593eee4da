#!/usr/bin/python3
"""The user's own training script for Parity's "your command" verdict tests: what an Accelerate
script with its defaults does to the data order, in plain PyTorch (Debian's python3-torch 1.13;
Accelerate itself is not a Debian package). It copies nothing of Parity's engine: its own data
(512 rows it makes), its own model and initialisation, torch's own DataLoader.

- set_seed(seed): torch.manual_seed before the data loader and the model are made.
- One process: a plain DataLoader(shuffle=True), whose order is drawn from the global generator
  (Accelerate's default, use_seedable_sampler=False, on one process).
- Several processes (torch.multiprocessing, `--nproc W --port P`): the order of a fresh
  torch.Generator() that nobody seeds, as Accelerate's default sampler gives, carried across
  epochs; rank r takes batches r, r + W, ... (BatchSamplerShard). DDP over Gloo averages the
  gradients; rank 0 prints the mean of the ranks' batch losses as a PARITY line each step.

So 1 and N processes see different orders from the first step: the gap the verdict must name as
the data order, never as a bug.
"""
import argparse
import json

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--bs", type=int, required=True)
p.add_argument("--lr", type=float, required=True)
p.add_argument("--seed", type=int, required=True)
p.add_argument("--epochs", type=int, default=2)
p.add_argument("--nproc", type=int, default=1)
p.add_argument("--port", type=int, required=True)
a = p.parse_args()

N, D = 512, 8


def data():
    g = torch.Generator().manual_seed(1234)  # the dataset itself, fixed whatever the seed
    x = torch.randn(N, D, generator=g)
    w = torch.randn(D, 1, generator=g)
    y = x @ w + 0.3 * torch.randn(N, 1, generator=g)
    return x, y


def train(rank):
    torch.set_num_threads(1)
    world = a.nproc
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{a.port}", rank=rank,
                            world_size=world)
    torch.manual_seed(a.seed)  # Accelerate's set_seed
    x, y = data()
    model = torch.nn.Sequential(torch.nn.Linear(D, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
    ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=a.lr)
    if world == 1:
        loader = DataLoader(TensorDataset(x, y), batch_size=a.bs, shuffle=True)
        epochs = [[(xb, yb) for xb, yb in loader] for _ in range(a.epochs)]
    else:
        order = torch.Generator()  # unseeded: Accelerate's default sampler on several processes
        epochs = []
        for _ in range(a.epochs):
            perm = torch.randperm(N, generator=order)
            batches = [perm[i:i + a.bs] for i in range(0, N, a.bs)]
            epochs.append([(x[b], y[b]) for b in batches[rank::world]])
    if rank == 0:
        print("PARITY " + json.dumps({"hparams": {"per_device_train_batch_size": a.bs,
                                                  "num_processes": world, "seed": a.seed}}))
    step = 0
    for epoch, batches in enumerate(epochs):
        for xb, yb in batches:
            opt.zero_grad()
            loss = F.mse_loss(ddp(xb), yb)
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
