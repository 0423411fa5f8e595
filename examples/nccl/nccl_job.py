"""What the NCCL examples share: NVLink multicast (NVLS) kept off, and joining torchrun's job.

Imported before torch, this module sets the switches that NCCL, PyTorch's symmetric memory
and NVSHMEM read when they start, so that no process of the job calls cuMulticastCreate: the
multi-GPU machines these examples run on must not use multicast objects. It overrides
whatever the caller's environment says.
"""
import os
import sys

MULTICAST_OFF = {
    "NCCL_NVLS_ENABLE": "0",
    "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
    "NVSHMEM_DISABLE_NVLS": "1",
}
os.environ.update(MULTICAST_OFF)

import torch  # noqa: E402  (after the switches above)
import torch.distributed as dist  # noqa: E402


def join(program):
    """Joins torchrun's job on this rank's GPU with NCCL: returns (rank, world size, device),
    or None after saying why on stderr (not under torchrun, no GPU)."""
    if "RANK" not in os.environ:
        print(f"{program}: run me under torchrun (RANK is not set)", file=sys.stderr)
        return None
    if not torch.cuda.is_available():
        print(f"{program}: no CUDA device visible to torch", file=sys.stderr)
        return None
    rank = int(os.environ["RANK"])
    device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0")))
    torch.cuda.set_device(device)
    dist.init_process_group("nccl", device_id=device)
    return rank, int(os.environ["WORLD_SIZE"]), device
