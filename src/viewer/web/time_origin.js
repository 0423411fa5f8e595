// Exact times from JSON. Absolute CUPTI times (ns since 1970, about 1.8e18) do not fit a JS
// number exactly (integers are exact up to 2^53, about 9.0e15): parsed as they are, they snap
// to multiples of 256 ns, and a 1.5 us kernel would be drawn and timed 10-20% wrong. The
// sources parse with TimeOrigin.parse, which turns every such integer into its exact offset
// from one origin (the first one it meets, as a BigInt), using the source text that
// JSON.parse hands its reviver; queries convert back with absolute(). Where the reviver gets
// no source text (older engines), or the numbers are small, values stay as they were.

const kTimeFieldNames = new Set(['s', 'e', 't', 'start', 'end', 'timestamp', 'cut_at']);
// Integers of 17 digits or more: the only ones that can exceed 2^53.
const kLargeInteger = /\d{17}/;
const kProbeChars = 65536;
// A large integer standing alone as a JSON value: after '[', ',' or ':', before ',', ']', '}'.
const kArrayInteger = /([\[,:])(\d{17,})(?=[,\]}])/g;
// Offsets are computed on the last 15 digits (< 2^53) when the leading ones equal the origin's.
const kLowDigits = 15;

export class TimeOrigin {
  constructor() {
    this.origin = null;    // BigInt, set by the first large time parsed
    this.rounded = false;  // true once a text was too large to parse exactly
  }

  /**
   * JSON.parse(text), large times made exact offsets from the origin. The reviver costs about
   * ten times a plain parse, so a text over `maxExactBytes` is parsed plainly and `rounded` is
   * set: the caller must say that times are rounded (to 256 ns) rather than hide it.
   */
  parse(text, maxExactBytes = Infinity) {
    // A cheap look first: times are on one clock, so if the first ones (the reports come
    // first) are small, all are, and the text needs no reviver.
    if (!kLargeInteger.test(text.slice(0, kProbeChars))) return JSON.parse(text);
    if (text.length > maxExactBytes) {
      this.rounded = true;
      return JSON.parse(text);
    }
    return JSON.parse(text, (key, value, context) => this.revive(key, value, context));
  }

  /**
   * The embedded data of `gpuscope report` ({"reports":[...],"tracks":{...},"events":{...},
   * "strings":...}), exact and fast: the reports are parsed with the reviver (they set the
   * origin), the event arrays - almost all of the text, only numbers and the server's track
   * ids and type words - have their large integers rewritten as offsets by text arithmetic,
   * and the rest is parsed plainly (summary and kernel pages hold durations, not times).
   * Falls back to parse() when the text is not laid out that way.
   */
  parseEmbedded(text, maxExactBytes = Infinity) {
    if (!kLargeInteger.test(text.slice(0, kProbeChars))) return JSON.parse(text);
    const reportsAt = text.indexOf('{"reports":');
    const tracksAt = text.indexOf(',"tracks":{', reportsAt);
    const eventsAt = text.indexOf('},"events":{', tracksAt);
    const stringsAt = text.indexOf('},"strings":[', eventsAt);
    if (reportsAt !== 0 || tracksAt < 0 || eventsAt < 0 || stringsAt < 0) {
      return this.parse(text, maxExactBytes);
    }
    const reports = this.parse(text.slice('{"reports":'.length, tracksAt));
    if (this.origin === null) return this.parse(text, maxExactBytes);
    const origin = this.origin.toString();
    const high = origin.slice(0, -kLowDigits);
    const low = Number(origin.slice(-kLowDigits));
    const offset = (digits) =>
        (digits.length === origin.length && digits.startsWith(high) ?
             Number(digits.slice(-kLowDigits)) - low :
             Number(BigInt(digits) - this.origin));
    const events = text.slice(eventsAt, stringsAt)
                       .replace(kArrayInteger, (match, lead, digits) => lead + offset(digits));
    const data = JSON.parse(text.slice(0, eventsAt) + events + text.slice(stringsAt));
    data.reports = reports;
    return data;
  }

  revive(key, value, context) {
    if (typeof value !== 'number' || Number.isSafeInteger(value) || !context ||
        typeof context.source !== 'string' || !/^\d+$/.test(context.source)) {
      return value;
    }
    // Array elements (columnar s/e/t) and the time keys are times; other large integers
    // (64-bit ids) keep their nearest number.
    if (!kTimeFieldNames.has(key) && !/^\d+$/.test(key)) return value;
    const exact = BigInt(context.source);
    if (this.origin === null) this.origin = exact;
    return Number(exact - this.origin);
  }

  /** The absolute time (decimal string, exact) of a time `t` returned by parse(). */
  absolute(t) {
    const rounded = BigInt(Math.round(t));
    return (this.origin === null ? rounded : this.origin + rounded).toString();
  }
}
