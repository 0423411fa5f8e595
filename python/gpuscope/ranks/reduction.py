"""The reduction step: every rank's RankData -> the tables `gpuscope stats --report
rank_align,rank_comm_sum` prints and the multi-rank findings. Runs in one task."""

from dataclasses import dataclass, field
from statistics import median_low

import pandas as pd

from gpuscope.ranks.alignment import align, rank_order
from gpuscope.ranks.nccl import match_collectives

RANK_ALIGN_COLUMNS = ["Rank", "Host", "PID", "Offset (ns)", "Error (ns)", "Method"]
RANK_COMM_SUM_COLUMNS = ["Rank", "Host", "PID", "Span (ns)", "Compute (ns)",
                         "Communication (ns)", "Overlap (ns)", "Exposed (ns)", "Idle host (ns)",
                         "Idle other (ns)", "Wait on ranks (ns)"]

STRAGGLER_MIN_SHARE = 0.5  # last in at least half the matched collectives
STRAGGLER_MIN_LOST = 0.01  # of the mean span
IMBALANCE_THRESHOLD = 0.10  # compute max vs median
EXPOSED_THRESHOLD = 0.10  # of the rank's span


@dataclass
class Finding:
    """A multi-rank finding (the C++ analysis::Finding's rule ids and severities)."""
    rule_id: str  # rank_straggler, rank_imbalance, exposed_communication
    severity: str  # "WRN", "OPT", "INF"
    title: str
    message: str
    rank: object = None  # the rank it names (None: unknown rank, see `path`)
    path: str = ""
    time_ns: int = 0  # the time at stake


@dataclass
class RankAnalysis:
    rank_align: pd.DataFrame
    rank_comm_sum: pd.DataFrame
    findings: list = field(default_factory=list)
    clocks: list = field(default_factory=list)  # RankClock per report, in rank order


def _label(r):
    return f"rank {r.rank}" if r.rank is not None else r.path


def reduce_ranks(ranks):
    """All ranks' RankData (any order) -> RankAnalysis."""
    ranks = rank_order(ranks)
    matched = match_collectives([r.collectives for r in ranks])
    clocks = align(ranks, matched)
    # Per matched collective, each rank's aligned start: who waits, who is last.
    wait = [0] * len(ranks)
    last_count = [0] * len(ranks)
    lost = [0] * len(ranks)
    for collective in matched:
        starts = [r.collectives[i].start + c.offset_ns
                  for r, c, i in zip(ranks, clocks, collective.event)]
        latest = max(starts)
        last = starts.index(latest)
        last_count[last] += 1
        for index, start in enumerate(starts):
            wait[index] += latest - start
            lost[last] += latest - start
    align_table = pd.DataFrame(
        [[c.rank, c.host, c.pid, c.offset_ns, c.error_ns, c.method] for c in clocks],
        columns=RANK_ALIGN_COLUMNS)
    align_table["Rank"] = align_table["Rank"].astype("Int64")
    comm_rows = []
    for r, waited in zip(ranks, wait):
        b = r.breakdown
        comm_rows.append([r.rank, r.host, r.pid, b.span, b.compute, b.communication, b.overlap, b.exposed,
                          b.idle_host, b.idle_other, waited])
    comm_table = pd.DataFrame(comm_rows, columns=RANK_COMM_SUM_COLUMNS)
    comm_table["Rank"] = comm_table["Rank"].astype("Int64")
    findings = _straggler(ranks, matched, last_count, lost)
    findings += _imbalance(ranks) + _exposed(ranks)
    return RankAnalysis(align_table, comm_table, findings, clocks)


def _straggler(ranks, matched, last_count, lost):
    if not matched or len(ranks) < 2:
        return []
    worst = max(range(len(ranks)), key=lambda i: (lost[i], -i))
    mean_span = sum(r.breakdown.span for r in ranks) / len(ranks)
    if last_count[worst] < STRAGGLER_MIN_SHARE * len(matched) or lost[worst] <= 0 or \
            lost[worst] < STRAGGLER_MIN_LOST * mean_span:
        return []
    r = ranks[worst]
    kinds = sorted({c.kind for c in matched})
    message = (f"{_label(r)} ({r.host}, pid {r.pid}) arrived last in {last_count[worst]} of "
               f"{len(matched)} matched collectives ({', '.join(kinds)}); the other ranks lost "
               f"{lost[worst]} ns waiting for it ({100.0 * lost[worst] / mean_span:.1f}% of the "
               "mean span)")
    return [Finding("rank_straggler", "WRN", "Straggler rank", message, r.rank, r.path,
                    lost[worst])]


def _imbalance(ranks):
    computes = [r.breakdown.compute for r in ranks]
    if len(ranks) < 2:
        return []
    middle = median_low(computes)
    top = max(range(len(ranks)), key=lambda i: (computes[i], -i))
    if middle <= 0 or computes[top] - middle <= IMBALANCE_THRESHOLD * middle:
        return []
    r = ranks[top]
    message = (f"{_label(r)} ({r.host}) computes {computes[top]} ns, "
               f"{100.0 * (computes[top] - middle) / middle:.1f}% more than the median rank "
               f"({middle} ns): the others wait for it at every collective")
    return [Finding("rank_imbalance", "WRN", "Compute imbalance across ranks", message, r.rank,
                    r.path, computes[top] - middle)]


def _exposed(ranks):
    findings = []
    for r in ranks:
        b = r.breakdown
        if b.span > 0 and b.exposed > EXPOSED_THRESHOLD * b.span:
            message = (f"{_label(r)}: {b.exposed} ns of communication ({100.0 * b.exposed / b.span:.1f}% "
                       f"of its span) overlaps no compute; of {b.communication} ns of NCCL "
                       f"kernels, {b.overlap} ns run beside compute")
            findings.append(Finding("exposed_communication", "OPT", "Exposed communication",
                                    message, r.rank, r.path, b.exposed))
    return findings
