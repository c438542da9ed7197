// Fake upstream providers (tests/fakes) driven by the gateway's own provider adapters: every
// provider type, streaming and not, text, tool calls, tool results, usage, failures by model
// name, and credentials. Plus raw-wire checks of the OpenAI stream ending and the Responses API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderAdapter, UpstreamTarget } from '../../shared/src/canonical/ports';
import type {
  CanonicalMessage,
  CanonicalRequest,
  StreamEvent,
  ToolDefinition,
  Usage,
} from '../../shared/src/canonical/types';
import { providerAdapters } from '../../shared/src/providers/registry';
import {
  createResponsesNativeUsageReader,
  responsesUsageFromResponse,
} from '../../shared/src/wire/openai-responses/usage';
import {
  FAKE_BEDROCK_CREDENTIALS,
  type FakeUpstreams,
  startFakeUpstreams,
  VENDORS,
  type Vendor,
  WRONG_KEY_STATUS,
} from '../fakes/server';

const ADAPTERS: Record<Vendor, ProviderAdapter> = {
  openai: providerAdapters.openai,
  azure: providerAdapters.azure_openai,
  custom: providerAdapters.custom,
  anthropic: providerAdapters.anthropic,
  google: providerAdapters.google,
  bedrock: providerAdapters.bedrock,
};

/** Realistic upstream names; Bedrock's `:` must survive path encoding and the signature. */
const MODELS: Record<Vendor, string> = {
  openai: 'gpt-4o-mini',
  azure: 'prod-gpt4o-deployment',
  custom: 'llama-3.1-8b-instruct',
  anthropic: 'claude-sonnet-4-5',
  google: 'gemini-2.5-flash',
  bedrock: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
};

const SYSTEM = 'You are terse.';
const USER_TEXT = 'héllo wörld ✓ again';
const TOOL_OUTPUT = 'sunny and warm';
const TOOL: ToolDefinition = {
  kind: 'function',
  name: 'lookup',
  description: 'Looks a query up',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};
/** System (3 words) + user (4 words). */
const INPUT_TOKENS = 7;
const ECHO = `echo: ${USER_TEXT}`;
const TOOL_REPLY = `tool said: ${TOOL_OUTPUT}`;

const userTurn: CanonicalMessage = { role: 'user', content: [{ type: 'text', text: USER_TEXT }] };
const toolHistory: CanonicalMessage[] = [
  userTurn,
  {
    role: 'assistant',
    content: [
      {
        type: 'tool_call',
        id: 'call_prev_1',
        name: TOOL.name,
        arguments: JSON.stringify({ query: USER_TEXT }),
      },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', toolCallId: 'call_prev_1', content: [{ type: 'text', text: TOOL_OUTPUT }] },
    ],
  },
];

function canonical(overrides: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    model: 'client-model',
    system: [{ type: 'text', text: SYSTEM }],
    messages: [userTurn],
    maxTokens: 64,
    stream: false,
    ...overrides,
  };
}

let fake: FakeUpstreams;

beforeAll(async () => {
  fake = await startFakeUpstreams();
});
afterAll(() => fake.close());

function target(
  vendor: Vendor,
  upstreamModel = MODELS[vendor],
  apiKey = fake.apiKeyFor(vendor),
): UpstreamTarget {
  return { baseUrl: fake.baseUrlFor(vendor), apiKey, upstreamModel, config: fake.configFor(vendor) };
}

async function send(
  vendor: Vendor,
  request: CanonicalRequest,
  upstream = target(vendor),
  signal?: AbortSignal,
) {
  const call = await ADAPTERS[vendor].buildRequest(request, upstream);
  return fetch(call.url, { ...call.init, signal });
}

async function decode(vendor: Vendor, res: Response): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  const reader = res.body!.pipeThrough(ADAPTERS[vendor].createStreamDecoder()).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) events.push(next.value);
  return events;
}

interface StreamSummary {
  text: string;
  textDeltas: number;
  tools: Array<{ name: string; arguments: string; deltas: number }>;
  finish?: string;
  usage?: Usage;
  errors: StreamEvent[];
}

