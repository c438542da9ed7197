/**
 * Server-sent events, layered: bytes → lines → events. No JSON knowledge here.
 * Chunks may split anywhere, including inside a multi-byte character or a CRLF pair.
 * The stages wrap the incremental objects of parser.ts.
 */
import { EventAssembler, LineSplitter } from './parser';

export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

/** Bytes → lines, handling \n, \r\n and \r endings across chunk boundaries. */
export function createLineDecoder(): TransformStream<Uint8Array, string> {
  const text = new TextDecoder();
  const lines = new LineSplitter();
  return new TransformStream({
    transform(chunk, controller) {
      lines.push(text.decode(chunk, { stream: true }), (line) => controller.enqueue(line));
    },
    flush(controller) {
      const emit = (line: string) => controller.enqueue(line);
      lines.push(text.decode(), emit);
      lines.end(emit);
    },
  });
}

/** Lines → events, per the HTML Living Standard's event-stream interpretation. */
export function createEventDecoder(): TransformStream<string, SseEvent> {
  const events = new EventAssembler();
  return new TransformStream({
    transform(line, controller) {
      events.line(line, (event) => controller.enqueue(event));
    },
    flush(controller) {
      events.end((event) => controller.enqueue(event));
    },
  });
}

/** Bytes → SSE events in one call. */
export function decodeSse(body: ReadableStream<Uint8Array>): ReadableStream<SseEvent> {
  return body.pipeThrough(createLineDecoder()).pipeThrough(createEventDecoder());
}
