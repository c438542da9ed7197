import type { McpSessionStore } from './sessions';

/** What a client waits before it resumes a stream the gateway closed (the SSE `retry` field). */
export const RETRY_MS = 1_000;

/** `<stream>::<index>`: which stream an event belongs to, and where in it. */
export function eventId(streamId: string, index: number): string {
  return `${streamId}::${index}`;
}

export function parseEventId(value: string | null | undefined): { streamId: string; index: number } | null {
  const match = /^([0-9a-f-]{36})::(\d{1,9})$/.exec(value ?? '');
  return match ? { streamId: match[1]!, index: Number(match[2]) } : null;
}

/** One JSON-RPC message as an SSE event without an id (a stream nobody resumes). */
export const sseEvent = (message: unknown): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

export const sseMessage = (id: string, message: unknown): string =>
  `id: ${id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`;

export const SSE_RESPONSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
};

export interface ResumableStream {
  response: Response;
  /** Writes a message (if the client is still there) and keeps it for a resuming client. */
  send(message: unknown, final?: boolean): void;
  /** Ends the client's stream; what is sent after is still kept, for its GET with Last-Event-ID. */
  end(): void;
  /** Settles once every message sent so far is kept. */
  kept(): Promise<void>;
}

/**
 * An event-stream answer to one POST, resumable as SEP-1699 describes: it opens with a priming
 * event (an id, empty data, a `retry` field), every message carries an id and is kept in the
 * session store, so a client whose stream ends before the answer — it lost the connection, or
 * the gateway ended it — resumes with GET and `Last-Event-ID` on any isolate or instance
 * (listen-stream.ts) and gets what it missed.
 */
export function createResumableStream(sessions: McpSessionStore, sessionId: string): ResumableStream {
  const streamId = crypto.randomUUID();
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let open = true;
  let index = 0;
  const pending: Promise<unknown>[] = [];
  const write = (text: string) => {
    if (!open || !controller) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      open = false; // the client left
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      write(`id: ${eventId(streamId, 0)}\nretry: ${RETRY_MS}\ndata: \n\n`);
    },
    cancel() {
      open = false;
    },
  });
  const end = () => {
    if (!open) return;
    open = false;
    try {
      controller?.close();
    } catch {
      // Already cancelled.
    }
  };
  return {
    response: new Response(body, { headers: SSE_RESPONSE_HEADERS }),
    send(message, final = false) {
      index += 1;
      pending.push(sessions.putEvent(sessionId, streamId, index, { message, final }).catch(() => {}));
      write(sseMessage(eventId(streamId, index), message));
      if (final) end();
    },
    end,
    kept: () => Promise.all(pending).then(() => {}),
  };
}
