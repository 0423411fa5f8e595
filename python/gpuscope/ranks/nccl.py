"""NCCL's kernels and the matching of collectives across ranks: the same rules as the C++
side (src/analysis/ranks/collectives.h), so both engines match the same kernels."""

from dataclasses import dataclass

_DEV_KERNEL_PREFIX = "ncclDevKernel_"  # NCCL 2.19 and later
_KERNEL_PREFIX = "ncclKernel_"  # NCCL 2.5 to 2.18
_NCCL_PREFIX = "nccl"  # older: ncclAllReduceRingLLKernel_sum_f32
# Longer names first where one starts with another (ReduceScatter/Reduce, SendRecv/Send).
_KINDS = ("AllReduce", "AllGather", "ReduceScatter", "Broadcast", "SendRecv", "Send", "Recv",
          "Reduce")


def _function_name(name):
    """The source name inside an Itanium mangled name (_Z<length><name>), or a demangled
    name without a leading return type and without its parameters."""
    if name.startswith("_Z"):
        pos = 3 if name[2:3] == "L" else 2  # L: internal linkage
        digits = pos
        while digits < len(name) and name[digits].isdigit() and name[digits].isascii():
            digits += 1
        if digits == pos:
            return ""
        length = int(name[pos:digits])
        if length > len(name) - digits:
            return ""
        return name[digits:digits + length]
    if name.startswith("void "):
        name = name[5:]
    cut = min((i for i in (name.find("("), name.find("<")) if i >= 0), default=len(name))
    return name[:cut]


def _nccl_suffix(name):
    function = _function_name(name)
    for prefix in (_DEV_KERNEL_PREFIX, _KERNEL_PREFIX):
        if function.startswith(prefix):
            return function[len(prefix):]
    if function.startswith(_NCCL_PREFIX) and "Kernel" in function:
        return function[len(_NCCL_PREFIX):]
    return None


def is_nccl_kernel(mangled_or_demangled):
    return _nccl_suffix(mangled_or_demangled) is not None


def collective_kind(mangled_or_demangled):
    """"AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "SendRecv", "Send",
    "Recv", or "Other" (also for a kernel that is not NCCL's)."""
    suffix = _nccl_suffix(mangled_or_demangled)
    if suffix is None:
        return "Other"
    return next((kind for kind in _KINDS if suffix.startswith(kind)), "Other")


@dataclass(frozen=True)
class Collective:
    """One NCCL kernel of one rank (times absolute ns on the report's own clock)."""
    kind: str
    start: int
    end: int


@dataclass
class MatchedCollective:
    """The `ordinal`-th kernel of `kind` on every rank; event[r] indexes rank r's list."""
    kind: str
    ordinal: int
    event: list


def match_collectives(per_rank):
    """Every rank launches a communicator's collectives in the same order, so the k-th kernel
    of a kind on one rank is the k-th on every other: per rank the events are taken in start
    order (ties keep the list's order), numbered per kind, and the k-th of each kind is matched
    where every rank has one (the common prefix). Result in the first rank's start order."""
    if not per_rank:
        return []
    by_kind = []
    first_rank_position = {}
    for r, events in enumerate(per_rank):
        order = sorted(range(len(events)), key=lambda i: events[i].start)  # stable
        kinds = {}
        for position, index in enumerate(order):
            kinds.setdefault(events[index].kind, []).append(index)
            if r == 0:
                first_rank_position[index] = position
        by_kind.append(kinds)
    matched = []
    for kind, first_events in by_kind[0].items():
        common = min(len(kinds.get(kind, ())) for kinds in by_kind)
        for k in range(min(common, len(first_events))):
            matched.append(MatchedCollective(kind, k, [kinds[kind][k] for kinds in by_kind]))
    matched.sort(key=lambda c: first_rank_position[c.event[0]])
    return matched
