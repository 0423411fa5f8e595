// Writes a real gpuscope report (the schema the writer creates, as print_report_schema prints
// it, filled with the sqlite3 shell) for the tests that run the real binary: one process, a GPU
// with two streams, kernels (two with hostile names), a copy, a memset, their API calls linked
// by correlation ids, nested NVTX ranges and device memory allocations. `variant` 'slow'
// doubles some kernels. With `rank`, the report is one rank of a job on host `host` (its boot
// id is the host name) whose clock reads `clockShift` ns ahead: after the burst, three NCCL
// all-reduce kernels on stream 13 that start when the rank arrives and end at one moment on
// every rank (what the alignment measures).

import {execFileSync} from 'node:child_process';
import {rmSync} from 'node:fs';

export const kHostileScript = '<script>alert(1)</script>';
export const kHostileImage = '<img src=x onerror=alert(1)>';
// Absolute ns of relative time 0: a real CUPTI clock value, larger than JS numbers hold exactly
// (2^53), so the tests see times the way real reports have them.
export const kTimeBase = 1_760_000_000_000_000_000n;

const quote = (text) => '\'' + String(text).replace(/'/g, '\'\'') + '\'';

/** Writes the report to `file` (replacing it); returns facts the tests check against. */
export function writeSqlReport(
    file, {pid = 4242, variant = 'fast', rank = null, host = 'node1', clockShift = 0n} = {}) {
  const schema = execFileSync(process.env.GPUSCOPE_PRINT_REPORT_SCHEMA, {encoding: 'utf8'});
  const sql = [schema, 'BEGIN;'];
  const strings = [];
  const stringId = (value, demangled = null) => {
    let id = strings.findIndex((s) => s.value === value) + 1;
    if (id === 0) {
      strings.push({value, demangled});
      id = strings.length;
    }
    return id;
  };
  sql.push(`UPDATE meta SET value = '${kTimeBase + clockShift}' WHERE key = 'time_base_ns';`);
  // A process that ended normally: finalised and closed by its writer (no "ended abruptly").
  sql.push(`UPDATE meta SET value = '1' WHERE key IN ('finalized', 'closed_by_writer');`);
  sql.push(
      `INSERT INTO devices VALUES (0, 'NVIDIA H200', 'GPU-00000000-0000-0000-0000-000000000000', 9, 0, 132, 32, 1024, 64, 32,
    65536, 65536, 233472, 49152, 232448, 150754820096, 4800000000, 1980000, 52428800, 4294967295, 1, 0);`);
  sql.push('INSERT INTO contexts VALUES (1, 0, 7);');
  sql.push('INSERT INTO streams VALUES (7, 1, 0, 0), (13, 1, 0, 1);');

  let t = 1_000;
  let correlation = 100;
  let apiId = 0;
  const launchName = stringId('cudaLaunchKernel');
  const api = (name, start, end) => {
    apiId++;
    correlation++;
    sql.push(`INSERT INTO api_calls VALUES (${apiId}, 1, 211, ${name}, ${start}, ${end}, ${pid}, ${
        pid}, ${correlation}, 0, 0, NULL);`);  // stack_id: no call stack
    return correlation;
  };
  const kernels = [];  // {id, name, start, end (relative), stream}
  const kernel = (name, demangled, stream, start, end, corr, grid) => {
    const id = kernels.length + 1;
    kernels.push({id, name: demangled || name, start, end, stream});
    sql.push(`INSERT INTO kernels VALUES (${id}, ${stringId(name, demangled || name)}, ${start}, ${
        end}, 0, 1, ${stream}, ${corr},
      ${id}, ${grid}, 1, 1, 256, 1, 1, 0, 0, 0, 32, 0, 0, 32768, 0, 0, 0, 0, 0, 0, 0);`);
  };
  sql.push(`INSERT INTO memory VALUES (1, 500, 1, 3, 139637976727552, 4194304, 0, 1, 4294967295, ${
      correlation + 1}, 0, 0);`);
  const mallocCorr = api(stringId('cudaMalloc'), t, t + 20_000);
  void mallocCorr;
  t += 22_000;
  const copyCorr = api(stringId('cudaMemcpy'), t, t + 8_000);
  sql.push(`INSERT INTO memcpys VALUES (1, ${t + 2_000}, ${t + 7_000}, 0, 1, 7, ${
      copyCorr}, 0, 1, 1, 3, 0, 4194304, 0, 0, 0, 0);`);
  t += 10_000;
  const setCorr = api(stringId('cudaMemset'), t, t + 3_000);
  sql.push(`INSERT INTO memsets VALUES (1, ${t + 1_000}, ${t + 2_500}, 0, 1, 7, ${
      setCorr}, 0, 3, 0, 1048576, 0, 0);`);
  t += 5_000;
  const names = [
    ['_Z3addiiPi', 'add(int, int, int*)'], [kHostileScript, null], [kHostileImage, null],
    ['_Z6matmulPKfS0_Pf', 'matmul(float const*, float const*, float*)']
  ];
  for (let i = 0; i < 8; i++) {
    const [name, demangled] = names[i % names.length];
    const corr = api(launchName, t, t + 3_000);
    const duration = (variant === 'slow' && i % 4 === 0 ? 2 : 1) * (4_000 + 500 * i);
    kernel(name, demangled, 7, t + 2_000, t + 2_000 + duration, corr, 64 * (1 + (i % 2)));
    t += 3_000 + duration;
  }
  const burst = t;
  for (let i = 0; i < 300; i++) {
    const corr = api(launchName, t, t + 40);
    kernel('_Z4tinyPf', 'tiny(float*)', 13, t + 60, t + 160, corr, 1);
    t += 200;
  }
  if (rank !== null) {
    const allReduce = ['_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE',
                       'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)'];
    for (let k = 0; k < 3; k++) {
      const end = t + 20_000;
      const corr = api(launchName, t, t + 500);
      kernel(allReduce[0], allReduce[1], 13, t + 1_000 + 700 * rank, end, corr, 1);
      t = end + 1_000;
    }
  }
  api(stringId('cudaDeviceSynchronize'), t, t + 2_000);
  t += 3_000;
  sql.push(`INSERT INTO memory VALUES (2, ${
      t - 1_000}, 2, 3, 139637976727552, 4194304, 0, 1, 4294967295, 0, 0, 0);`);
  sql.push(`INSERT INTO nvtx VALUES (1, 1, 500, ${t - 500}, 1, ${
      stringId('training step')}, NULL, ${pid}, ${pid}, 0, 0);`);
  sql.push(`INSERT INTO nvtx VALUES (2, 1, ${burst - 100}, ${t - 3_000}, 2, ${
      stringId('tiny burst')}, NULL, ${pid}, ${pid}, 0, 0);`);
  sql.push(`UPDATE process SET pid = ${pid}, parent_pid = 1, hostname = ${quote(host)}, command_line = ${
      quote('./app --variant ' + variant)},
    start = 0, "end" = ${t};`);
  if (rank !== null) {
    sql.push(`UPDATE process SET rank = ${rank}, boot_id = ${quote(host)}, rank_variable = 'RANK';`);
  }
  for (const [id, s] of strings.entries()) {
    sql.push(`INSERT INTO strings VALUES (${id + 1}, ${quote(s.value)}, ${
        s.demangled === null ? 'NULL' : quote(s.demangled)});`);
  }
  sql.push('COMMIT;');
  rmSync(file, {force: true});
  execFileSync('sqlite3', [file], {input: sql.join('\n')});
  return {pid, end: t, kernels, apiCalls: apiId};  // times relative to kTimeBase
}
