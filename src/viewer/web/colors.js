// Colours of timeline events: one stable hue per name (the same kernel has the same colour in
// every row and every report), fixed colours for copies, memsets and API calls.

const kTypeColors = {
  memcpy: '#d9822b',
  memset: '#8f6bc7',
  api: '#5b7fa6',
  mark: '#c23b3b',
};

/** CSS colour of an event: by type, or by a hash of the name for kernels and NVTX ranges. */
export function eventColor(type, name) {
  const fixed = kTypeColors[type];
  if (fixed) return fixed;
  const hue = nameHash(name || '') % 360;
  return type === 'nvtx' ? `hsl(${hue}, 45%, 62%)` : `hsl(${hue}, 55%, 48%)`;
}

/** Colour of a merged bucket of a row of `kind` ('gpu', 'api', 'nvtx'). */
export function bucketColor(kind) {
  if (kind === 'api') return kTypeColors.api;
  if (kind === 'nvtx') return '#7a9a5a';
  return '#3d8b6f';
}

// FNV-1a: cheap and stable across runs and browsers.
function nameHash(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
