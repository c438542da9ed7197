import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodedEventNames } from '../../test/wire/anthropic-messages/fixtures/event-names';
import type { CanonicalRequest } from '../canonical/types';
import { detector } from '../guardrails/detectors';
import { createRedactor } from '../guardrails/redact-text';
import { AppError } from '../http/app-error';
import { openAiAdapter } from '../providers/openai/adapter';
import { configureSseLimits, DEFAULT_MAX_EVENT_CHARS } from '../sse/parser';
import { createCallDeadline } from '../util/call-deadline';
import { anthropicMessages, openaiChat } from '../wire/index';
import { createReasoningSeal } from './reasoning-seal';
import { answerClient, JSON_HEADERS, SSE_HEADERS } from './respond';
import type { Attempt, ResolvedRoute } from './types';

/** How a passed-through answer of 12 in / 5 out finishes: whole, nothing stalled or counted. */
const passedThrough = (firstChunkAt: unknown) => ({
  usage: { inputTokens: 12, outputTokens: 5 },
  completed: true,
  bytes: null,
  stalled: null,
  failure: null,
  answerChars: 0,
  firstChunkAt,
});

const ROUTE = { providerName: 'openai-main', routeId: 'r1' } as ResolvedRoute;

/** The chat completion api.openai.com answers, with `text` as the message. */
function completion(text: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1741569952,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
  };
}

/** The same answer streamed, with include_usage's last chunk. */
function completionSse(parts: string[]): string {
  const chunk = (delta: object, finish: string | null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, delta, finish_reason: finish }],
    usage: null,
  });
  const chunks = [
    chunk({ role: 'assistant', content: '' }, null),
    ...parts.map((content) => chunk({ content }, null)),
    chunk({}, 'stop'),
    { ...chunk({}, null), choices: [], usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } },
  ];
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

/** A body that sends `chunks` (as bytes) and then stays open for ever when `hang`. */
function bodyOf(chunks: string[], hang = false): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      if (!hang) controller.close();
    },
  });
}

function attempt(upstream: Response, mode: Attempt['mode'] = 'translate') {
  const aborts: string[] = [];
  const value: Attempt = {
    route: ROUTE,
    upstream,
    mode,
    adapter: openAiAdapter,
    attempts: 1,
    upstreamLatencyMs: 40,
    abortUpstream: (reason) => void aborts.push(reason),
  };
  return { attempt: value, aborts };
}

const messagesRequest = (stream: boolean): CanonicalRequest =>
  anthropicMessages.parseRequest({
    model: 'house',
    max_tokens: 100,
    stream,
    messages: [{ role: 'user', content: 'hi' }],
  });
const chatRequest = openaiChat.parseRequest({ model: 'house', messages: [{ role: 'user', content: 'hi' }] });

const OPTIONS = { keep: false, idleTimeoutMs: 1_000, seal: createReasoningSeal('b'.repeat(64)) };

async function textOf(body: ReadableStream<Uint8Array> | string): Promise<string> {
  return typeof body === 'string' ? body : new Response(body).text();
}

