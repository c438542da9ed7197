import type { CanonicalRequest, StreamEvent, Usage } from '../canonical/types';
import type { GuardrailMark } from '../guardrails/marks';
import { createStreamRedaction, redactResponse } from '../guardrails/redact-canonical';
import type { Redactor } from '../guardrails/redact-text';
import { createToolCallInspection, inspectAnswerToolCalls } from '../guardrails/tool-call-inspection';
import type { ToolPolicy } from '../guardrails/tool-policy';
import { AppError } from '../http/app-error';
import { renameModelInData } from '../wire/common/rename-model';
import type { WireFormatWithUsageTap } from '../wire/common/wire-format';
import { answerEnding } from './answer-ending';
import { type ByteChannel, throughStage } from './byte-channel';
import {
  type CancellableTransformer,
  createIdleGuard,
  guardStage,
  type IdleGuard,
  readUpstreamTextInTime,
} from './idle-guard';
import { createKeptBytes, type KeptBytes, keptThrough } from './kept-bytes';
import { createReasoningSealStage, sealAnswerReasoning } from './reasoning-flow';
import type { ReasoningSeal } from './reasoning-seal';
import { MAX_CACHED_BODY_CHARS } from './response-cache';
import { closeOnError, type StreamEnding } from './stream-ending';
import { createUsageTap, type StreamOutcome } from './taps';
import type { Attempt } from './types';

/** How the exchange ended, known once the client has everything (or has left). */
export interface Finished {
  usage: Usage | null;
  /** False when the client left (or the upstream broke off) before the end. */
  completed: boolean;
  /** The exact body the client got, for the response cache; null unless completed and kept. */
  bytes: Uint8Array | null;
  /** Why the gateway cut the stream (the upstream fell silent), or null. */
  stalled: string | null;
  /**
   * Why the answer failed on the upstream's side after it started, or null: its connection
   * broke off, it sent its own error event or something that is not an event of its format, or
   * one event outgrew the limit. The client got the format's error event at the end.
   */
  failure: string | null;
  /** Characters of the answer streamed, for the gateway's estimate when `usage` is null. */
  answerChars: number;
  /** When the upstream's first chunk came (Date.now), for a stream; null otherwise. */
  firstChunkAt: number | null;
}

export interface AnswerOptions {
  /** The exact bytes the client gets are wanted (for the response cache). */
  keep: boolean;
  /** Longest silence of the upstream's body (see idle-guard.ts). */
  idleTimeoutMs: number;
  /** security.redact for answers (translated answers only: redaction turns passthrough off). */
  redactor?: Redactor | null;
  /** security.inspect_tools for the tool calls of answers (translated answers only, too). */
  toolPolicy?: ToolPolicy | null;
  /** Told of every tool call the policy removed (the log row's marks). */
  onGuardrail?: (mark: GuardrailMark) => void;
  /** Seals another vendor's reasoning for the client (translated answers). */
  seal: ReasoningSeal;
  /** The runtime's own byte stream, for answers streamed from JavaScript (byte-channel.ts). */
  byteChannel?: () => ByteChannel;
  /**
   * The client has left: its going aborts the upstream call, so the upstream's body breaks off
   * then too, and that is the client's doing, not the upstream's.
   */
  clientLeft?: () => boolean;
}

export interface ClientAnswer {
  status: number;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array> | string;
  finished: Promise<Finished>;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};
export const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Turns the upstream's successful answer into the client's, in the client's format. Nothing is
 * copied unless `options.keep`.
 */
