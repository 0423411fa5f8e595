"""Keeps NVLink multicast (NVLS) off in the NCCL examples. Imported before torch, it sets the
switches that NCCL, PyTorch's symmetric memory and NVSHMEM read when they start, so that no
process of the job calls cuMulticastCreate: the multi-GPU machines these examples run on must
not use multicast objects. Set whatever the caller's environment says."""
import os

MULTICAST_OFF = {
    "NCCL_NVLS_ENABLE": "0",
    "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
    "NVSHMEM_DISABLE_NVLS": "1",
}

os.environ.update(MULTICAST_OFF)