/** Named SSE events (`event:` and JSON `data:`) in order. */
function sseEvents(text: string): Array<{ event: string; data: Record<string, unknown> }> {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '{}';
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

describe('answerClient, whole answers', () => {
  it("passes a native answer's body through as it came and reads its usage", async () => {
    const raw = `${JSON.stringify(completion('hello there'))}\n`;
    const { attempt: a } = attempt(new Response(raw), 'native');
    const answer = await answerClient(a, openaiChat, chatRequest, OPTIONS);
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual(JSON_HEADERS);
    expect(answer.body).toBe(raw);
    expect(await answer.finished).toEqual(passedThrough(null));
  });

  it('keeps the exact bytes for the cache when keep is set', async () => {
    const raw = JSON.stringify(completion('héllo'));
    const { attempt: a } = attempt(new Response(raw), 'native');
    const answer = await answerClient(a, openaiChat, chatRequest, { ...OPTIONS, keep: true });
    const { bytes } = await answer.finished;
    expect(bytes).toEqual(new TextEncoder().encode(raw));
  });

  it("renders a translated answer in the client's format, named by the client's model", async () => {
    const { attempt: a } = attempt(new Response(JSON.stringify(completion('bonjour'))));
    const answer = await answerClient(a, anthropicMessages, messagesRequest(false), {
      ...OPTIONS,
      keep: true,
    });
    const body = JSON.parse(answer.body as string);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'house',
      content: [{ type: 'text', text: 'bonjour' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 12, output_tokens: 5 },
    });
    const finished = await answer.finished;
    expect(finished.usage).toEqual({ inputTokens: 12, outputTokens: 5 });
    expect(new TextDecoder().decode(finished.bytes ?? undefined)).toBe(answer.body);
  });

  it('redacts the text of a translated answer with the redactor', async () => {
    const redactor = createRedactor([{ name: 'email', ...detector('email') }]);
    const { attempt: a } = attempt(
      new Response(JSON.stringify(completion('write to ann@example.com today'))),
    );
    const answer = await answerClient(a, anthropicMessages, messagesRequest(false), { ...OPTIONS, redactor });
    expect(JSON.parse(answer.body as string).content).toEqual([
      { type: 'text', text: 'write to [REDACTED:email] today' },
    ]);
  });

  it('answers 502 for a body that is not JSON', async () => {
    const { attempt: a } = attempt(new Response('<html>Bad gateway</html>'), 'native');
    const error = await answerClient(a, openaiChat, chatRequest, OPTIONS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 502,
      message: 'Upstream openai-main answered with a body that is not JSON',
    });
  });

  it('answers 504 and aborts the upstream when the body is not complete within idleTimeoutMs', async () => {
    const { attempt: a, aborts } = attempt(new Response(bodyOf(['{"id":'], true)), 'native');
    const error = await answerClient(a, openaiChat, chatRequest, { ...OPTIONS, idleTimeoutMs: 30 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 504,
      message: 'Upstream openai-main sent no complete body within 30 ms',
    });
    expect(aborts).toEqual(['upstream body not complete within 30 ms']);
  });
});

describe('answerClient, streamed answers', () => {
  it("re-encodes a translated stream in the client's format and ends completed with the usage", async () => {
    const sse = completionSse(['Hel', 'lo']);
    // Split mid-event: the decoder must not care where chunks end.
    const { attempt: a } = attempt(new Response(bodyOf([sse.slice(0, 97), sse.slice(97)])));
    const answer = await answerClient(a, anthropicMessages, messagesRequest(true), {
      ...OPTIONS,
      keep: true,
    });
    expect(answer.headers).toEqual(SSE_HEADERS);
    const text = await textOf(answer.body);
    const events = sseEvents(text);
    // One text block: the two upstream chunks ('Hel', 'lo') stay two deltas.
    expect(events.map((e) => e.event)).toEqual(encodedEventNames(2));
    const deltas = events.filter((e) => e.event === 'content_block_delta');
    expect(deltas.map((e) => (e.data.delta as { text: string }).text).join('')).toBe('Hello');
    expect(events[6]?.data).toMatchObject({ usage: { input_tokens: 12, output_tokens: 5 } });
    const finished = await answer.finished;
    expect(finished).toMatchObject({
      completed: true,
      usage: { inputTokens: 12, outputTokens: 5 },
      stalled: null,
    });
    expect(new TextDecoder().decode(finished.bytes ?? undefined)).toBe(text);
  });

  it('redacts a translated stream, a match split across chunks included', async () => {
    const redactor = createRedactor([{ name: 'email', ...detector('email') }]);
    const { attempt: a } = attempt(new Response(bodyOf([completionSse(['mail ann@exa', 'mple.com now'])])));
    const answer = await answerClient(a, anthropicMessages, messagesRequest(true), { ...OPTIONS, redactor });
    const text = sseEvents(await textOf(answer.body))
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (e.data.delta as { text: string }).text)
      .join('');
    expect(text).toBe('mail [REDACTED:email] now');
    expect((await answer.finished).completed).toBe(true);
  });

  it('passes a native stream through byte for byte and reads its usage', async () => {
    const sse = completionSse(['Hi']);
    const { attempt: a } = attempt(new Response(bodyOf([sse])), 'native');
    const request = { ...chatRequest, stream: true };
    const answer = await answerClient(a, openaiChat, request, OPTIONS);
    expect(await textOf(answer.body)).toBe(sse);
    expect(await answer.finished).toEqual(passedThrough(expect.any(Number)));
  });

  it('ends a translated stream whose upstream falls silent with the error event, not completed', async () => {
    const sse = completionSse(['Hel']);
    const partial = sse.slice(0, sse.indexOf('data: {', 10));
    const { attempt: a, aborts } = attempt(new Response(bodyOf([partial], true)));
    const answer = await answerClient(a, anthropicMessages, messagesRequest(true), {
      ...OPTIONS,
      keep: true,
      idleTimeoutMs: 40,
    });
    const events = sseEvents(await textOf(answer.body));
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { error: { type: 'upstream_timeout' } } });
    const finished = await answer.finished;
    expect(finished).toMatchObject({
      completed: false,
      bytes: null,
      stalled: 'upstream sent nothing for 40 ms',
    });
    expect(aborts).toEqual(['upstream idle timeout']);
  });
});

