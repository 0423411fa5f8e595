// The facts about one event worth a glance (tooltip) or a heading (details): duration, start
// relative to the report, launch configuration or bytes. Shared so both say the same thing.

import {formatBytes, formatCount, formatDuration} from './format.js';

/** [[label, value]] for a timeline slice, enriched by its event() row when known. */
export function sliceFacts(slice, origin, detail) {
  const facts = [
    ['Duration', formatDuration(slice.e - slice.s)],
    ['Start', formatDuration(slice.s - origin)],
    ['Type', slice.type],
  ];
  if (detail) facts.push(...configFacts(detail));
  return facts;
}

/** Grid/block and registers of a kernel row, bytes of a copy or memset. */
export function configFacts(detail) {
  const facts = [];
  if (detail.grid_x !== undefined) {
    facts.push(['Grid', `(${detail.grid_x}, ${detail.grid_y}, ${detail.grid_z})`]);
    facts.push(['Block', `(${detail.block_x}, ${detail.block_y}, ${detail.block_z})`]);
  }
  if (detail.registers_per_thread !== undefined)
    facts.push(['Registers', String(detail.registers_per_thread)]);
  if (detail.bytes !== undefined)
    facts.push(['Bytes', `${formatBytes(detail.bytes)} (${formatCount(detail.bytes)} B)`]);
  return facts;
}

/** [[label, value]] for a merged bucket. */
export function bucketFacts(bucket, origin) {
  return [
    ['Events', formatCount(bucket.count)],
    ['Busy', formatDuration(bucket.busy)],
    ['From', formatDuration(bucket.s - origin)],
    ['To', formatDuration(bucket.e - origin)],
  ];
}
