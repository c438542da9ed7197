import type { Detector } from './detectors';

/** One redaction rule: a name (what the placeholder says) and how it finds its matches. */
export interface RedactRule extends Detector {
  name: string;
}

export interface Redactor {
  rules: readonly RedactRule[];
  /** The text with every match replaced by `[REDACTED:<rule>]`. */
  redact(text: string): string;
}

/** Longest stretch of a stream held back so a match split across chunks is still caught. */
export const STREAM_HOLD_CHARS = 256;

interface Span {
  start: number;
  end: number;
  rule: string;
}

export function createRedactor(rules: readonly RedactRule[]): Redactor {
  return { rules, redact: (text) => render(text, spansIn(text, rules), text.length) };
}

/** Every accepted match of every rule, earliest first; where two overlap, the earlier (then longer) wins. */
export function spansIn(text: string, rules: readonly RedactRule[]): Span[] {
  const found: Span[] = [];
  for (const rule of rules) {
    rule.regex.lastIndex = 0;
    for (let m = rule.regex.exec(text); m !== null; m = rule.regex.exec(text)) {
      if (m[0].length === 0) {
        rule.regex.lastIndex++;
        continue;
      }
      if (!rule.accept || rule.accept(m[0]))
        found.push({ start: m.index, end: m.index + m[0].length, rule: rule.name });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Span[] = [];
  for (const span of found) {
    const last = kept[kept.length - 1];
    if (!last || span.start >= last.end) kept.push(span);
  }
  return kept;
}

/** The text up to `upTo`, its spans replaced (spans must end by `upTo`). */
function render(text: string, spans: readonly Span[], upTo: number): string {
  if (spans.length === 0) return upTo === text.length ? text : text.slice(0, upTo);
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.end > upTo) break;
    out += `${text.slice(at, span.start)}[REDACTED:${span.rule}]`;
    at = span.end;
  }
  return out + text.slice(at, upTo);
}

/**
 * Streaming: what of `pending` can go out now. The last STREAM_HOLD_CHARS stay back (a match
 * may go on in the next chunk), and so does a match that reaches into them; the rest goes out
 * redacted. At the end of the text, `flush` sends everything.
 */
export function releasable(
  pending: string,
  redactor: Redactor,
  flush: boolean,
): { out: string; kept: string } {
  if (flush) return { out: redactor.redact(pending), kept: '' };
  let cut = Math.max(0, pending.length - STREAM_HOLD_CHARS);
  if (cut === 0) return { out: '', kept: pending };
  const spans = spansIn(pending, redactor.rules);
  for (const span of spans) {
    if (span.start < cut && span.end > cut) cut = span.start;
  }
  return { out: render(pending, spans, cut), kept: pending.slice(cut) };
}