describe('answerClient, a stream on the call’s timer', () => {
  /** The call's timer as fetchUpstream leaves it: armed for the body's first wait, paused. */
  function pausedCallTimer(idleMs: number) {
    const deadline = createCallDeadline();
    deadline.set(30_000, () => {}, idleMs);
    deadline.pause();
    return deadline;
  }

  /** Sends each chunk `everyMs` after the one before, then ends. */
  function tricklingBody(chunks: string[], everyMs: number): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const chunk of chunks) {
          await new Promise((resolve) => setTimeout(resolve, everyMs));
          controller.enqueue(new TextEncoder().encode(chunk));
        }
        controller.close();
      },
    });
  }

  /**
   * A native chat stream answered with the call's timer, as chat-route-call.ts hands it on;
   * `armed` runs once that timer is armed, before the answer.
   */
  function answerOnCallTimer(a: Attempt, idleTimeoutMs: number, armed?: () => void) {
    a.deadline = pausedCallTimer(idleTimeoutMs);
    armed?.();
    return answerClient(a, openaiChat, { ...chatRequest, stream: true }, { ...OPTIONS, idleTimeoutMs });
  }

  afterEach(() => vi.restoreAllMocks());

  it('arms no timer of its own for a stream that ends in time, and stops the call’s at the end', async () => {
    const sse = completionSse(['Hi']);
    const { attempt: a } = attempt(new Response(bodyOf([sse])), 'native');
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const clearTimer = vi.spyOn(globalThis, 'clearTimeout');
    // Counted from the answer on: the call armed its timer before.
    const answer = await answerOnCallTimer(a, OPTIONS.idleTimeoutMs, () => {
      setTimer.mockClear();
      clearTimer.mockClear();
    });
    expect(await textOf(answer.body)).toBe(sse);
    expect((await answer.finished).completed).toBe(true);
    expect(setTimer).not.toHaveBeenCalled();
    expect(clearTimer).toHaveBeenCalledTimes(1);
  });

  it('cuts a native stream whose upstream falls silent, timed on the call’s timer', async () => {
    const sse = completionSse(['Hel']);
    let upstream: ReadableStreamDefaultController<Uint8Array> | undefined;
    const silent = new ReadableStream<Uint8Array>({
      start(controller) {
        upstream = controller;
        controller.enqueue(new TextEncoder().encode(sse.slice(0, 120)));
      },
    });
    const { attempt: a, aborts } = attempt(new Response(silent), 'native');
    // As the upstream call's abort does: the body breaks off.
    a.abortUpstream = (reason) => {
      aborts.push(reason);
      upstream?.error(new Error(reason));
    };
    const answer = await answerOnCallTimer(a, 40);
    const reading = textOf(answer.body);
    expect(await answer.finished).toMatchObject({
      completed: false,
      stalled: 'upstream sent nothing for 40 ms',
    });
    expect(aborts).toEqual(['upstream idle timeout']);
    // What came, then the format's error event: the client knows the answer is incomplete.
    const text = await reading;
    expect(text.startsWith(sse.slice(0, 120))).toBe(true);
    expect(text.slice(120)).toContain('"type":"upstream_timeout"');
  });

  it('lets a stream run past the idle timeout while its chunks keep coming', async () => {
    const sse = completionSse(['a', 'b', 'c']);
    const thirds = [sse.slice(0, 200), sse.slice(200, 400), sse.slice(400, 600), sse.slice(600)];
    const { attempt: a, aborts } = attempt(new Response(tricklingBody(thirds, 60)), 'native');
    const answer = await answerOnCallTimer(a, 150);
    expect(await textOf(answer.body)).toBe(sse);
    expect(await answer.finished).toMatchObject({ completed: true, stalled: null });
    expect(aborts).toEqual([]);
  });
});

