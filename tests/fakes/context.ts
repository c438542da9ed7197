/**
 * Per-request plumbing shared by the vendor fakes: the request context, JSON answers,
 * failure scenarios, and streams written the awkward way real networks deliver them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Answer, type Scenario, scenarioOf } from './behaviour';
import type { FakeMemory } from './memory';

export type Vendor = 'openai' | 'azure' | 'custom' | 'anthropic' | 'google' | 'bedrock';

export interface FakeContext {
  vendor: Vendor;
  req: IncomingMessage;
  res: ServerResponse;
  /** The path exactly as sent (still percent-encoded), without the query. */
  rawPath: string;
  query: URLSearchParams;
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  rawBody: string;
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: unknown;
  /** The credential this vendor accepts. */
  apiKey: string;
  /** Aborted when the client goes away before the answer is complete. */
  signal: AbortSignal;
  /** What this fake server remembers between requests (signing key, prompt caches, issued calls). */
  memory: FakeMemory;
  /** Filled in while answering, and kept with the recorded request for tests to read. */
  observed: Observation;
}

/** What a fake made of one request: for assertions, and for telling why a request failed. */
export interface Observation {
  /** The HTTP status it answered with (undefined until it answered). */
  status?: number;
  /** The error message it answered with, for a refused request. */
  error?: string;
  /** What the model answered: a call to a tool (its name and arguments) or text. */
  answer?: { kind: 'tool'; name: string; arguments: string } | { kind: 'text'; text: string };
  /** The reasoning it answered with, as the model thought it (before any display setting). */
  reasoning?: string;
  /** Reasoning blocks or items sent back to it that it verified as its own, unaltered. */
  verifiedReasoning: number;
  /** The usage it reported, in one shape: input counts every prompt token (cached or not). */
  usage?: ObservedUsage;
}

export interface ObservedUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

/** What the model answered, as an observation keeps it (without the token counts). */
export function observedAnswer(result: Answer): NonNullable<Observation['answer']> {
  return result.kind === 'tool'
    ? { kind: 'tool', name: result.name, arguments: result.arguments }
    : { kind: 'text', text: result.text };
}

/**
 * The usage of OpenAI's APIs (chat completions, Responses): cached tokens within the input,
 * reasoning within the output, and no cache writes.
 */
export function openAiObservedUsage(result: Answer, cachedTokens: number, reasoning: number): ObservedUsage {
  return {
    input: result.inputTokens,
    output: result.outputTokens + reasoning,
    cacheRead: cachedTokens,
    cacheWrite: 0,
    reasoning,
  };
}

/** An error answer in some vendor's shape. */
export interface VendorError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ErrorKind = 'auth' | 'invalid' | 'rate_limit' | 'unavailable' | 'not_found' | 'server';

/** Renders an error of a kind (or of a scenario's HTTP status) in a vendor's shape. */
export type ErrorRenderer = (status: number, kind: ErrorKind, message: string) => VendorError;

export function kindForStatus(status: number): ErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limit';
  if (status === 503 || status === 529) return 'unavailable';
  if (status >= 500) return 'server';
  return 'invalid';
}

export function sendJson(
  ctx: FakeContext,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (ctx.signal.aborted) return;
  const text = JSON.stringify(body);
  ctx.observed.status = status;
  ctx.res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  ctx.res.end(text);
}

export function sendError(ctx: FakeContext, error: VendorError): void {
  ctx.observed.error = errorMessageOf(error.body);
  sendJson(ctx, error.status, error.body, error.headers);
}

/** The message of an error body, whichever vendor's shape it has. */
function errorMessageOf(body: unknown): string {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const inner = record.error;
  if (typeof inner === 'object' && inner !== null) {
    const message = (inner as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  if (typeof record.message === 'string') return record.message;
  return JSON.stringify(body);
}

/**
 * Applies the model name's scenario before answering: waits for `slow-<ms>` (giving up if
 * the client leaves) and answers `fail-<status>` itself. Returns the scenario when the
 * caller should go on to answer, undefined when the request is already dealt with.
 */
export async function runScenario(
  ctx: FakeContext,
  model: string,
  renderError: ErrorRenderer,
): Promise<Scenario | undefined> {
  const scenario = scenarioOf(model);
  if (scenario.slowMs !== undefined) {
    try {
      await sleep(scenario.slowMs, undefined, { signal: ctx.signal });
    } catch {
      return undefined; // the client aborted: nobody is left to answer
    }
  }
  const status = scenario.failStatus;
  if (status === undefined) return scenario;
  const error = renderError(status, kindForStatus(status), `Simulated HTTP ${status} for model ${model}`);
  if (status === 429) error.headers = { 'retry-after': '1', ...error.headers };
  sendError(ctx, error);
  return undefined;
}

/** Answers that fell silent (`stall`) and were then abandoned by their caller, newest last. */
export const abandonedStalls: Array<{ model: string; at: number }> = [];

/** Keeps the socket open and silent until the caller aborts, and records that it did. */
async function stallUntilAbandoned(ctx: FakeContext, model: string): Promise<void> {
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  abandonedStalls.push({ model, at: Date.now() });
}

/**
 * A non-streaming JSON answer; with `cut` the body stops halfway and the socket dies, with
 * `stall` it stops halfway and the socket stays open.
 */
export async function sendAnswer(
  ctx: FakeContext,
  body: unknown,
  scenario: Scenario,
  headers: Record<string, string> = {},
): Promise<void> {
  if (!scenario.cut && !scenario.stall) return sendJson(ctx, 200, body, headers);
  const bytes = Buffer.from(JSON.stringify(body));
  ctx.observed.status = 200;
  ctx.res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(bytes.length),
    ...headers,
  });
  // Handed to the socket before the connection is cut: the client gets half a body, then the end.
  const sent = new Promise<void>((resolve) =>
    ctx.res.write(bytes.subarray(0, bytes.length >> 1), () => resolve()),
  );
  if (scenario.stall) return stallUntilAbandoned(ctx, modelOf(body));
  await sent;
  ctx.res.destroy();
}

