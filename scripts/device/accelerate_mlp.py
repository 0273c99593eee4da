"""Trains Parity's Fashion-MNIST MLP with Hugging Face Accelerate, on Parity's data order.

For the GPU checks (scripts/device/gpu_checks.sh): the same run as

    parity-cli run --dataset fashion-mnist --data DIR --model mlp --hidden 256,128 --lr 0.05
                   --per-device-batch-size 64 --epochs 1 --train-samples N --seed 42 ...

so that the per-step losses can be compared. What is reproduced (README "What Parity
reproduces"): the model is built on the CPU right after torch.manual_seed(seed); the shuffle is
torch.randperm(N, generator seeded data_seed + epoch), identical on every rank, cut into batches of
the per-device size and dealt to the ranks by Accelerate's own BatchSamplerShard (even_batches);
the images are normalised as Parity does (x/255 - 0.2860) / 0.3530 in float32; the loss is the
batch mean of cross-entropy on fp32 logits; plain SGD (foreach=False: the single-tensor update
LibTorch's SGD does); the step's loss is the mean of the ranks' losses.

Run alone (one process: CPU with --cpu, else CUDA) or under torchrun for W CPU processes:
    python3 -m torch.distributed.run --nproc_per_node W accelerate_mlp.py --cpu ...
Writes OUT.csv (step,epoch,samples,loss,lr) and OUT.json (accuracy, samples_per_s, versions).
Python is used by the device checks only; Parity itself never needs it.
"""
import argparse
import gzip
import json
import struct
import sys
import time

import torch
import torch.nn.functional as F
from accelerate import Accelerator

FASHION_MEAN = 0.2860
FASHION_STD = 0.3530


def read_idx(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = struct.unpack(">" + "I" * dims, data[4:4 + 4 * dims])
    return torch.frombuffer(bytearray(data[4 + 4 * dims:]), dtype=torch.uint8).reshape(shape)


def split(folder, prefix):
    import os
    def path(stem):
        p = os.path.join(folder, stem)
        return p + ".gz" if os.path.exists(p + ".gz") else p
    images = read_idx(path(prefix + "-images-idx3-ubyte"))
    labels = read_idx(path(prefix + "-labels-idx1-ubyte"))
    x = images.to(torch.float32).div_(255.0).sub_(FASHION_MEAN).div_(FASHION_STD).unsqueeze(1)
    return x.contiguous(), labels.to(torch.int64).contiguous()


class EpochShuffle(torch.utils.data.Sampler):
    """torch.randperm(n) seeded data_seed + epoch: Parity's (and Accelerate's seedable) order."""

    epoch = [0]  # shared, so a copy Accelerate makes still sees set_epoch

    def __init__(self, n, data_seed):
        self.n, self.data_seed = n, data_seed

    def set_epoch(self, epoch):
        EpochShuffle.epoch[0] = epoch

    def __len__(self):
        return self.n

    def __iter__(self):
        g = torch.Generator().manual_seed(self.data_seed + EpochShuffle.epoch[0])
        return iter(torch.randperm(self.n, generator=g).tolist())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True, help="OUT.csv and OUT.json are written (rank 0)")
    ap.add_argument("--cpu", action="store_true")
    ap.add_argument("--mixed-precision", default="no", choices=["no", "bf16", "fp16"])
    ap.add_argument("--train-samples", type=int, default=0)
    ap.add_argument("--per-device-batch-size", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--hidden", default="256,128")
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: leave)")
    a = ap.parse_args()
    if a.threads > 0:
        torch.set_num_threads(a.threads)

    acc = Accelerator(cpu=a.cpu, mixed_precision=a.mixed_precision)
    x, y = split(a.data, "train")
    if 0 < a.train_samples < len(y):
        x, y = x[:a.train_samples].contiguous(), y[:a.train_samples].contiguous()
    tx, ty = split(a.data, "t10k")
    n = len(y)

    torch.manual_seed(a.seed)
    layers, width = [torch.nn.Flatten()], 784
    for h in (int(v) for v in a.hidden.split(",") if v):
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    layers.append(torch.nn.Linear(width, 10))
    model = torch.nn.Sequential(*layers)
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, foreach=False)

    sampler = EpochShuffle(n, a.seed)
    batches = torch.utils.data.BatchSampler(sampler, a.per_device_batch_size, drop_last=False)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_sampler=batches)
    model, opt, loader = acc.prepare(model, opt, loader)

    rows, samples, train_s = [], 0, 0.0
    step = 0
    for epoch in range(a.epochs):
        sampler.set_epoch(epoch)
        if hasattr(loader, "set_epoch"):
            loader.set_epoch(epoch)
        model.train()
        t0 = time.perf_counter()
        total = len(loader)
        for i, (bx, by) in enumerate(loader):
            out = model(bx)
            loss = F.cross_entropy(out.float(), by, reduction="none").mean()
            acc.backward(loss)
            opt.step()
            opt.zero_grad()
            step += 1
            losses = acc.gather(loss.detach().reshape(1).float())
            counts = acc.gather(torch.tensor([len(by)], device=acc.device))
            samples += int(counts.sum())
            if acc.is_main_process:
                rows.append((step, epoch + (i + 1) / total, samples, float(losses.double().mean()), a.lr))
        if acc.device.type == "cuda":
            torch.cuda.synchronize()
        train_s += time.perf_counter() - t0

    accuracy = None
    if acc.is_main_process:
        net = acc.unwrap_model(model)
        net.eval()
        correct = 0
        with torch.no_grad(), acc.autocast():
            for s in range(0, len(ty), 1000):
                out = net(tx[s:s + 1000].to(acc.device)).float()
                correct += int((out.argmax(1).cpu() == ty[s:s + 1000]).sum())
        accuracy = correct / len(ty)
        with open(a.out + ".csv", "w") as f:
            f.write("step,epoch,samples,loss,lr\n")
            for r in rows:
                f.write(f"{r[0]},{r[1]!r},{r[2]},{r[3]!r},{r[4]!r}\n")
        import accelerate
        summary = dict(accuracy=accuracy, samples_per_s=samples / train_s if train_s > 0 else 0,
                       train_s=train_s, steps=step, samples=samples, world_size=acc.num_processes,
                       device=str(acc.device), mixed_precision=a.mixed_precision,
                       threads=torch.get_num_threads(), torch=torch.__version__,
                       accelerate=accelerate.__version__)
        with open(a.out + ".json", "w") as f:
            json.dump(summary, f)
        print(json.dumps(summary))
    acc.wait_for_everyone()
    acc.end_training()
    return 0


if __name__ == "__main__":
    sys.exit(main())
