"""How data/torch_{mlp,gpt,cnn}_b{4,8}.mlir and data/torch_bn_b4.mlir were made: PyTorch train
steps traced lazily by torch_xla and printed as StableHLO (`xm.get_stablehlo`, pretty form), then
re-printed in generic form without locations (`python -m alpa_mlir.generic --no-debug-info`).
Not run by the tests (CI has no PyTorch); with torch==2.9.0 and torch_xla==2.9.0 installed:

    PJRT_DEVICE=CPU python torch_steps.py gpt 4 > gpt4.mlir

Each step is the second of two (so the optimizer's state exists), on examples and labels made
on the host: the traced graph holds the step only, its arguments in torch_xla's order."""
import os
import sys
os.environ.setdefault("PJRT_DEVICE", "CPU")
import torch, torch.nn as nn, torch.nn.functional as F
import torch_xla
import torch_xla.core.xla_model as xm

dev = torch_xla.device()
torch.manual_seed(0)

class Block(nn.Module):
    def __init__(s, d, h):
        super().__init__()
        s.ln1 = nn.LayerNorm(d); s.attn = nn.MultiheadAttention(d, h, batch_first=True)
        s.ln2 = nn.LayerNorm(d); s.mlp = nn.Sequential(nn.Linear(d, 4*d), nn.GELU(approximate="tanh"), nn.Linear(4*d, d))
    def forward(s, x, mask):
        a = s.ln1(x)
        x = x + s.attn(a, a, a, attn_mask=mask, need_weights=False)[0]
        return x + s.mlp(s.ln2(x))

class GPT(nn.Module):
    def __init__(s, vocab=512, d=64, h=4, layers=4, seq=32):
        super().__init__()
        s.tok = nn.Embedding(vocab, d); s.pos = nn.Embedding(seq, d)
        s.blocks = nn.ModuleList([Block(d, h) for _ in range(layers)])
        s.ln = nn.LayerNorm(d); s.head = nn.Linear(d, vocab, bias=False)
        s.head.weight = s.tok.weight
        s.seq = seq
    def forward(s, idx):
        t = idx.shape[1]
        mask = torch.triu(torch.full((t, t), float("-inf"), device=idx.device), diagonal=1)
        x = s.tok(idx) + s.pos(torch.arange(t, device=idx.device))
        for b in s.blocks: x = b(x, mask)
        return s.head(s.ln(x))

def step_of(name, batch):
    if name == "mlp":
        model = nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.Linear(128, 128), nn.GELU(), nn.Linear(128, 10))
        x = torch.randn(batch, 64); y = torch.randint(0, 10, (batch,))
        opt = lambda ps: torch.optim.SGD(ps, lr=0.1)
        loss_fn = lambda m, x, y: F.cross_entropy(m(x), y)
    elif name == "gpt":
        model = GPT(vocab=64, d=32, h=2, layers=2, seq=8)
        x = torch.randint(0, 64, (batch, 8)); y = torch.randint(0, 64, (batch, 8))
        opt = lambda ps: torch.optim.AdamW(ps, lr=1e-3, weight_decay=0.1)
        loss_fn = lambda m, x, y: F.cross_entropy(m(x).flatten(0, 1), y.flatten())
    elif name == "bn":
        model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                              nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
        x = torch.randn(batch, 3, 8, 8); y = torch.randint(0, 10, (batch,))
        opt = lambda ps: torch.optim.SGD(ps, lr=0.1)
        loss_fn = lambda m, x, y: F.cross_entropy(m(x), y)
    elif name == "cnn":
        model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
                              nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10))
        x = torch.randn(batch, 3, 16, 16); y = torch.randint(0, 10, (batch,))
        opt = lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9)
        loss_fn = lambda m, x, y: F.cross_entropy(m(x), y, label_smoothing=0.1)
    else:
        raise SystemExit(f"unknown {name}")
    return model, x, y, opt, loss_fn

def main():
    name, batch = sys.argv[1], int(sys.argv[2])
    clip = "clip" in sys.argv[3:]
    model, x, y, opt, loss_fn = step_of(name, batch)
    model = model.to(dev); x = x.to(dev); y = y.to(dev)
    o = opt(model.parameters())
    # one step first so optimizer state exists (Adam moments, momentum buffers)
    for _ in range(2):
        xm.mark_step()
        o.zero_grad(set_to_none=True)
        loss = loss_fn(model, x, y)
        loss.backward()
        if clip: torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        o.step()
        if _ == 0: xm.mark_step()
    state = [t for st in o.state.values() for t in st.values() if torch.is_tensor(t)] + list(model.buffers())
    print(xm.get_stablehlo(list(model.parameters()) + state + [loss]))

main()
