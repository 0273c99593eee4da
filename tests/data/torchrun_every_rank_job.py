#!/usr/bin/python3
"""A plain PyTorch DDP script that prints its PARITY lines on every rank (no `if rank == 0`), for
Parity's launcher-prefix test: started by torchrun with `--redirects 2 --tee 1` (Debian's torch
1.13 on Python 3.11 fails in elastic's to_map unless told to redirect), each rank's stdout comes
back on torchrun's own behind `[default<local rank>]:`, and Parity must read rank 0's only.

Each rank reports its own local loss (what `loss.item()` is on a rank), so the test can tell
whose lines were recorded: rank 0's, which torchrun also keeps unprefixed in
`--log_dir`/<run>/attempt_0/0/stdout.log. A linear model on fixed synthetic data, SGD, DDP over
Gloo; `--steps` optimizer steps of `--bs` rows per rank.
"""
import argparse
import json
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--bs", type=int, required=True)
p.add_argument("--lr", type=float, required=True)
p.add_argument("--seed", type=int, required=True)
p.add_argument("--steps", type=int, required=True)
a = p.parse_args()

torch.set_num_threads(1)
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(a.seed)
n = a.bs * world * a.steps
x = torch.randn(n, 4)
y = x @ torch.tensor([[0.5], [-1.0], [0.25], [2.0]]) + 0.1 * torch.randn(n, 1)
model = DDP(torch.nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=a.lr)
print("PARITY " + json.dumps({"hparams": {"per_device_train_batch_size": a.bs,
                                          "num_processes": world,
                                          "local_rank": int(os.environ["LOCAL_RANK"])}}),
      flush=True)
for step in range(1, a.steps + 1):
    first = ((step - 1) * world + rank) * a.bs
    loss = F.mse_loss(model(x[first:first + a.bs]), y[first:first + a.bs])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("PARITY " + json.dumps({"step": step, "loss": loss.item(), "lr": a.lr}), flush=True)
dist.destroy_process_group()
