/**
 * Server-sent events, layered: bytes → lines → events. No JSON knowledge here.
 * Chunks may split anywhere, including inside a multi-byte character or a CRLF pair.
 */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

/** Bytes → lines, handling \n, \r\n and \r endings across chunk boundaries. */
export function createLineDecoder(): TransformStream<Uint8Array, string> {
  const text = new TextDecoder();
  let buffer = '';
  let skipLeadingLf = false;
  const drain = (controller: TransformStreamDefaultController<string>) => {
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer[i];
      if (skipLeadingLf && i === start && ch === '\n') {
        start = i + 1;
        skipLeadingLf = false;
        continue;
      }
      skipLeadingLf = false;
      if (ch === '\n' || ch === '\r') {
        controller.enqueue(buffer.slice(start, i));
        if (ch === '\r') {
          if (i + 1 < buffer.length) {
            if (buffer[i + 1] === '\n') i++;
          } else {
            skipLeadingLf = true;
          }
        }
        start = i + 1;
      }
    }
    buffer = buffer.slice(start);
  };
  return new TransformStream({
    transform(chunk, controller) {
      buffer += text.decode(chunk, { stream: true });
      drain(controller);
    },
    flush(controller) {
      buffer += text.decode();
      drain(controller);
      if (buffer.length > 0) controller.enqueue(buffer);
    },
  });
}

/** Lines → events, per the HTML Living Standard's event-stream interpretation. */
export function createEventDecoder(): TransformStream<string, SseEvent> {
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  const dispatch = (controller: TransformStreamDefaultController<SseEvent>) => {
    if (data.length > 0) {
      const out: SseEvent = { data: data.join('\n') };
      if (event !== undefined) out.event = event;
      if (id !== undefined) out.id = id;
      controller.enqueue(out);
    }
    data = [];
    event = undefined;
  };
  return new TransformStream({
    transform(line, controller) {
      if (line === '') return dispatch(controller);
      if (line.startsWith(':')) return;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
      else if (field === 'id') id = value;
    },
    flush(controller) {
      dispatch(controller);
    },
  });
}

/** Bytes → SSE events in one call. */
export function decodeSse(body: ReadableStream<Uint8Array>): ReadableStream<SseEvent> {
  return body.pipeThrough(createLineDecoder()).pipeThrough(createEventDecoder());
}