function modelOf(body: unknown): string {
  const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : '';
}

/**
 * Where to cut a frame in two: inside the first multi-byte UTF-8 character if there is one,
 * otherwise at a rotating offset (inside the first field name, between the final line
 * ending's bytes, in the middle) so decoders meet every kind of boundary.
 */
export function awkwardOffset(bytes: Uint8Array, n: number): number {
  const multiByte = bytes.findIndex((byte) => byte >= 0xc0);
  if (multiByte >= 0 && n % 2 === 0) return multiByte + 1;
  const candidates = [3, bytes.length - 1, bytes.length >> 1, 13];
  const at = candidates[n % candidates.length] ?? 1;
  return Math.min(Math.max(at, 1), bytes.length - 1);
}

/**
 * Writes a stream: headers now, then every frame in two writes with a pause between, so
 * the client sees frames split at awkward places. With `cut` the socket is destroyed in
 * the middle of the frame halfway through. Stops as soon as the client goes away.
 */
export async function writeStream(
  ctx: FakeContext,
  headers: Record<string, string>,
  sent: ReadonlyArray<string | Uint8Array>,
  options: StreamOptions = {},
): Promise<void> {
  if (ctx.signal.aborted) return;
  const frames = tampered(sent, options);
  ctx.observed.status = 200;
  ctx.res.writeHead(200, headers);
  ctx.res.flushHeaders();
  const cutAt = options.cut ? frames.length >> 1 : Number.POSITIVE_INFINITY;
  const stallAt = options.stall ? frames.length >> 1 : Number.POSITIVE_INFINITY;
  for (const [n, frame] of frames.entries()) {
    if (n === stallAt) return stallUntilAbandoned(ctx, options.model ?? '');
    const bytes = typeof frame === 'string' ? Buffer.from(frame, 'utf8') : Buffer.from(frame);
    const at = awkwardOffset(bytes, n);
    if (!(await writePiece(ctx, bytes.subarray(0, at)))) return;
    if (n >= cutAt) {
      ctx.res.destroy(); // mid-frame, the way a dropped connection leaves it
      return;
    }
    if (!(await writePiece(ctx, bytes.subarray(at)))) return;
  }
  ctx.res.end();
}

export interface StreamOptions extends Partial<Pick<Scenario, 'cut' | 'stall' | 'errorEvent' | 'garbage'>> {
  model?: string;
  /** The vendor's own mid-stream error event, for `stream-error`. */
  errorFrame?: string;
}

/** An HTML error page where an event's JSON should be, as a broken proxy in the path sends. */
const GARBAGE_FRAME = 'data: <html><body>502 Bad Gateway</body></html>\n\n';

/** The frames as the scenario spoils them: cut short by an error event, or one made garbage. */
function tampered(
  frames: ReadonlyArray<string | Uint8Array>,
  options: StreamOptions,
): Array<string | Uint8Array> {
  const half = frames.length >> 1;
  if (options.errorEvent && options.errorFrame !== undefined)
    return [...frames.slice(0, half), options.errorFrame];
  if (options.garbage) return [...frames.slice(0, half), GARBAGE_FRAME, ...frames.slice(half)];
  return [...frames];
}

async function writePiece(ctx: FakeContext, piece: Uint8Array): Promise<boolean> {
  if (ctx.signal.aborted || ctx.res.destroyed) return false;
  ctx.res.write(piece);
  try {
    await sleep(1, undefined, { signal: ctx.signal });
  } catch {
    return false;
  }
  return true;
}

/** `event:` (optional) and `data:` lines plus the blank line, with the given line ending. */
export function sseFrame(data: unknown, event?: string, eol = '\n'): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event === undefined ? '' : `event: ${event}${eol}`}data: ${payload}${eol}${eol}`;
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};
