// Claude on the fake Bedrock through the gateway's Bedrock adapter: a thinking tool loop (plain
// and streamed, signed and redacted reasoning sent back as issued), the refusals a real Converse
// endpoint gives an adapter that gets it wrong (Bedrock's wording), prompt-cache usage and betas.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../../shared/src/canonical/ports';
import type {
  AnswerPart,
  CanonicalMessage,
  CanonicalRequest,
  ReasoningOpaque,
  StreamEvent,
  ToolDefinition,
} from '../../shared/src/canonical/types';
import { bedrockAdapter } from '../../shared/src/providers/bedrock/adapter';
import { bedrockRegion, bedrockUrl, signBedrockCall } from '../../shared/src/providers/bedrock/api';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';

const SONNET = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const TOOL: ToolDefinition = {
  kind: 'function',
  name: 'Bash',
  parameters: { type: 'object', properties: { query: { type: 'string' } } },
};
const CLAUDE_CODE_BETAS =
  'claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14';

let fake: FakeUpstreams;
beforeAll(async () => {
  fake = await startFakeUpstreams();
});
afterAll(() => fake.close());

function target(upstreamModel = SONNET, extra: Partial<UpstreamTarget> = {}): UpstreamTarget {
  return {
    baseUrl: fake.baseUrlFor('bedrock'),
    apiKey: fake.apiKeyFor('bedrock'),
    upstreamModel,
    config: fake.configFor('bedrock'),
    maxOutputTokens: 64_000,
    clientHeaders: new Headers({ 'anthropic-beta': CLAUDE_CODE_BETAS }),
    ...extra,
  };
}

function request(messages: CanonicalMessage[], extra: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    model: 'claude-sonnet-4-5',
    system: [{ type: 'text', text: 'You are an agent.' }],
    messages,
    tools: [TOOL],
    reasoning: { effort: 'medium' },
    stream: false,
    ...extra,
  };
}

const user = (text: string): CanonicalMessage => ({ role: 'user', content: [{ type: 'text', text }] });

async function send(body: CanonicalRequest, upstream = target()): Promise<Response> {
  const call = await bedrockAdapter.buildRequest(body, upstream);
  return fetch(call.url, call.init);
}

/** A Converse body as an adapter might get it wrong, signed like any other. */
async function sendRaw(body: Record<string, unknown>, upstreamModel = SONNET): Promise<Response> {
  const upstream = target(upstreamModel);
  const region = bedrockRegion(upstream);
  const call = await signBedrockCall(
    bedrockUrl(upstream, region, false),
    JSON.stringify(body),
    upstream,
    region,
    {
      stream: false,
    },
  );
  return fetch(call.url, call.init);
}

async function streamed(body: CanonicalRequest, upstream = target()): Promise<StreamEvent[]> {
  const res = await send({ ...body, stream: true }, upstream);
  expect(res.status).toBe(200);
  const events: StreamEvent[] = [];
  const reader = res.body!.pipeThrough(bedrockAdapter.createStreamDecoder()).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) events.push(next.value);
  return events;
}

/** The answer's parts rebuilt from stream events, as the gateway's encoders see them. */
function partsOf(events: StreamEvent[]): AnswerPart[] {
  const parts: AnswerPart[] = [];
  for (const event of events) {
    if (event.type === 'reasoning_start') parts.push({ type: 'reasoning', text: '' });
    if (event.type === 'reasoning_delta') (parts.at(-1) as { text: string }).text += event.text;
    if (event.type === 'reasoning_opaque')
      (parts.at(-1) as { opaque?: ReasoningOpaque }).opaque = event.opaque;
    if (event.type === 'tool_call_start')
      parts.push({ type: 'tool_call', id: event.id, name: event.name, arguments: '' });
    if (event.type === 'tool_call_delta')
      (parts.at(-1) as { arguments: string }).arguments += event.argumentsDelta;
  }
  return parts;
}

/** The next turn of the loop: the answer as the assistant's turn, then the tool's result. */
function continued(question: string, answer: AnswerPart[]): CanonicalMessage[] {
  const call = answer.find((part) => part.type === 'tool_call');
  if (call?.type !== 'tool_call') throw new Error('no tool call');
  const result = {
    type: 'tool_result' as const,
    toolCallId: call.id,
    content: [{ type: 'text' as const, text: 'two files' }],
  };
  return [user(question), { role: 'assistant', content: answer }, { role: 'user', content: [result] }];
}

