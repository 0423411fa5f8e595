"""gpuscope.ranks on synthetic multi-rank jobs: the alignment recovers the planted host clock
offsets, the breakdown adds up to what the reports hold, the straggler is named."""

import pytest

import gpuscope
from gpuscope.ranks import collective_kind, is_nccl_kernel
from report_fixtures import ALLREDUCE, BASE_NS, RankJob, ReportFile, write_rank_reports


def test_nccl_kernels_are_recognised_mangled_or_demangled():
    assert is_nccl_kernel(ALLREDUCE)
    assert collective_kind(ALLREDUCE) == "AllReduce"
    assert collective_kind("_Z28ncclKernel_ReduceScatter_RING_LL_Sum_f32P11ncclDevComm") == \
        "ReduceScatter"
    assert collective_kind("void ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)") == \
        "SendRecv"
    assert collective_kind("ncclAllReduceRingLLKernel_sum_f32(ncclColl)") == "AllReduce"
    assert not is_nccl_kernel("_Z11gemm_kernelPKfS0_Pfi")
    assert not is_nccl_kernel("nccl_helper(int)")  # no "Kernel": not NCCL's
    assert collective_kind("gemm_kernel") == "Other"


@pytest.fixture
def job_with_straggler(schema, tmp_path):
    job = RankJob(ranks=8, ranks_per_host=4, host_clock_offset_ns=[0, 7_000_000], steps=6,
                  kernels_per_step=10, straggler_rank=5, straggler_delay_ns=400_000,
                  jitter_ns=0)
    return job, write_rank_reports(job, str(tmp_path), schema)


def test_alignment_recovers_the_host_offsets(job_with_straggler):
    job, paths = job_with_straggler
    align = gpuscope.ranks.analyze(paths, engine="local").rank_align
    assert list(align["Rank"]) == list(range(8))
    assert list(align["Host"]) == ["node00"] * 4 + ["node01"] * 4
    # Times of the second host were shifted by +7 ms: the offset to add is -7 ms, exactly
    # (the all-reduces end together in true time), with no residual.
    assert list(align["Offset (ns)"]) == [0] * 4 + [-job.host_clock_offset_ns[1]] * 4
    assert list(align["Error (ns)"]) == [0] * 8  # no clock samples: no spread
    assert list(align["Method"]) == ["reference"] + ["same host"] * 3 + \
        [f"collectives ({job.steps} matched)"] * 4


def test_breakdown_adds_up_to_the_reports(job_with_straggler):
    job, paths = job_with_straggler
    result = gpuscope.ranks.analyze(paths, engine="local")
    comm = result.rank_comm_sum.set_index("Rank")
    for rank, path in enumerate(paths):
        with gpuscope.open(path) as report:
            kernels = report.kernels(columns=["name", "start", "end"])
            copies = [report.memcpys(), report.memsets()]
        nccl = kernels["name"].map(is_nccl_kernel)
        durations = kernels["end"] - kernels["start"]
        row = comm.loc[rank]
        # The synthetic kernels of a rank never overlap one another.
        assert row["Compute (ns)"] == durations[~nccl].sum()
        assert row["Communication (ns)"] == durations[nccl].sum()
        assert row["Overlap (ns)"] == 0 and row["Exposed (ns)"] == row["Communication (ns)"]
        activity_start = min(kernels["start"].min(), *(c["start"].min() for c in copies))
        assert row["Span (ns)"] == kernels["end"].max() - activity_start
        busy = durations.sum() + sum((c["end"] - c["start"]).sum() for c in copies)
        assert row["Idle host (ns)"] + row["Idle other (ns)"] == row["Span (ns)"] - busy
        # Each step's first launch call starts after the gap before it began.
        assert row["Idle host (ns)"] >= job.steps * 1_000
        assert row["Idle other (ns)"] > 0
    # Every rank but the straggler waits for it in every step; it waits for no one.
    assert comm.loc[5, "Wait on ranks (ns)"] == 0
    assert (comm.drop(index=5)["Wait on ranks (ns)"] == job.steps * job.straggler_delay_ns).all()


def test_the_straggler_is_named(job_with_straggler):
    job, paths = job_with_straggler
    findings = gpuscope.ranks.analyze(paths, engine="local").findings
    stragglers = [f for f in findings if f.rule_id == "rank_straggler"]
    assert len(stragglers) == 1
    assert stragglers[0].rank == 5
    assert "rank 5 (node01, 2005) started its NCCL kernel last in 6 of 6" in stragglers[0].message
    assert stragglers[0].time_ns == 7 * job.steps * job.straggler_delay_ns
    assert any(f.rule_id == "exposed_communication" for f in findings)