/** Folds canonical events, checking the block protocol (start first, blocks sequential). */
function summarize(events: StreamEvent[]): StreamSummary {
  expect(events[0]?.type).toBe('start');
  const out: StreamSummary = { text: '', textDeltas: 0, tools: [], errors: [] };
  let open: number | undefined;
  for (const event of events) {
    if (event.type === 'text_start' || event.type === 'tool_call_start') {
      expect(open).toBeUndefined();
      open = event.index;
      if (event.type === 'tool_call_start') out.tools.push({ name: event.name, arguments: '', deltas: 0 });
    } else if (event.type === 'text_delta' || event.type === 'tool_call_delta') {
      expect(event.index).toBe(open);
      if (event.type === 'text_delta') {
        out.text += event.text;
        out.textDeltas += 1;
      } else {
        const tool = out.tools.at(-1)!;
        tool.arguments += event.argumentsDelta;
        tool.deltas += 1;
      }
    } else if (event.type === 'block_stop') {
      expect(event.index).toBe(open);
      open = undefined;
    } else if (event.type === 'finish') out.finish = event.finishReason;
    else if (event.type === 'usage') out.usage = event.usage;
    else if (event.type === 'error') out.errors.push(event);
  }
  expect(open).toBeUndefined();
  return out;
}

describe.each(VENDORS)('%s fake through the %s adapter', (vendor) => {
  const adapter = ADAPTERS[vendor];

  it('answers text with an echo of the last user message and word-count usage', async () => {
    const res = await send(vendor, canonical());
    expect(res.status).toBe(200);
    const parsed = adapter.parseResponse(await res.json());
    expect(parsed.content).toEqual([{ type: 'text', text: ECHO }]);
    expect(parsed.finishReason).toBe('stop');
    expect(parsed.usage).toMatchObject({ inputTokens: INPUT_TOKENS, outputTokens: 5 });
    if (vendor !== 'bedrock') expect(parsed.model).toBe(MODELS[vendor]);
  });

  it('calls the first declared tool with the user text as its query', async () => {
    const res = await send(vendor, canonical({ tools: [TOOL] }));
    expect(res.status).toBe(200);
    const parsed = adapter.parseResponse(await res.json());
    expect(parsed.content).toHaveLength(1);
    const [call] = parsed.content;
    expect(call).toMatchObject({ type: 'tool_call', name: TOOL.name });
    expect(call?.type === 'tool_call' && call.id).toBeTruthy();
    expect(JSON.parse(call?.type === 'tool_call' ? call.arguments : '')).toEqual({ query: USER_TEXT });
    expect(parsed.finishReason).toBe('tool_calls');
    expect(parsed.usage).toMatchObject({ inputTokens: INPUT_TOKENS, outputTokens: 5 });
  });

  it('answers a tool result with what the tool said', async () => {
    const res = await send(vendor, canonical({ tools: [TOOL], messages: toolHistory }));
    expect(res.status).toBe(200);
    const parsed = adapter.parseResponse(await res.json());
    expect(parsed.content).toEqual([{ type: 'text', text: TOOL_REPLY }]);
    expect(parsed.finishReason).toBe('stop');
    expect(parsed.usage).toMatchObject({ inputTokens: INPUT_TOKENS + 3, outputTokens: 5 });
  });

  it('streams text word by word, then finish and usage', async () => {
    const res = await send(vendor, canonical({ stream: true }));
    expect(res.status).toBe(200);
    const summary = summarize(await decode(vendor, res));
    expect(summary.errors).toEqual([]);
    expect(summary.text).toBe(ECHO);
    expect(summary.textDeltas).toBeGreaterThanOrEqual(5);
    expect(summary.tools).toEqual([]);
    expect(summary.finish).toBe('stop');
    expect(summary.usage).toMatchObject({ inputTokens: INPUT_TOKENS, outputTokens: 5 });
  });

  it('streams a tool call with its arguments in fragments', async () => {
    const res = await send(vendor, canonical({ stream: true, tools: [TOOL] }));
    const summary = summarize(await decode(vendor, res));
    expect(summary.errors).toEqual([]);
    expect(summary.text).toBe('');
    expect(summary.tools).toHaveLength(1);
    const [tool] = summary.tools;
    expect(tool?.name).toBe(TOOL.name);
    expect(JSON.parse(tool?.arguments ?? '')).toEqual({ query: USER_TEXT });
    // Gemini sends a function call whole; everyone else streams the arguments.
    expect(tool?.deltas).toBeGreaterThanOrEqual(vendor === 'google' ? 1 : 3);
    expect(summary.finish).toBe('tool_calls');
    expect(summary.usage).toMatchObject({ inputTokens: INPUT_TOKENS, outputTokens: 5 });
  });

  it('streams the answer to a tool result', async () => {
    const res = await send(vendor, canonical({ stream: true, tools: [TOOL], messages: toolHistory }));
    const summary = summarize(await decode(vendor, res));
    expect(summary.errors).toEqual([]);
    expect(summary.text).toBe(TOOL_REPLY);
    expect(summary.finish).toBe('stop');
  });

  it.each([
    [503, true],
    [429, true],
    [400, false],
  ])('fail-%i is a %s-retryable upstream error in the vendor shape', async (status, retryable) => {
    const res = await send(vendor, canonical(), target(vendor, `fail-${status}`));
    expect(res.status).toBe(status);
    if (status === 429) expect(res.headers.get('retry-after')).toBe('1');
    const error = adapter.mapError(res.status, await res.text());
    expect(error).toMatchObject({ status, retryable });
    expect(error.message).toContain(`Simulated HTTP ${status}`);
    if (status === 400) expect(error.type).toBe('invalid_request_error');
  });

  it('rejects a wrong credential the way the vendor does', async () => {
    const wrong = vendor === 'bedrock' ? 'AKIAWRONGWRONGWRONG1:secret' : 'wrong-key-0000';
    const res = await send(vendor, canonical(), target(vendor, MODELS[vendor], wrong));
    expect(res.status).toBe(WRONG_KEY_STATUS[vendor]);
    const error = adapter.mapError(res.status, await res.text());
    expect(error.retryable).toBe(false);
    if (['azure', 'anthropic', 'google'].includes(vendor)) expect(error.type).toBe('authentication_error');
  });

  it('waits for slow-<ms> before answering', async () => {
    const started = Date.now();
    const res = await send(vendor, canonical(), target(vendor, 'slow-250'));
    expect(res.status).toBe(200);
    expect(adapter.parseResponse(await res.json()).content).toEqual([{ type: 'text', text: ECHO }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('gives up on a slow answer when the client aborts', async () => {
    const started = Date.now();
    const call = send(vendor, canonical(), target(vendor, 'slow-5000'), AbortSignal.timeout(100));
    await expect(call).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('cut-stream breaks the connection mid-stream', async () => {
    const res = await send(vendor, canonical({ stream: true }), target(vendor, 'cut-stream'));
    expect(res.status).toBe(200);
    const outcome = await decode(vendor, res).then(
      (events) => events,
      (error: unknown) => error,
    );
    if (Array.isArray(outcome)) expect(outcome.some((event) => event.type === 'error')).toBe(true);
    else expect(outcome).toBeInstanceOf(Error);
  });
});

describe('recorded requests', () => {
  it('keeps vendor, path, query, headers and parsed body', async () => {
    const before = fake.requests.length;
    await (await send('azure', canonical())).json();
    const recorded = fake.requests.slice(before);
    expect(recorded).toHaveLength(1);
    const [azure] = recorded;
    expect(azure).toMatchObject({ vendor: 'azure', method: 'POST' });
    expect(azure?.path).toBe(`/azure/openai/deployments/${MODELS.azure}/chat/completions`);
    expect(new URLSearchParams(azure?.query).get('api-version')).toBe('2024-10-21');
    expect(azure?.headers['api-key']).toBe(fake.apiKeyFor('azure'));
    expect(azure?.body).toMatchObject({
      messages: [{ role: 'system' }, { role: 'user', content: USER_TEXT }],
    });
  });

  it('keeps the SigV4 authorization of a Bedrock call, the model id percent-encoded', async () => {
    const before = fake.requests.length;
    await (await send('bedrock', canonical())).json();
    const [bedrock] = fake.requests.slice(before);
    expect(bedrock?.path).toBe('/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse');
    const credential = `${FAKE_BEDROCK_CREDENTIALS.accessKeyId}/\\d{8}/us-east-1/bedrock/aws4_request`;
    expect(bedrock?.headers.authorization).toMatch(
      new RegExp(`^AWS4-HMAC-SHA256 Credential=${credential}, `),
    );
  });
});

/** A chat completions stream read off the wire, without any adapter. */
async function rawChatStream(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${fake.baseUrlFor('openai')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${fake.apiKeyFor('openai')}` },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi there' }],
      ...body,
    }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return res.text();
}

function chunksOf(text: string): Array<Record<string, unknown>> {
  const data = text.split('\n\n').filter((frame) => frame.startsWith('data: {'));
  return data.map((frame) => JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>);
}

describe('OpenAI chat completions stream on the wire', () => {
  it('ends with data: [DONE] and has no usage chunk unless asked', async () => {
    const text = await rawChatStream({ stream: true });
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const chunks = chunksOf(text);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk).not.toHaveProperty('usage');
      expect(chunk.choices).toHaveLength(1);
    }
  });

  it('adds one final usage chunk with empty choices when include_usage is set', async () => {
    const text = await rawChatStream({ stream: true, stream_options: { include_usage: true } });
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const chunks = chunksOf(text);
    const withUsage = chunks.filter((chunk) => chunk.usage !== null);
    expect(withUsage).toHaveLength(1);
    expect(chunks.at(-1)).toBe(withUsage[0]);
    expect(withUsage[0]).toMatchObject({
      choices: [],
      usage: {
        prompt_tokens: 2,
        completion_tokens: 3,
        total_tokens: 5,
        prompt_tokens_details: { cached_tokens: 0 },
      },
    });
  });

  it('refuses stream_options without stream, as OpenAI does', async () => {
    const res = await fetch(`${fake.baseUrlFor('openai')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${fake.apiKeyFor('openai')}` },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream_options: {} }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });
});

describe('OpenAI Responses API (passthrough call of the openai adapter)', () => {
  const responsesCall = (body: Record<string, unknown>) =>
    ADAPTERS.openai.nativeCalls!['openai-responses']!(body, target('openai'));
  const toolItems = [
    { role: 'user', content: USER_TEXT },
    { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}' },
    { type: 'function_call_output', call_id: 'call_1', output: TOOL_OUTPUT },
  ];
  const responsesTool = { type: 'function', name: TOOL.name, parameters: TOOL.parameters };

  it('answers a response object with a message item and usage', async () => {
    const call = responsesCall({ model: 'client', instructions: SYSTEM, input: USER_TEXT });
    const body = (await (await fetch(call.url, call.init)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ object: 'response', status: 'completed', model: MODELS.openai });
    expect(body.output).toMatchObject([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: ECHO }] },
    ]);
    expect(body.usage).toMatchObject({ total_tokens: INPUT_TOKENS + 5 });
    expect(responsesUsageFromResponse(body)).toEqual({
      inputTokens: INPUT_TOKENS,
      outputTokens: 5,
      cachedInputTokens: 0,
    });
  });

  it('answers a function_call item when tools are declared, and reads function_call_output', async () => {
    const call = responsesCall({ model: 'client', input: USER_TEXT, tools: [responsesTool] });
    const body = (await (await fetch(call.url, call.init)).json()) as {
      output: Array<Record<string, unknown>>;
    };
    expect(body.output).toMatchObject([{ type: 'function_call', name: TOOL.name, status: 'completed' }]);
    expect(JSON.parse(String(body.output[0]?.arguments))).toEqual({ query: USER_TEXT });
    const followUp = responsesCall({ model: 'client', input: toolItems, tools: [responsesTool] });
    const answer = (await (await fetch(followUp.url, followUp.init)).json()) as Record<string, unknown>;
    expect(answer.output).toMatchObject([{ type: 'message', content: [{ text: TOOL_REPLY }] }]);
  });

  async function streamed(body: Record<string, unknown>) {
    const call = responsesCall({ model: 'client', stream: true, ...body });
    const res = await fetch(call.url, call.init);
    const reader = createResponsesNativeUsageReader();
    const text = await new Response(res.body!.pipeThrough(reader.transform)).text();
    const frames = text.split('\n\n').filter((frame) => frame !== '');
    const events = frames.map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      const data = JSON.parse(dataLine!.slice('data: '.length)) as Record<string, unknown>;
      expect(eventLine).toBe(`event: ${String(data.type)}`);
      return data;
    });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, n) => n));
    return { events, types: events.map((event) => String(event.type)), usage: await reader.usage };
  }

  it('streams the real text event sequence, usage on response.completed', async () => {
    const { events, types, usage } = await streamed({ instructions: SYSTEM, input: USER_TEXT });
    const deltas = types.filter((type) => type === 'response.output_text.delta').length;
    expect(deltas).toBe(5);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array<string>(deltas).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const text = events.flatMap((event) =>
      event.type === 'response.output_text.delta' ? [event.delta] : [],
    );
    expect(text.join('')).toBe(ECHO);
    expect(usage).toEqual({ inputTokens: INPUT_TOKENS, outputTokens: 5, cachedInputTokens: 0 });
  });

  it('streams function call arguments in fragments', async () => {
    const { events, types } = await streamed({ input: USER_TEXT, tools: [responsesTool] });
    const deltas = events.filter((event) => event.type === 'response.function_call_arguments.delta');
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(deltas.map((event) => event.delta).join(''))).toEqual({ query: USER_TEXT });
    expect(types.slice(-3)).toEqual([
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });
});

describe('vendor-specific refusals', () => {
  const post = (vendor: Vendor, path: string, headers: Record<string, string>, body: unknown) =>
    fetch(`${fake.url}/${vendor}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

  it('anthropic requires anthropic-version and max_tokens', async () => {
    const key = { 'x-api-key': fake.apiKeyFor('anthropic') };
    const messages = [{ role: 'user', content: 'hi' }];
    const noVersion = await post('anthropic', '/v1/messages', key, { model: 'm', max_tokens: 5, messages });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const headers = { ...key, 'anthropic-version': '2023-06-01' };
    const noMax = await post('anthropic', '/v1/messages', headers, { model: 'm', messages });
    expect(noMax.status).toBe(400);
  });

  it('bedrock accepts an inference-profile ARN as model id and a session-token credential', async () => {
    const arn =
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-sonnet-v1:0';
    const withToken = `${fake.apiKeyFor('bedrock')}:FwoGZXIvYXdzEFakeSessionToken+/=`;
    const res = await send('bedrock', canonical(), target('bedrock', arn, withToken));
    expect(res.status).toBe(200);
    expect(ADAPTERS.bedrock.parseResponse(await res.json()).content).toEqual([{ type: 'text', text: ECHO }]);
    const recorded = fake.requests.at(-1);
    expect(recorded?.path).toBe(`/bedrock/model/${encodeURIComponent(arn)}/converse`);
    expect(recorded?.headers['x-amz-security-token']).toBe('FwoGZXIvYXdzEFakeSessionToken+/=');
  });

  it('google streams a JSON array without alt=sse', async () => {
    const headers = { 'x-goog-api-key': fake.apiKeyFor('google') };
    const contents = [{ role: 'user', parts: [{ text: USER_TEXT }] }];
    const res = await post('google', '/v1beta/models/gemini-2.5-flash:streamGenerateContent', headers, {
      contents,
    });
    expect(res.status).toBe(200);
    const chunks = JSON.parse(await res.text()) as Array<{ candidates: Array<Record<string, unknown>> }>;
    expect(chunks).toHaveLength(5);
    expect(chunks.at(-1)?.candidates[0]).toMatchObject({ finishReason: 'STOP' });
  });

  it('google answers a missing key with 403 PERMISSION_DENIED', async () => {
    const res = await post('google', '/v1beta/models/gemini-2.5-flash:generateContent', {}, { contents: [] });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
  });

  it('bedrock checks the signature, not just the access key id', async () => {
    const upstream = target('bedrock');
    const call = await ADAPTERS.bedrock.buildRequest(canonical(), upstream);
    const tampered = await fetch(call.url, {
      ...call.init,
      body: call.init.body.replace('terse', 'verbose'),
    });
    expect(tampered.status).toBe(403);
    expect(tampered.headers.get('x-amzn-errortype')).toMatch(/^InvalidSignatureException:/);
    const wrongSecret = `${FAKE_BEDROCK_CREDENTIALS.accessKeyId}:not-the-secret`;
    const res = await send('bedrock', canonical(), target('bedrock', MODELS.bedrock, wrongSecret));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      message: expect.stringContaining('signature we calculated does not match'),
    });
    const unsigned = await fetch(call.url, { method: 'POST', body: call.init.body });
    expect(unsigned.headers.get('x-amzn-errortype')).toMatch(/^MissingAuthenticationTokenException:/);
  });
});
