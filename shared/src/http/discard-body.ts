/**
 * How much of a request body nobody will use is read and thrown away before the answer. A
 * server that answers while the client is still sending and then closes leaves the client
 * writing into a reset socket (ECONNRESET/EPIPE instead of the answer), and a keep-alive client
 * reusing the connection fails its next request; nginx reads on for the same reason (lingering
 * close). Past the bounds the connection is given up.
 */
export interface DiscardBounds {
  maxBytes: number;
  maxMs: number;
}

export const DEFAULT_DISCARD_BOUNDS: DiscardBounds = { maxBytes: 64 * 1024 * 1024, maxMs: 5_000 };

/** Reads the rest of a body and drops it: true when it was read to its end within the bounds. */
export async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  bounds: DiscardBounds = DEFAULT_DISCARD_BOUNDS,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), bounds.maxMs);
  });
  try {
    let read = 0;
    for (;;) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next === 'timeout') return false;
      if (next.done) return true;
      read += next.value.byteLength;
      if (read > bounds.maxBytes) return false;
    }
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}

/**
 * The body of a request answered without it (a refusal before the body was read: 401, 403,
 * 404, a 413 on the declared length), read to its end and dropped; nothing to do for a body
 * that was read. A declared length past the bounds is not read at all.
 */
export async function discardUnreadBody(
  request: Request,
  bounds: DiscardBounds = DEFAULT_DISCARD_BOUNDS,
): Promise<boolean> {
  const body = request.body;
  if (body === null || request.bodyUsed || body.locked) return true;
  if (Number(request.headers.get('content-length') ?? 0) > bounds.maxBytes) return false;
  return discardRest(body.getReader(), bounds);
}