def test_idle_gaps_are_the_hosts_when_the_launch_call_began_inside_them(schema, tmp_path):
    path = str(tmp_path / "gaps.sqlite")
    report = ReportFile(path, schema, start=0, end=1_000_000, rank=0)
    report.add_launch("a", 50, 100, 200)
    report.add_launch("b", 250, 300, 400)  # call inside the gap 200-300: host, 100 ns
    report.add_launch("c", 150, 500, 600)  # call before the gap 400-500: other
    d = report.add_launch("d", None, 700, 800)  # gap 600-700: only a nested driver call
    report.add_api_call("cuLaunchKernel", 650, d, nested=1)  # inside it: does not count
    e = report.add_launch("e", None, 900, 1000)  # gap 800-900: a call after the kernel began
    report.add_api_call("cudaLaunchKernel", 950, e)  # does not count either
    report.add_memcpy(1000, 1100)  # no gap, no call: nothing to count
    report.close()
    row = gpuscope.ranks.analyze([path]).rank_comm_sum.iloc[0]
    assert row["Idle host (ns)"] == 100
    assert row["Idle other (ns)"] == 300
    assert row["Span (ns)"] == 1000 and row["Compute (ns)"] == 500


def test_overlap_of_communication_with_compute(schema, tmp_path):
    path = str(tmp_path / "overlap.sqlite")
    report = ReportFile(path, schema, start=0, end=1_000_000, rank=0)
    report.add_launch("gemm", 10, 100, 400)
    report.add_launch("gemm", 10, 350, 500)  # overlaps the first: compute is their union
    report.add_launch(ALLREDUCE, 10, 450, 700, stream=13)  # 50 ns beside compute
    report.add_launch(ALLREDUCE, 10, 650, 750, stream=14)  # overlaps the first all-reduce
    report.close()
    row = gpuscope.ranks.analyze([path]).rank_comm_sum.iloc[0]
    assert row["Compute (ns)"] == 400
    assert row["Communication (ns)"] == 300
    assert row["Overlap (ns)"] == 50 and row["Exposed (ns)"] == 250
    assert row["Span (ns)"] == 650 and row["Idle host (ns)"] + row["Idle other (ns)"] == 0


def test_without_collectives_the_clock_samples_align_the_hosts(schema, tmp_path):
    # CUPTI's clock stands 100 ns (median; 90 to 120) after CLOCK_REALTIME on host A and
    # 7,000,050 ns after it on host B: B's times need 100 - 7,000,050 ns.
    differences = {"A": [100, 120, 90], "B": [7_000_050, 7_000_040, 7_000_060, 7_000_070]}
    paths = []
    for rank, host in enumerate(["A", "A", "B"]):
        path = str(tmp_path / f"r{rank}.sqlite")
        report = ReportFile(path, schema, hostname=host, start=0, end=10_000_000, rank=rank)
        report.add_launch("gemm", 10, 1_000, 2_000)
        for i, difference in enumerate(differences[host]):
            cupti = 1_000 * i
            report.add_clock_sample(cupti, BASE_NS + cupti - difference, device_id=i % 2 or None)
        report.add_clock_sample(0, BASE_NS, device_id=-1)  # no device has id -1: left out
        report.close()
        paths.append(path)
    align = gpuscope.ranks.analyze(paths).rank_align
    assert list(align["Offset (ns)"]) == [0, 0, 100 - 7_000_050]
    assert list(align["Error (ns)"]) == [30, 30, -1]
    assert list(align["Method"]) == ["reference", "same host", "clock samples only"]


def test_no_straggler_without_a_late_rank(schema, tmp_path):
    job = RankJob(ranks=4, ranks_per_host=2, steps=4, kernels_per_step=6, jitter_ns=0)
    paths = write_rank_reports(job, str(tmp_path), schema)
    findings = gpuscope.ranks.analyze(paths, engine="local").findings
    assert not [f for f in findings if f.rule_id == "rank_straggler"]


def test_many_ranks_and_hosts(schema, tmp_path):
    offsets = [0, -3_000_000, 11_000_000, 250_000, -42_000, 5_000_000, 1, 900_000_000]
    job = RankJob(ranks=64, ranks_per_host=8, host_clock_offset_ns=offsets, steps=3,
                  kernels_per_step=4, straggler_rank=42, straggler_delay_ns=300_000)
    paths = write_rank_reports(job, str(tmp_path), schema)
    result = gpuscope.ranks.analyze(paths, engine="local", workers=2)
    assert list(result.rank_align["Offset (ns)"]) == [-offsets[r // 8] for r in range(64)]
    assert [f.rank for f in result.findings if f.rule_id == "rank_straggler"] == [42]


def test_unknown_engine_and_empty_input():
    with pytest.raises(ValueError, match="unknown engine 'spark'"):
        gpuscope.ranks.analyze(["a.sqlite"], engine="spark")
    with pytest.raises(ValueError, match="at least one report"):
        gpuscope.ranks.analyze([])


def test_a_damaged_report_among_them_is_named(job_with_straggler):
    _, paths = job_with_straggler
    with open(paths[3], "r+b") as f:
        f.write(b"garbage!" * 64)
    with pytest.raises(gpuscope.ReportError, match="rank0003.sqlite"):
        gpuscope.ranks.analyze(paths, engine="local")
