"""Writes golden data from the real Hugging Face Accelerate and PyTorch, for Parity's tests.

Run where `torch` and `accelerate` are installed (PyPI is not reachable from Parity's build
machines, so the output is committed under tests/): 

    python3 scripts/device/accelerate_golden.py OUT_DIR

OUT_DIR/accelerate_shards.json: BatchSamplerShard's batches per rank for random
  (N, B, W, split_batches, even_batches, drop_last) over range(N).
OUT_DIR/torch_randperm.json: torch.randperm(n, generator=torch.Generator().manual_seed(s)).
"""
import json
import random
import sys

import accelerate
import torch
from accelerate.data_loader import BatchSamplerShard
from torch.utils.data import BatchSampler

out = sys.argv[1]
rng = random.Random(20261129)
cases = []
while len(cases) < 400:
    n = rng.randint(1, 60)
    w = rng.randint(2, 6)
    b = rng.randint(1, 12)
    split = rng.random() < 0.4
    even = rng.random() < 0.5
    drop_last = rng.random() < 0.3
    if split and b % w != 0:
        continue
    ranks = []
    for r in range(w):
        sampler = BatchSampler(range(n), b, drop_last)
        shard = BatchSamplerShard(sampler, num_processes=w, process_index=r,
                                  split_batches=split, even_batches=even)
        ranks.append([list(map(int, batch)) for batch in shard])
    cases.append(dict(n=n, batch_size=b, num_replicas=w, split_batches=split,
                      even_batches=even, drop_last=drop_last, ranks=ranks))
with open(f"{out}/accelerate_shards.json", "w") as f:
    json.dump(dict(accelerate=accelerate.__version__, torch=torch.__version__, cases=cases), f)

perms = []
for n in (1, 2, 10, 100, 1000, 60000):
    for seed in (0, 1, 42, 43, 12345):
        g = torch.Generator().manual_seed(seed)
        p = torch.randperm(n, generator=g).tolist()
        perms.append(dict(n=n, seed=seed, head=p[:50], sum_sq=sum(i * v for i, v in enumerate(p))))
with open(f"{out}/torch_randperm.json", "w") as f:
    json.dump(dict(torch=torch.__version__, perms=perms), f)
print("accelerate", accelerate.__version__, "torch", torch.__version__, len(cases), "cases")
