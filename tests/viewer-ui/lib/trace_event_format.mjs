// A structural check of Chrome's Trace Event Format (the JSON chrome://tracing and the Perfetto
// UI load): the object or array form, and for each event the fields its phase requires.
// Returns {errors: [...], events, flows} with flows = complete start/finish arrow pairs.

const kPhases = new Set([
  'B', 'E', 'X', 'i', 'I', 'C', 'b', 'n', 'e', 's', 't', 'f',
  'P', 'N', 'O', 'D', 'M', 'R', 'c', '(', ')', 'S', 'T', 'F'
]);
const kMetadataNames = new Set(
    ['process_name', 'process_labels', 'process_sort_index', 'thread_name', 'thread_sort_index']);

export function validateTraceEventFormat(trace) {
  const errors = [];
  let events;
  if (Array.isArray(trace)) {
    events = trace;
  } else if (trace && typeof trace === 'object' && Array.isArray(trace.traceEvents)) {
    events = trace.traceEvents;
    if (trace.displayTimeUnit !== undefined && !['ms', 'ns'].includes(trace.displayTimeUnit)) {
      errors.push(
          `displayTimeUnit must be "ms" or "ns", not ${JSON.stringify(trace.displayTimeUnit)}`);
    }
  } else {
    return {
      errors: ['neither an array of events nor an object with a traceEvents array'],
      events: [],
      flows: 0
    };
  }
  const isId = (v) => typeof v === 'number' || typeof v === 'string';
  const flowStarts = new Map();
  let flows = 0;
  events.forEach((event, i) => {
    const where = `event ${i} (${JSON.stringify(event).slice(0, 120)})`;
    if (!event || typeof event !== 'object') {
      errors.push(`${where}: not an object`);
      return;
    }
    if (!kPhases.has(event.ph)) errors.push(`${where}: unknown phase ${JSON.stringify(event.ph)}`);
    if (typeof event.name !== 'string' && event.ph !== 'E') errors.push(`${where}: no name`);
    if (!isId(event.pid)) errors.push(`${where}: pid is not a number or string`);
    if (event.ph !== 'M' && event.ph !== 'C' && !isId(event.tid))
      errors.push(`${where}: tid is not a number or string`);
    if (event.ph !== 'M' && !(typeof event.ts === 'number' && Number.isFinite(event.ts)))
      errors.push(`${where}: ts is not a number`);
    if (event.args !== undefined && (typeof event.args !== 'object' || event.args === null))
      errors.push(`${where}: args is not an object`);
    switch (event.ph) {
      case 'X':
        if (!(typeof event.dur === 'number' && event.dur >= 0))
          errors.push(`${where}: complete event without a dur >= 0`);
        break;
      case 'C':
        if (!event.args || Object.values(event.args).some((v) => typeof v !== 'number'))
          errors.push(`${where}: counter args must be numbers`);
        break;
      case 'M':
        if (!kMetadataNames.has(event.name))
          errors.push(`${where}: unknown metadata ${event.name}`);
        if (!event.args || (event.name.endsWith('_name') && typeof event.args.name !== 'string'))
          errors.push(`${where}: metadata without args.name`);
        break;
      case 's':
      case 't':
      case 'f':
        if (!isId(event.id) && !(event.bind_id !== undefined))
          errors.push(`${where}: flow event without id`);
        if (event.ph === 's') flowStarts.set(String(event.cat) + '/' + String(event.id), event);
        if (event.ph === 'f') {
          const start = flowStarts.get(String(event.cat) + '/' + String(event.id));
          if (!start)
            errors.push(`${where}: flow finish without an earlier start of the same id and cat`);
          else {
            flows++;
            if (event.ts < start.ts) errors.push(`${where}: flow finishes before it starts`);
          }
        }
        break;
      case 'i':
      case 'I':
        if (event.s !== undefined && !['g', 'p', 't'].includes(event.s))
          errors.push(`${where}: instant scope must be g, p or t`);
        break;
      default:
        break;
    }
  });
  return {errors, events, flows};
}
