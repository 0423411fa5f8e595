"""The reduction step: every rank's RankData -> the tables `gpuscope stats --report
rank_align,rank_comm_sum` prints and the multi-rank findings. Runs in one task."""

from dataclasses import dataclass, field
from statistics import median_low

import pandas as pd

from gpuscope.ranks.alignment import align, rank_order
from gpuscope.ranks.nccl import match_collectives

RANK_ALIGN_COLUMNS = ["Rank", "Host", "PID", "Offset (ns)", "Error (ns)", "Method",
                      "GPU - host (ns)", "GPU spread (ns)"]
RANK_COMM_SUM_COLUMNS = ["Rank", "Host", "PID", "Span (ns)", "Compute (ns)",
                         "Communication (ns)", "Overlap (ns)", "Exposed (ns)", "Idle host (ns)",
                         "Idle other (ns)", "Wait on ranks (ns)"]

STRAGGLER_MIN_SHARE = 0.5  # last in at least half the matched collectives
STRAGGLER_MIN_LOST = 0.01  # of the mean span
STRAGGLER_OPT_LOST = 0.05  # from here the finding is OPT, below INF
IMBALANCE_THRESHOLD = 0.10  # compute max vs median
EXPOSED_THRESHOLD = 0.10  # of the rank's span


@dataclass
class Finding:
    """A multi-rank finding (the C++ analysis::Finding's rule ids and severities)."""
    rule_id: str  # rank_straggler, rank_imbalance, exposed_communication
    severity: str  # "OPT", "INF" (ncu's spelling, as the C++ findings)
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
    """"rank N (host, pid)", or "host, pid" when the rank is unknown (the C++ RankLabel)."""
    where = f"{r.host}, {r.pid}"
    return f"rank {r.rank} ({where})" if r.rank is not None else where


def reduce_ranks(ranks):
    """All ranks' RankData (any order) -> RankAnalysis."""
    ranks = rank_order(ranks)
    matched = match_collectives([r.collectives for r in ranks])
    clocks = align(ranks, matched)
    # Per matched collective, each rank's aligned start: who waits, who is last.
    wait = [0] * len(ranks)
    last_count = [0] * len(ranks)
    last_kinds = [{} for _ in ranks]
    lost = [0] * len(ranks)
    for collective in matched:
        starts = [r.collectives[i].start + c.offset_ns
                  for r, c, i in zip(ranks, clocks, collective.event)]
        latest = max(starts)
        last = starts.index(latest)
        last_count[last] += 1
        last_kinds[last][collective.kind] = last_kinds[last].get(collective.kind, 0) + 1
        for index, start in enumerate(starts):
            wait[index] += latest - start
            lost[last] += latest - start
    align_table = pd.DataFrame(
        [[c.rank, c.host, c.pid, c.offset_ns, c.error_ns, c.method, c.gpu_minus_realtime,
          c.gpu_spread] for c in clocks],
        columns=RANK_ALIGN_COLUMNS)
    for column in ("Rank", "GPU - host (ns)", "GPU spread (ns)"):
        align_table[column] = align_table[column].astype("Int64")
    comm_rows = []
    for r, waited in zip(ranks, wait):
        b = r.breakdown
        comm_rows.append([r.rank, r.host, r.pid, b.span, b.compute, b.communication, b.overlap, b.exposed,
                          b.idle_host, b.idle_other, waited])
    comm_table = pd.DataFrame(comm_rows, columns=RANK_COMM_SUM_COLUMNS)
    comm_table["Rank"] = comm_table["Rank"].astype("Int64")
    findings = _straggler(ranks, matched, last_count, lost, last_kinds)
    findings += _imbalance(ranks) + _exposed(ranks)
    return RankAnalysis(align_table, comm_table, findings, clocks)


def _percent(share):
    return f"{100.0 * share:.1f}%"


def _straggler(ranks, matched, last_count, lost, last_kinds):
    """The rank the others lost most time waiting for (its start minus theirs, over the
    collectives where it arrived last); named when it was last in at least half of them and
    the others' loss reaches 1% of the mean span (OPT from 5%, else INF)."""
    if not matched or len(ranks) < 2:
        return []
    worst = max(range(len(ranks)), key=lambda i: (lost[i], -i))
    mean_span = sum(r.breakdown.span for r in ranks) // len(ranks)
    share_last = last_count[worst] / len(matched)
    loss = lost[worst] / mean_span if mean_span else 0.0
    if share_last < STRAGGLER_MIN_SHARE or loss < STRAGGLER_MIN_LOST:
        return []
    r = ranks[worst]
    others = len(ranks) - 1
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(last_kinds[worst].items()))
    message = (f"{_label(r)} started its NCCL kernel last in "
               f"{last_count[worst]} of {len(matched)} matched collectives "
               f"({_percent(share_last)}: {kinds}); the other {others} ranks lost "
               f"{lost[worst]} ns waiting for it there ({lost[worst] // others} ns per rank on "
               f"average, {_percent(loss / others)} of the mean span)")
    severity = "OPT" if loss >= STRAGGLER_OPT_LOST else "INF"
    return [Finding("rank_straggler", severity, "Straggler rank in collectives", message,
                    r.rank, r.path, lost[worst])]


def _imbalance(ranks):
    """The busiest rank's compute more than 10% above the median rank's."""
    if len(ranks) < 2:
        return []
    computes = [r.breakdown.compute for r in ranks]
    middle = median_low(computes)
    top = max(range(len(ranks)), key=lambda i: (computes[i], -i))
    if middle <= 0 or computes[top] <= middle:
        return []
    excess = (computes[top] - middle) / middle
    if excess <= IMBALANCE_THRESHOLD:
        return []
    r = ranks[top]
    message = (f"{_label(r)} computed for {computes[top]} ns (kernels "
               f"other than NCCL's), {_percent(excess)} more than the median rank's {middle} ns; "
               "the ranks that finish first wait for it in the next collective")
    return [Finding("rank_imbalance", "OPT", "Compute imbalance across ranks", message, r.rank,
                    r.path, computes[top] - middle)]


def _exposed(ranks):
    """One finding for the ranks whose NCCL kernels overlapped no compute for more than 10%
    of their span, naming the worst."""
    def share(r):
        return r.breakdown.exposed / r.breakdown.span if r.breakdown.span else 0.0

    exposed = [r for r in ranks if share(r) > EXPOSED_THRESHOLD]
    if not exposed:
        return []
    worst = max(exposed, key=share)  # the first of equal shares
    total = sum(r.breakdown.exposed for r in exposed)
    b = worst.breakdown
    message = (f"{len(exposed)} of {len(ranks)} ranks spent more than "
               f"{_percent(EXPOSED_THRESHOLD)} of their span in NCCL kernels that no compute "
               f"kernel overlapped ({total} ns in all); the most: {_label(worst)}, "
               f"{b.exposed} ns exposed of {b.communication} ns communication, "
               f"{_percent(share(worst))} of its span")
    return [Finding("exposed_communication", "OPT", "Exposed communication", message, worst.rank,
                    worst.path, total)]
