import type { IncomingMessage } from 'node:http';

/** A request the bridge answers with `{error}` and this HTTP status, without touching Redis. */
export class BridgeRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Buffers the request body, refusing more than `limit` bytes with 413. The rest of an
 * oversized body is left unread: Node discards it after the response, keeping the connection
 * usable, and the client gets a proper answer instead of a reset it would retry.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  // Built only when needed: an Error captures a stack trace, which is not free per request.
  const tooLarge = () => new BridgeRequestError(413, `ERR request body exceeds ${limit} bytes`);
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > limit) return reject(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        reject(tooLarge());
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new BridgeRequestError(400, 'ERR failed to parse command: body is not valid JSON');
  }
}

/**
 * One command as the client serialises it: a JSON array whose items are strings, or numbers
 * and booleans it left unquoted (`["expire", "k", 10]`); Redis receives their text.
 */
export function parseCommand(value: unknown): string[] {
  if (!Array.isArray(value))
    throw new BridgeRequestError(400, 'ERR failed to parse command: expected a JSON array');
  if (value.length === 0) throw new BridgeRequestError(400, 'ERR empty command');
  return value.map((item: unknown) => {
    if (typeof item === 'string') return item;
    if ((typeof item === 'number' && Number.isFinite(item)) || typeof item === 'boolean') return String(item);
    throw new BridgeRequestError(400, 'ERR failed to parse command: arguments must be strings or numbers');
  });
}

/** The body of /pipeline: a non-empty JSON array of commands. */
export function parseCommandList(value: unknown): string[][] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new BridgeRequestError(400, 'ERR failed to parse pipeline: expected a non-empty array of commands');
  }
  return value.map(parseCommand);
}
