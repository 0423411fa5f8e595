"""python3 bench/rank_reduction_bench.py [ranks] [collectives]: times the Python engines'
reduction step (gpuscope.ranks.reduce_ranks) alone on synthetic per-rank results, as the Dask
engine's reduction task receives them (4 ranks per host, one all-reduce per step), and what
moving them between processes costs (pickle). No report is read. Default 512 and 4762 (the
matched collectives of scripts/bench-ranks.sh's 512 x 100,000 set)."""

import os
import pickle
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from gpuscope.ranks.nccl import Collective  # noqa: E402
from gpuscope.ranks.rank_read import Breakdown, RankData  # noqa: E402
from gpuscope.ranks.reduction import reduce_ranks  # noqa: E402


def main():
    ranks = int(sys.argv[1]) if len(sys.argv) > 1 else 512
    collectives = int(sys.argv[2]) if len(sys.argv) > 2 else 4762
    data = []
    for r in range(ranks):
        rank = RankData(f"rank{r:04}.sqlite", r, f"node{r // 4}", f"node{r // 4}", 30000 + r, 0, 0)
        rank.collectives = [Collective("AllReduce", 1_000_000 * k + r,
                                       1_000_000 * k + 500_000 + r // 4)
                            for k in range(collectives)]
        rank.breakdown = Breakdown(span=10**9, compute=5 * 10**8, communication=10**8, busy=6 * 10**8)
        data.append(rank)
    start = time.perf_counter()
    blob = pickle.dumps(data)
    written = time.perf_counter() - start
    start = time.perf_counter()
    pickle.loads(blob)
    read = time.perf_counter() - start
    start = time.perf_counter()
    reduce_ranks(data)
    reduced = time.perf_counter() - start
    print(f"{ranks} ranks x {collectives} collectives: reduce {reduced:.2f} s; "
          f"pickle {len(blob) / 2**20:.0f} MB, {written:.2f} s to write, {read:.2f} s to read")


if __name__ == "__main__":
    main()
