// Vertical layout of the timeline: group header rows (process, GPU, threads, NVTX) followed by
// their tracks, with the height each kind needs (NVTX rows grow with their nesting depth).

export const kRowHeight = 18;
export const kGroupHeight = 20;
export const kCounterHeight = 32;

/**
 * Rows in display order for the /api/tracks answer: [{type:'group', label, y, height}] and
 * [{type:'track', track, label, y, height, depths}]. `processLabel` heads every row.
 */
export function layoutRows(tracks, processLabel) {
  const rows = [];
  let y = 0;
  const push = (row) => {
    row.y = y;
    y += row.height;
    rows.push(row);
  };
  push({type: 'group', label: processLabel, height: kGroupHeight, level: 0});
  let group = null;
  for (const track of tracks) {
    if (track.group !== group) {
      group = track.group;
      push({type: 'group', label: String(group ?? ''), height: kGroupHeight, level: 1});
    }
    // Nested events (NVTX ranges, driver calls inside runtime calls) get one lane per depth.
    const depths = track.kind === 'counter' ? 1 : Math.max(1, track.depth || 1);
    const height = track.kind === 'counter' ? kCounterHeight : depths * kRowHeight;
    push({type: 'track', track, label: String(track.label ?? track.id), height, depths});
  }
  return {rows, height: y};
}

/** The row at vertical position y (content coordinates), or null. */
export function rowAt(rows, y) {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const row = rows[mid];
    if (y < row.y)
      hi = mid - 1;
    else if (y >= row.y + row.height)
      lo = mid + 1;
    else
      return row;
  }
  return null;
}