describe('answerClient, streams handed to the runtime’s byte channel', () => {
  /** Node has no IdentityTransformStream: a standard identity stream stands in, its openings counted. */
  function countingChannel() {
    const opened = { count: 0 };
    const open = () => {
      opened.count++;
      return new TransformStream<Uint8Array, Uint8Array>();
    };
    return { open, opened };
  }
  const renamedPlan = () =>
    openaiChat.preparePassthrough(
      { model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [] },
      { clientModel: 'house' },
    );

  it.each([
    ['a translated stream', false],
    ['a kept translated stream', true],
  ])('sends %s through one channel, the same bytes as without', async (_, keep) => {
    const sse = completionSse(['Hel', 'lo']);
    const request = messagesRequest(true);
    const plain = await answerClient(
      attempt(new Response(bodyOf([sse]))).attempt,
      anthropicMessages,
      request,
      {
        ...OPTIONS,
        keep,
      },
    );
    const expected = await textOf(plain.body);
    const { open, opened } = countingChannel();
    const answer = await answerClient(
      attempt(new Response(bodyOf([sse]))).attempt,
      anthropicMessages,
      request,
      {
        ...OPTIONS,
        keep,
        byteChannel: open,
      },
    );
    expect(await textOf(answer.body)).toBe(expected);
    const finished = await answer.finished;
    expect(finished).toMatchObject({ usage: { inputTokens: 12, outputTokens: 5 }, completed: true });
    if (keep) expect(new TextDecoder().decode(finished.bytes ?? undefined)).toBe(expected);
    expect(opened.count).toBe(1);
  });

  it('sends a kept renamed passthrough stream through one channel', async () => {
    const sse = completionSse(['Hi']);
    const { attempt: a } = attempt(new Response(bodyOf([sse])), 'native');
    a.plan = renamedPlan();
    const { open, opened } = countingChannel();
    const request = { ...chatRequest, stream: true };
    const answer = await answerClient(a, openaiChat, request, { ...OPTIONS, keep: true, byteChannel: open });
    const text = await textOf(answer.body);
    expect(text).toContain('"model":"house"');
    const finished = await answer.finished;
    expect(finished.completed).toBe(true);
    expect(new TextDecoder().decode(finished.bytes ?? undefined)).toBe(text);
    expect(opened.count).toBe(1);
  });

  it('ends a translated stream whose upstream falls silent with the error event', async () => {
    const sse = completionSse(['Hel']);
    const partial = sse.slice(0, sse.indexOf('data: {', 10));
    const { attempt: a, aborts } = attempt(new Response(bodyOf([partial], true)));
    const { open } = countingChannel();
    const answer = await answerClient(a, anthropicMessages, messagesRequest(true), {
      ...OPTIONS,
      idleTimeoutMs: 40,
      byteChannel: open,
    });
    const events = sseEvents(await textOf(answer.body));
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { error: { type: 'upstream_timeout' } } });
    expect(await answer.finished).toMatchObject({
      completed: false,
      stalled: 'upstream sent nothing for 40 ms',
    });
    expect(aborts).toEqual(['upstream idle timeout']);
  });
});