export async function answerClient(
  attempt: Attempt,
  format: WireFormatWithUsageTap,
  request: CanonicalRequest,
  options: AnswerOptions,
): Promise<ClientAnswer> {
  const { keep, idleTimeoutMs } = options;
  if (request.stream) return streamAnswer(attempt, format, request, options);
  const text = await readUpstreamTextInTime(
    attempt.upstream,
    idleTimeoutMs,
    attempt.abortUpstream,
    attempt.deadline,
  );
  if (text === null) {
    throw new AppError(
      504,
      `Upstream ${attempt.route.providerName} sent no complete body within ${idleTimeoutMs} ms`,
    );
  }
  const json = parseUpstreamJson(text, attempt);
  if (attempt.mode === 'native') {
    const usage = format.usageFromResponse(json);
    // The answer is sent as it came, under the client's name for the model.
    const clientModel = attempt.plan?.clientModel;
    const body = clientModel === undefined ? text : (renameModelInData(text, clientModel) ?? text);
    return jsonAnswer(body, usage, keep);
  }
  const parsed = await sealAnswerReasoning(
    attempt.adapter.parseResponse(json),
    format.reasoningVendor,
    options.seal,
  );
  const redacted = options.redactor ? redactResponse(parsed, options.redactor) : parsed;
  const { response: canonical, marks } = inspectAnswerToolCalls(redacted, options.toolPolicy ?? null);
  for (const mark of marks) options.onGuardrail?.(mark);
  const body = JSON.stringify(format.renderResponse(canonical, request.model, request));
  return jsonAnswer(body, canonical.usage, keep);
}

function jsonAnswer(body: string, usage: Usage | null, keep: boolean): ClientAnswer {
  const bytes = keep ? new TextEncoder().encode(body) : null;
  return {
    status: 200,
    headers: JSON_HEADERS,
    body,
    finished: Promise.resolve({
      usage,
      completed: true,
      bytes,
      stalled: null,
      failure: null,
      answerChars: 0,
      firstChunkAt: null,
    }),
  };
}

function parseUpstreamJson(text: string, attempt: Attempt): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError(502, `Upstream ${attempt.route.providerName} answered with a body that is not JSON`);
  }
}

function streamAnswer(
  attempt: Attempt,
  format: WireFormatWithUsageTap,
  request: CanonicalRequest,
  options: AnswerOptions,
): ClientAnswer {
  const guardErrorEvent = () =>
    format.streamErrorEvent({ type: 'upstream_timeout', message: guardMessage(attempt, options) });
  // A stream's silences are the idle guard's to time, on the call's timer.
  const guard = createIdleGuard({
    deadline: attempt.deadline,
    idleMs: options.idleTimeoutMs,
    now: () => Date.now(),
    errorEvent: guardErrorEvent,
    onIdle: (reason) => attempt.abortUpstream(reason),
  });
  const { ending, broken, over, clientLeft, sourceBroke } = answerEnding(
    attempt,
    format,
    guard,
    options,
    guardErrorEvent,
  );
  // Kept for the response cache by the stage that writes to the client, not by a stage of
  // its own (kept-bytes.ts).
  const kept = options.keep ? createKeptBytes(MAX_KEPT_BYTES) : undefined;
  const { body, ended: upstreamEnded } = clientStream(attempt, format, request, guard, options, ending, kept);
  // However the stream ends (done, client gone, upstream broken off), its timer goes with it.
  void upstreamEnded.finally(guard.stop);
  // A stream the guard cut, or one that failed, did not complete, whatever its stages saw.
  const ended = upstreamEnded.then(async (e) => {
    // Not completed, or failed: the client's side may not have met the break yet (a
    // passed-through stream's branches learn of it each on its own), and it tells whether the
    // client had gone first (on workerd its going aborts the upstream call, which then looks
    // broken). Bounded: a client that is not reading may never let its side get there.
    if (!e.completed || e.failure !== null) await within(over, TAIL_WAIT_MS);
    // A client gone while the upstream's connection broke: its going broke it. An error the
    // upstream reported itself came first, whatever the client did after reading it.
    if (clientLeft() && (sourceBroke() || e.failure === null)) {
      return { usage: e.usage, completed: false, failure: null, answerChars: e.answerChars };
    }
    const failure = broken() ?? e.failure;
    const completed = e.completed && failure === null && guard.stalled() === null && !guard.clientStopped();
    return { usage: e.usage, completed, failure, answerChars: e.answerChars };
  });
  // A stream the guard cut may never end for the stage that keeps its bytes (a stage whose
  // writable side is aborted is not told on every runtime): nothing is kept then anyway.
  const bytes = kept ? Promise.race([kept.result, guard.cut.then(() => null)]) : Promise.resolve(null);
  const finished = Promise.all([ended, bytes]).then(([e, b]) => ({
    ...e,
    bytes: e.completed ? b : null,
    stalled: guard.stalled(),
    firstChunkAt: guard.firstChunkAt(),
  }));
  return { status: 200, headers: SSE_HEADERS, body, finished };
}

