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
import { type ByteChannel, handOver, throughStage } from './byte-channel';
import { createIdleGuard, type IdleGuard, readUpstreamTextInTime } from './idle-guard';
import { createReasoningSealStage, sealAnswerReasoning } from './reasoning-flow';
import type { ReasoningSeal } from './reasoning-seal';
import { closeOnError, passThrough, type StreamEnding } from './stream-ending';
import { createByteCollector, createUsageTap, type StreamOutcome } from './taps';
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
  const {
    body,
    ended: upstreamEnded,
    native,
  } = clientStream(attempt, format, request, guard, options, ending);
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
  if (!options.keep) {
    const finished = ended.then((e) => ({
      ...e,
      bytes: null,
      stalled: guard.stalled(),
      firstChunkAt: guard.firstChunkAt(),
    }));
    // The untouched passthrough, or a stream driven into the runtime's byte channel, is the
    // runtime's own already; any other is handed over to one (where there is one).
    const sent = native ? body : handOver(body, options.byteChannel);
    return { status: 200, headers: SSE_HEADERS, body: sent, finished };
  }
  const collector = createByteCollector();
  // A stream the guard cut may never end for the collector after it (a stage whose writable
  // side is aborted is not told on every runtime): nothing is kept then anyway.
  const kept = Promise.race([collector.result, guard.cut.then(() => null)]);
  const finished = Promise.all([ended, kept]).then(([e, bytes]) => ({
    usage: e.usage,
    completed: e.completed && bytes !== null,
    bytes,
    stalled: guard.stalled(),
    failure: e.failure,
    answerChars: e.answerChars,
    firstChunkAt: guard.firstChunkAt(),
  }));
  const sent = handOver(body.pipeThrough(collector.transform), options.byteChannel);
  return { status: 200, headers: SSE_HEADERS, body: sent, finished };
}

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
): {
  body: ReadableStream<Uint8Array>;
  ended: Promise<StreamOutcome>;
  /** The runtime's own stream (a branch of the upstream's, or its byte channel): nothing to hand over. */
  native: boolean;
} {
  const source = attempt.upstream.body;
  if (!source) throw new AppError(502, `Upstream ${attempt.route.providerName} answered without a body`);
  // A kept answer passes the byte collector after this stream, and is handed over after it
  // (streamAnswer): one byte channel, not two.
  const channel = options.keep ? undefined : options.byteChannel;
  if (attempt.mode === 'native' && !attempt.plan?.dropEvent && attempt.plan?.clientModel === undefined) {
    // The client's bytes go out as the upstream sent them, without passing through
    // JavaScript (a stage there costs about half the CPU of a streamed request on workerd);
    // usage is read from the other branch of a tee, whose chunks the guard watches.
    // A silent upstream is aborted, so the client's stream breaks off (its SDK raises a
    // connection error) rather than ending with the format's error event. A client that
    // leaves aborts the upstream call (proxy/upstream-fetch.ts), which ends the copy too.
    const [toClient, copy] = source.tee();
    const body = passThrough(toClient, channel, ending);
    return { body, ended: format.watchNativeUsage(copy, guard.touch), native: channel !== undefined };
  }
  if (attempt.mode === 'native') {
    // Events to drop or rename: one stage (the guard's, the usage reader inside it), the bytes
    // pass (changed) while usage is read.
    const reader = format.createNativeUsageReader(attempt.plan);
    const inner = reader.transformer;
    const body = throughStage(source, guard.transformer(inner), () => guard.stage(inner), channel, ending);
    const ended = Promise.all([reader.usage, reader.completed, reader.failure, reader.answerChars]).then(
      ([usage, completed, failure, answerChars]) => ({ usage, completed, failure, answerChars }),
    );
    return { body, ended, native: channel !== undefined };
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
  const body = throughStage(encoded, guard.transformer(), () => guard.stage(), channel, ending);
  return { body, ended: tap.result, native: channel !== undefined };
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