describe('answerClient, streams that fail on the upstream’s side', () => {
  /** Sends `chunks`, then the connection breaks (as a reset does). */
  function breakingBody(chunks: string[]): ReadableStream<Uint8Array> {
    const left = [...chunks];
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = left.shift();
        if (chunk !== undefined) controller.enqueue(new TextEncoder().encode(chunk));
        else controller.error(new TypeError('Network connection lost.'));
      },
    });
  }
  const sse = completionSse(['Hel', 'lo']);
  /** The stream up to its second content chunk: no finish, no usage. */
  const head = sse.slice(0, sse.lastIndexOf('data: ', sse.indexOf('"lo"')));
  const chatStream = openaiChat.parseRequest({
    model: 'house',
    stream: true,
    messages: [{ role: 'user', content: 'hi' }],
  });
  const renamedPlan = () =>
    openaiChat.preparePassthrough(
      { model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [] },
      { clientModel: 'house' },
    );
  const channels = [
    ['into a byte channel', () => new TransformStream<Uint8Array, Uint8Array>()],
    ['without one', undefined],
  ] as const;

  for (const [where, byteChannel] of channels) {
    it(`${where}: a native stream that breaks off ends with the format's error event, not completed`, async () => {
      for (const plan of [undefined, renamedPlan()]) {
        const { attempt: a } = attempt(new Response(breakingBody([head])), 'native');
        a.plan = plan;
        const answer = await answerClient(a, openaiChat, chatStream, { ...OPTIONS, byteChannel });
        const text = await textOf(answer.body);
        const last = text.trim().split('\n\n').at(-1) ?? '';
        expect(JSON.parse(last.slice('data: '.length))).toMatchObject({
          error: { type: 'upstream_error', message: expect.stringContaining('Network connection lost') },
        });
        const finished = await answer.finished;
        expect(finished).toMatchObject({ completed: false, usage: null, stalled: null });
        expect(finished.failure).toContain('openai-main broke off the answer');
        // What the estimate rests on: the characters of what came ("Hel").
        expect(finished.answerChars).toBeGreaterThanOrEqual(3);
      }
    });

    it(`${where}: a translated stream that breaks off ends with the client's failure events`, async () => {
      const { attempt: a } = attempt(new Response(breakingBody([head])));
      const answer = await answerClient(a, anthropicMessages, messagesRequest(true), {
        ...OPTIONS,
        byteChannel,
      });
      const events = sseEvents(await textOf(answer.body));
      expect(events.at(-1)).toMatchObject({ event: 'error', data: { type: 'error' } });
      expect(events.some((e) => e.event === 'message_stop')).toBe(false);
      const finished = await answer.finished;
      expect(finished).toMatchObject({ completed: false, stalled: null });
      expect(finished.failure).toContain('openai-main broke off the answer');
      expect(finished.answerChars).toBe(3);
    });
  }

  it('settles a broken passthrough whose client reads nothing within a second, so its row is written', async () => {
    const tight = () =>
      new TransformStream<Uint8Array, Uint8Array>(undefined, { highWaterMark: 0 }, { highWaterMark: 0 });
    const { attempt: a } = attempt(new Response(breakingBody([head, head, head])), 'native');
    const answer = await answerClient(a, openaiChat, chatStream, { ...OPTIONS, byteChannel: tight });
    const started = Date.now();
    const finished = await answer.finished;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(finished.completed).toBe(false);
  });

  it("logs the upstream's own error event in a native stream as its failure", async () => {
    const failing = `${head}data: ${JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })}\n\n`;
    const { attempt: a } = attempt(new Response(bodyOf([failing])), 'native');
    const answer = await answerClient(a, openaiChat, chatStream, OPTIONS);
    expect(await textOf(answer.body)).toBe(failing);
    const finished = await answer.finished;
    expect(finished.failure).toBe('the upstream reported an error: overloaded');
    expect(finished.completed).toBe(false);
  });

  it('ends a renamed stream whose one event outgrows the limit with the error event', async () => {
    configureSseLimits({ maxEventChars: 4096 });
    try {
      const huge = `data: {"choices":[{"delta":{"content":"${'x'.repeat(10_000)}"}}]}\n\n`;
      const { attempt: a } = attempt(
        new Response(bodyOf([head, huge.slice(0, 5000), huge.slice(5000)])),
        'native',
      );
      a.plan = renamedPlan();
      const answer = await answerClient(a, openaiChat, chatStream, OPTIONS);
      const text = await textOf(answer.body);
      expect(text).toContain('exceeds 4096 characters');
      expect(text).not.toContain('x'.repeat(100));
      expect((await answer.finished).failure).toContain('exceeds 4096 characters');
    } finally {
      configureSseLimits({ maxEventChars: DEFAULT_MAX_EVENT_CHARS });
    }
  });
});
