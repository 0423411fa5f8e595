"""The measure of a union of intervals, fed in start order chunk by chunk (bounded memory).

|union| = (last end - first start) - the gaps between them; a gap opens where an interval
starts after every earlier interval ended. Overlaps need no intersection pass:
|A ∩ B| = |A| + |B| - |A ∪ B|.
"""

import numpy as np


class UnionMeasure:
    def __init__(self):
        self.first = None  # earliest start
        self.reach = None  # latest end so far
        self.gaps = 0

    def add(self, starts, ends):
        """Adds intervals sorted by start (numpy int64 arrays, after every earlier chunk's).
        Returns (gap lengths, gap begins) per interval: the gap it ends (0 where none)."""
        if len(starts) == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        if self.first is None:
            self.first = int(starts[0])
            self.reach = int(starts[0])
        reach = np.maximum(np.maximum.accumulate(ends), self.reach)
        before = np.empty_like(reach)
        before[0] = self.reach
        before[1:] = reach[:-1]
        gaps = np.maximum(starts - before, 0)
        self.reach = int(reach[-1])
        self.gaps += int(gaps.sum())
        return gaps, before

    @property
    def extent(self):
        return 0 if self.first is None else self.reach - self.first

    @property
    def measure(self):
        return self.extent - self.gaps
