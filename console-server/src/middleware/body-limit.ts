import { AppError } from '@sluice/shared/http/app-error';
import { DEFAULT_DISCARD_BOUNDS, discardRest } from '@sluice/shared/http/discard-body';
import type { MiddlewareHandler } from 'hono';

export interface BodyLimitOptions {
  maxBytes: number;
  /** Most of an oversized body read and thrown away so the connection stays usable. */
  discardBytes?: number;
  /** Longest spent throwing it away. */
  discardMs?: number;
}

/**
 * A request body over `maxBytes` is a 413. Unlike hono/body-limit, the rest of the body is read
 * and discarded before the answer (shared/http/discard-body.ts). Past `discardBytes` or
 * `discardMs` the 413 says `Connection: close`, so the socket ends cleanly after the full
 * response instead.
 */
export function limitBody(options: BodyLimitOptions): MiddlewareHandler {
  const { maxBytes } = options;
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.header('content-length');
    const chunked = c.req.header('transfer-encoding') !== undefined;
    if (declared !== undefined && !chunked) {
      if (Number(declared) <= maxBytes) return next();
      throw await refuse(body.getReader(), options);
    }
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw await refuse(reader, options);
      chunks.push(value);
    }
    c.req.raw = new Request(c.req.raw, { body: concat(chunks, size) });
    return next();
  };
}

async function refuse(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  options: BodyLimitOptions,
): Promise<AppError> {
  const drained = await discardRest(reader, {
    maxBytes: options.discardBytes ?? DEFAULT_DISCARD_BOUNDS.maxBytes,
    maxMs: options.discardMs ?? DEFAULT_DISCARD_BOUNDS.maxMs,
  });
  return new AppError(413, `Request body exceeds ${options.maxBytes} bytes`, {
    headers: drained ? {} : { connection: 'close' },
  });
}

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