/**
 * Past this an answer is not kept: the cache takes none over MAX_CACHED_BODY_CHARS characters,
 * and no character takes more than 3 bytes of UTF-8.
 */
const MAX_KEPT_BYTES = 3 * MAX_CACHED_BODY_CHARS;

/** How long a broken stream's outcome waits for the client's side to have met the break. */
const TAIL_WAIT_MS = 1_000;

/** Settles when `work` does, or after `ms`, whichever comes first. */
function within(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void work.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function guardMessage(attempt: Attempt, options: AnswerOptions): string {
  return `Upstream ${attempt.route.providerName} sent nothing for ${options.idleTimeoutMs} ms; the answer is incomplete`;
}

/**
 * The client's stream in its own format, and how the upstream's ended. The idle guard is the
 * last stage where the bytes already pass through JavaScript, so the error event it may add
 * comes in the client's format after whatever came.
 */
function clientStream(
  attempt: Attempt,
  format: WireFormatWithUsageTap,
  request: CanonicalRequest,
  guard: IdleGuard,
  options: AnswerOptions,
  ending: StreamEnding,
  kept: KeptBytes | undefined,
): {
  /** The runtime's own byte channel, where it has one (byte-channel.ts). */
  body: ReadableStream<Uint8Array>;
  ended: Promise<StreamOutcome>;
} {
  const source = attempt.upstream.body;
  if (!source) throw new AppError(502, `Upstream ${attempt.route.providerName} answered without a body`);
  const channel = options.byteChannel;
  // The stage that writes to the client keeps what it writes, when the bytes are wanted.
  const last = (transformer: CancellableTransformer) => (kept ? keptThrough(transformer, kept) : transformer);
  if (attempt.mode === 'native') {
    // The upstream's own format: one stage (the guard's, the usage reader inside it) that
    // reads the usage as the bytes pass, and drops or renames events when the plan says so.
    // Even untouched bytes pass through JavaScript: should the upstream break off, the
    // client's stream must still be open for the format's error event, and workerd errors a
    // byte channel that a broken fetch body was piped into (preventAbort or not).
    const reader = format.createNativeUsageReader(attempt.plan);
    const inner = reader.transformer;
    const stage = last(guard.transformer(inner));
    const body = throughStage(source, stage, () => guardStage(stage), channel, ending);
    const ended = Promise.all([reader.usage, reader.completed, reader.failure, reader.answerChars]).then(
      ([usage, completed, failure, answerChars]) => ({ usage, completed, failure, answerChars }),
    );
    return { body, ended };
  }
  const tap = createUsageTap();
  // A connection that breaks off ends the bytes there: the decoder then reports the answer as
  // ended before completion, in the client's format (the encoder's failure events).
  const decoded = closeOnError(source, ending.broke).pipeThrough(attempt.adapter.createStreamDecoder());
  // A decoder gives reasoning only in its adapter's vendor's form: none needs sealing when
  // the adapter has no such form or the client's format carries it itself.
  const vendor = attempt.adapter.reasoningVendor;
  const events =
    vendor === undefined || vendor === format.reasoningVendor
      ? decoded
      : decoded.pipeThrough(createReasoningSealStage(format.reasoningVendor, options.seal));
  const encoded = answerStages(events, options)
    .pipeThrough(tap.transform)
    .pipeThrough(format.createStreamEncoder(request.model, request));
  const stage = last(guard.transformer());
  const body = throughStage(encoded, stage, () => guardStage(stage), channel, ending);
  return { body, ended: tap.result };
}

/** The guardrail stages on canonical events: only those a rule asks for. */
function answerStages(
  events: ReadableStream<StreamEvent>,
  options: AnswerOptions,
): ReadableStream<StreamEvent> {
  const { redactor, toolPolicy, onGuardrail } = options;
  const redacted = redactor ? events.pipeThrough(createStreamRedaction(redactor)) : events;
  if (!toolPolicy) return redacted;
  return redacted.pipeThrough(createToolCallInspection(toolPolicy, (mark) => onGuardrail?.(mark)));
}