describe('Claude on Bedrock: the thinking tool loop', () => {
  it('answers with signed reasoning first and takes it back to continue the loop', async () => {
    const first = bedrockAdapter.parseResponse(await (await send(request([user('List files')]))).json());
    expect(first.content.map((part) => part.type)).toEqual(['reasoning', 'tool_call']);
    const thought = 'The user needs a file read; calling Bash first.';
    expect(first.content[0]).toMatchObject({ text: thought, opaque: { vendor: 'bedrock' } });
    expect(first.usage.outputTokens).toBe(5 + 9);
    const res = await send(request(continued('List files', first.content)));
    expect(res.status).toBe(200);
    const second = bedrockAdapter.parseResponse(await res.json());
    expect(second.content.at(-1)).toEqual({ type: 'text', text: 'tool said: two files' });
    expect(second.content[0]).toMatchObject({
      type: 'reasoning',
      text: 'The tool answered; I will quote what it said.',
    });
    expect(fake.requests.at(-1)?.observed.verifiedReasoning).toBe(1);
  });

  it.each([
    SONNET,
    'anthropic.claude-opus-4-6-redacted-thinking-v1',
  ])('does the same streamed (%s)', async (model) => {
    const events = await streamed(request([user('Count files')]), target(model));
    const answer = partsOf(events);
    expect(answer.map((part) => part.type)).toEqual(['reasoning', 'tool_call']);
    expect(answer[0]).toMatchObject({ opaque: { vendor: 'bedrock', data: { reasoningContent: {} } } });
    const next = await streamed(request(continued('Count files', answer)), target(model));
    expect(next.filter((event) => event.type === 'error')).toEqual([]);
    expect(
      next
        .filter((event) => event.type === 'text_delta')
        .map((e) => 'text' in e && e.text)
        .join(''),
    ).toBe('tool said: two files');
  });

  it('refuses altered reasoning, as Bedrock checks the signature', async () => {
    const first = bedrockAdapter.parseResponse(await (await send(request([user('Find bugs')]))).json());
    const [reasoning, call] = first.content;
    const data = structuredClone(reasoning?.type === 'reasoning' ? reasoning.opaque?.data : {}) as {
      reasoningContent: { reasoningText: { text: string } };
    };
    data.reasoningContent.reasoningText.text = 'The user needs nothing.';
    const altered: AnswerPart = { type: 'reasoning', text: '', opaque: { vendor: 'bedrock', data } };
    const res = await send(request(continued('Find bugs', [altered, call!])));
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toMatch(/^ValidationException:/);
    expect(await res.json()).toEqual({
      message:
        'The model returned the following errors: messages.1.content.0: Invalid `signature` in `thinking` block',
    });
  });

  it('leaves thinking off for a loop whose reasoning was lost; Bedrock would refuse it on', async () => {
    const first = bedrockAdapter.parseResponse(await (await send(request([user('Grep logs')]))).json());
    const history = continued('Grep logs', first.content.slice(1));
    const res = await send(request(history));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { output: { message: { content: unknown[] } } };
    expect(body.output.message.content).toEqual([{ text: 'tool said: two files' }]);
    const converse = {
      messages: [
        { role: 'user', content: [{ text: 'Grep logs' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'Bash', input: {} } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'none' }] } }] },
      ],
      toolConfig: { tools: [{ toolSpec: { name: 'Bash', inputSchema: { json: { type: 'object' } } } }] },
      inferenceConfig: { maxTokens: 8000 },
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } },
    };
    const refused = await sendRaw(converse);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^The model returned the following errors: messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\. When `thinking` is enabled, a final `assistant` message must start with a thinking block/,
    );
  });
});

