"""The clock alignment of many reports: the same rules, step for step, as the C++ side
(src/analysis/ranks, `gpuscope stats --report rank_align`), so both give the same numbers.

- Reports in rank order (unknown ranks after, by path); the first is the reference, its host
  (boot id, else hostname) the reference host.
- Same host as the reference: offset 0, error = the spread of (cupti - realtime) in the
  report's clock samples; method "reference" for the reference itself, else "same host".
- Another host with matched collectives: per collective, its end on a host is the latest
  end among that host's reports; offset = median over the collectives of (end on the
  reference host - end on this host), error = the largest |residual|.
- Another host without: offset = c_ref - c_r (c: median of cupti - realtime; 0 when either
  has no samples), error -1 (unknown), method "clock samples only".
Medians are the lower middle value (integers stay integers).
"""

from dataclasses import dataclass
from statistics import median_low

from gpuscope.ranks.nccl import match_collectives


@dataclass
class RankClock:
    path: str
    rank: object
    host: str
    pid: int
    offset_ns: int  # add to the report's times
    error_ns: int  # bound on the residual; -1 unknown
    method: str
    gpu_minus_realtime: object = None  # the report's GPU pairs (RankData), None without
    gpu_spread: object = None


def rank_order(ranks):
    """Ranks ascending, unknown ranks after, by path."""
    return sorted(ranks, key=lambda r: (r.rank is None, r.rank if r.rank is not None else 0,
                                        r.path))


def align(ranks, matched=None):
    """`ranks` (RankData) in rank_order; returns one RankClock per report, same order."""
    if not ranks:
        return []
    if matched is None:
        matched = match_collectives([r.collectives for r in ranks])
    reference = ranks[0]
    host_offsets = _collective_offsets(ranks, matched, reference.host_key)
    clocks = []
    for i, r in enumerate(ranks):
        if r.host_key == reference.host_key:
            offset, error = 0, r.clock_spread
            method = "reference" if i == 0 else "same host"
        elif host_offsets.get(r.host_key) is not None:
            offset, error = host_offsets[r.host_key]
            method = f"collectives ({len(matched)} matched)"
        else:
            both = reference.clock_offset is not None and r.clock_offset is not None
            offset = reference.clock_offset - r.clock_offset if both else 0
            error, method = -1, "clock samples only"
        clocks.append(RankClock(r.path, r.rank, r.host, r.pid, offset, error, method,
                                r.gpu_minus_realtime, r.gpu_spread))
    return clocks


def _collective_offsets(ranks, matched, reference_host):
    """{host: (offset, error)} of every other host against the reference host from the matched
    collectives' ends ({} when nothing was matched). One pass over the ranks per collective
    (the hosts' ends of it together), not one per host: 512 ranks on 128 hosts would make that
    128 x 512 steps per collective."""
    if not matched:
        return {}
    hosts = [r.host_key for r in ranks]
    differences = {host: [] for host in set(hosts) - {reference_host}}
    for collective in matched:
        ends = {}
        for host, r, index in zip(hosts, ranks, collective.event):
            end = r.collectives[index].end
            if end > ends.get(host, end - 1):
                ends[host] = end
        reference_end = ends[reference_host]
        for host, found in differences.items():
            found.append(reference_end - ends[host])
    offsets = {}
    for host, found in differences.items():
        offset = median_low(found)
        offsets[host] = (offset, max(abs(d - offset) for d in found))
    return offsets
