"""Weights of an exported (ONNX) net back into its torch module, to train on from it (scripts/train_dicenet.py
``--start``). The export folds each batch norm into its convolution, so the module is built ``folded``."""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn


def load_onnx(net: nn.Module, path: Path) -> nn.Module:
    """``net`` (built ``folded``) with the weights of the exported net ``path``: its convolutions in order,
    its dense layers and head by name."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    init = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    mine = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    assert len(convs) == len(mine), f"{path}: {len(convs)} convolutions, the net has {len(mine)}"
    state = {}
    names = {id(m): k for k, m in net.named_modules()}
    for node, conv in zip(convs, mine):
        state[f"{names[id(conv)]}.weight"], state[f"{names[id(conv)]}.bias"] = init[node.input[1]], init[node.input[2]]
    state.update({k: v for k, v in init.items() if k in dict(net.named_parameters())})
    net.load_state_dict(state)
    print(f"started from {path}")
    return net
