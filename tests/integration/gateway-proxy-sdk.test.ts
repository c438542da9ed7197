// POST /v1/chat/completions, /v1/messages, /v1/responses — the official `openai` and
// `@anthropic-ai/sdk` clients, unmodified, against every provider type (fake upstreams that
// speak each vendor's wire format), streaming or not, with tools; every call in the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedCost, FAKE_PROVIDER_TYPES } from '../helpers/fake-providers';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
let calls = 0;
const PROMPT = 'Say hi';
const lookup = {
  name: 'lookup',
  description: 'Looks a word up',
  parameters: { type: 'object' as const, properties: { query: { type: 'string' } }, required: ['query'] },
};

beforeAll(async () => {
  h = await proxyHarness('proxy_sdk');
});
afterAll(() => h.close());

describe.each(FAKE_PROVIDER_TYPES)('provider type %s', (type) => {
  const model = `m-${type}`;

  it('chat.completions.create: text, then a tool call and its result', async () => {
    const text = await h.openai.chat.completions.create({
      model,
      messages: [{ role: 'user', content: PROMPT }],
    });
    expect(text.choices[0]?.message.content).toBe(`echo: ${PROMPT}`);
    expect(text.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
    const tools = [{ type: 'function' as const, function: lookup }];
    const called = await h.openai.chat.completions.create({
      model,
      tools,
      messages: [{ role: 'user', content: PROMPT }],
    });
    const call = called.choices[0]?.message.tool_calls?.[0];
    expect(called.choices[0]?.finish_reason).toBe('tool_calls');
    if (call?.type !== 'function') throw new Error('expected a function tool call');
    expect(call.function.name).toBe('lookup');
    expect(JSON.parse(call.function.arguments)).toEqual({ query: PROMPT });
    const answered = await h.openai.chat.completions.create({
      model,
      tools,
      messages: [
        { role: 'user', content: PROMPT },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: 'forty-two' },
      ],
    });
    expect(answered.choices[0]?.message.content).toBe('tool said: forty-two');
    calls += 3;
  });

  it('chat.completions streaming: deltas, usage chunk on request, and streamed tool calls', async () => {
    const stream = await h.openai.chat.completions.create({
      model,
      messages: [{ role: 'user', content: PROMPT }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(`echo: ${PROMPT}`);
    expect(usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 3 });
    const runner = h.openai.chat.completions.stream({
      model,
      messages: [{ role: 'user', content: PROMPT }],
      tools: [{ type: 'function', function: lookup }],
    });
    const final = await runner.finalChatCompletion();
    const call = final.choices[0]?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a streamed function tool call');
    expect(call.function.name).toBe('lookup');
    expect(JSON.parse(call.function.arguments)).toEqual({ query: PROMPT });
    calls += 2;
  });

  it('responses.create and responses.stream', async () => {
    const created = await h.openai.responses.create({ model, input: PROMPT });
    expect(created.output_text).toBe(`echo: ${PROMPT}`);
    expect(created.usage).toMatchObject({ input_tokens: 2, output_tokens: 3 });
    const stream = h.openai.responses.stream({ model, input: PROMPT });
    let deltas = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') deltas += event.delta;
    const final = await stream.finalResponse();
    expect(deltas).toBe(`echo: ${PROMPT}`);
    expect(final.output_text).toBe(`echo: ${PROMPT}`);
    const tool = await h.openai.responses.create({
      model,
      input: PROMPT,
      tools: [{ type: 'function', strict: false, ...lookup }],
    });
    const item = tool.output.find((o) => o.type === 'function_call');
    expect(item).toMatchObject({ type: 'function_call', name: 'lookup' });
    calls += 3;
  });

  it('messages.create, messages.stream and tool use with the Anthropic SDK', async () => {
    const message = await h.anthropic.messages.create({
      model,
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: PROMPT }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text', text: `echo: ${PROMPT}` });
    expect(message.usage).toMatchObject({ input_tokens: 4, output_tokens: 3 });
    const stream = h.anthropic.messages.stream({
      model,
      max_tokens: 100,
      messages: [{ role: 'user', content: PROMPT }],
    });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    expect(text).toBe(`echo: ${PROMPT}`);
    expect(final.stop_reason).toBe('end_turn');
    const tools = [{ name: lookup.name, description: lookup.description, input_schema: lookup.parameters }];
    const streamedTool = await h.anthropic.messages
      .stream({ model, max_tokens: 100, tools, messages: [{ role: 'user', content: PROMPT }] })
      .finalMessage();
    const use = streamedTool.content.find((block) => block.type === 'tool_use');
    expect(use).toMatchObject({ type: 'tool_use', name: 'lookup', input: { query: PROMPT } });
    expect(streamedTool.stop_reason).toBe('tool_use');
    calls += 3;
  });
});

describe('GET /v1/models through each SDK', () => {
  it('gives each SDK its own shape: OpenAI’s list, Anthropic’s page of model objects', async () => {
    const openaiList = await h.openai.models.list();
    expect(openaiList.data.map((m) => m.id)).toContain('m-openai');
    expect(openaiList.data[0]).toMatchObject({ object: 'model', owned_by: expect.any(String) });
    const page = await h.anthropic.models.list();
    const ids = page.data.map((m) => m.id);
    expect(ids.sort()).toEqual(openaiList.data.map((m) => m.id).sort());
    for (const m of page.data) {
      expect(m.type).toBe('model');
      expect(m.display_name).toBe(m.id);
      expect(Number.isNaN(Date.parse(m.created_at))).toBe(false);
    }
    expect(page.has_more).toBe(false);
    const one = await h.anthropic.models.retrieve('m-anthropic');
    expect(one).toMatchObject({ type: 'model', id: 'm-anthropic', display_name: 'm-anthropic' });
  });
});

describe('the request log', () => {
  it('holds every SDK call with its tokens and cost, streams included', async () => {
    const rows = await h.logs(calls);
    expect(rows).toHaveLength(calls);
    for (const row of rows) {
      expect(row.statusCode, JSON.stringify(row)).toBe(200);
      expect(row.promptTokens, JSON.stringify(row)).toBeGreaterThan(0);
      expect(row.completionTokens, JSON.stringify(row)).toBeGreaterThan(0);
      expect(row.totalTokens).toBe(row.promptTokens + row.completionTokens);
      expect(row.costUsd).toBeCloseTo(expectedCost(row.promptTokens, row.completionTokens), 12);
      expect(row.unpriced).toBe(false);
    }
    const types = new Set(rows.map((r) => r.providerType));
    expect(types).toEqual(new Set(['openai', 'azure_openai', 'custom', 'anthropic', 'google', 'bedrock']));
    expect(rows.filter((r) => r.stream)).toHaveLength(FAKE_PROVIDER_TYPES.length * 5);
  });
});
