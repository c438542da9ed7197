import type { SseEvent } from './decoder';

const encoder = new TextEncoder();

/** One event as SSE bytes; multi-line data becomes several data: lines. */
export function encodeSseEvent(event: SseEvent): Uint8Array {
  let out = '';
  if (event.event !== undefined) out += `event: ${event.event}\n`;
  if (event.id !== undefined) out += `id: ${event.id}\n`;
  for (const line of event.data.split('\n')) out += `data: ${line}\n`;
  return encoder.encode(`${out}\n`);
}

/** A JSON payload as one SSE event, optionally named. */
export function encodeSseJson(data: unknown, event?: string): Uint8Array {
  return encodeSseEvent(
    event === undefined ? { data: JSON.stringify(data) } : { event, data: JSON.stringify(data) },
  );
}