describe('Claude on Bedrock: request fields', () => {
  const converse = (fields: Record<string, unknown>, inferenceConfig: object = { maxTokens: 4000 }) => ({
    messages: [{ role: 'user', content: [{ text: 'hi' }] }],
    inferenceConfig,
    additionalModelRequestFields: fields,
  });

  it('refuses betas Bedrock does not serve, which the adapter leaves out', async () => {
    const refused = await sendRaw(converse({ anthropic_beta: ['claude-code-20250219'] }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      message: 'The model returned the following errors: invalid beta flag',
    });
    expect((await send(request([user('hi')]))).status).toBe(200);
    const recorded = fake.requests.at(-1)?.body as { additionalModelRequestFields: unknown };
    expect(recorded.additionalModelRequestFields).toEqual({
      thinking: { type: 'enabled', budget_tokens: 16_384 },
      anthropic_beta: ['interleaved-thinking-2025-05-14'],
    });
  });

  it('refuses thinking beside a temperature, a small cap or a forced tool', async () => {
    const thinking = { thinking: { type: 'enabled', budget_tokens: 2048 } };
    const messages = [
      [converse(thinking, { maxTokens: 4000, temperature: 0.2 }), /`temperature` may only be set to 1/],
      [converse(thinking, { maxTokens: 2048 }), /`max_tokens` must be greater than `thinking.budget_tokens`/],
      [
        {
          ...converse(thinking),
          toolConfig: {
            tools: [{ toolSpec: { name: 'Bash', inputSchema: { json: {} } } }],
            toolChoice: { any: {} },
          },
        },
        /Thinking may not be enabled when tool_choice forces tool use/,
      ],
    ] as const;
    for (const [body, wording] of messages) {
      const res = await sendRaw(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(wording);
    }
  });

  it("refuses Claude's fields on another model family; the adapter sends it none", async () => {
    const llama = 'meta.llama3-3-70b-instruct-v1:0';
    const refused = await sendRaw(converse({ thinking: { type: 'enabled', budget_tokens: 2048 } }), llama);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toContain('extraneous key [thinking]');
    const res = await send(request([user('hi')], { tools: [] }), target(llama, { cacheBreakpoints: true }));
    expect(res.status).toBe(200);
  });
});

describe('Claude on Bedrock: prompt caching', () => {
  it('writes a marked prefix on first sight and reads it after', async () => {
    // Claude caches prefixes of 1024 tokens and more: 1102 words of system prompt.
    const rules = Array.from({ length: 1100 }, (_, n) => `rule${n}`).join(' ');
    const fresh = `Project ${randomUUID()} ${rules}`;
    const body = request([user('Summarize them')], {
      system: [{ type: 'text', text: fresh }],
      tools: [],
      reasoning: undefined,
    });
    const upstream = target(SONNET, { cacheBreakpoints: true });
    const cold = bedrockAdapter.parseResponse(await (await send(body, upstream)).json());
    // System and the user turn (2 words) are all written; nothing was cached before.
    expect(cold.usage).toEqual({ inputTokens: 1104, outputTokens: 3, cacheWriteTokens: 1104 });
    const warm = bedrockAdapter.parseResponse(await (await send(body, upstream)).json());
    expect(warm.usage).toEqual({ inputTokens: 1104, outputTokens: 3, cachedInputTokens: 1104 });
    const events = await streamed(
      {
        ...body,
        messages: [
          ...body.messages,
          { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
          user('More please'),
        ],
      },
      upstream,
    );
    expect(events.find((event) => event.type === 'usage')).toEqual({
      type: 'usage',
      usage: { inputTokens: 1107, outputTokens: 3, cachedInputTokens: 1104, cacheWriteTokens: 3 },
    });
  });

  it('refuses more than four checkpoints, and checkpoints on a model without caching', async () => {
    const point = { cachePoint: { type: 'default' } };
    const many = {
      system: [{ text: 'a' }, point, { text: 'b' }, point, { text: 'c' }, point],
      messages: [{ role: 'user', content: [{ text: 'hi' }, point, { text: 'there' }, point] }],
    };
    const res = await sendRaw(many);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
    const llama = await sendRaw(
      { messages: [{ role: 'user', content: [{ text: 'hi' }, point] }] },
      'meta.llama3-70b',
    );
    expect(llama.status).toBe(400);
    expect(((await llama.json()) as { message: string }).message).toMatch(
      /^You invoked an unsupported model/,
    );
  });
});
