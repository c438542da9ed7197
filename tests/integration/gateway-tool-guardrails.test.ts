// Guardrails on what models answer and on what passes flagged: security.inspect_tools
// rules remove a tool call a model emits (streamed or not, through the official SDKs of all three
// formats, with the arguments split across chunks), and a content rule with `action: "flag"` lets
// a request pass with its log row marked. Real Postgres/Redis/ClickHouse, fake upstreams.
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
const NOTE = '[Tool call "run_sql" blocked by tool rule "no-drops"]';
/** The fake model calls the first declared tool with `{"query": <the user's text>}`. */
const RUN_SQL: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: { name: 'run_sql', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
};
const DROP = 'please DROP   TABLE users';

beforeAll(async () => {
  h = await proxyHarness('tool_guardrails');
  const patched = await h.admin('PATCH', '/api/admin/settings', {
    settings: {
      inspect_tools: { deny: [{ name: 'no-drops', tool: 'run_*', argument_regex: '(?i)drop\\s+table' }] },
      content: { deny: [{ name: 'mentions-salary', regex: '(?i)salary', action: 'flag' }] },
    },
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
}, 60_000);
afterAll(() => h?.close());

describe('security.inspect_tools on model answers', () => {
  it('chat completions: a blocked call becomes a note and finish_reason content_filter; an allowed one is intact', async () => {
    const blocked = await h.openai.chat.completions.create({
      model: 'm-openai',
      tools: [RUN_SQL],
      messages: [{ role: 'user', content: DROP }],
    });
    expect(blocked.choices[0]?.finish_reason).toBe('content_filter');
    expect(blocked.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(blocked.choices[0]?.message.content).toBe(NOTE);
    expect(JSON.stringify(blocked)).not.toContain('DROP');

    const stream = await h.openai.chat.completions.create({
      model: 'm-openai',
      stream: true,
      tools: [RUN_SQL],
      messages: [{ role: 'user', content: DROP }],
    });
    let text = '';
    let finish: string | null = null;
    let toolDeltas = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      toolDeltas += chunk.choices[0]?.delta.tool_calls?.length ?? 0;
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect({ text, finish, toolDeltas }).toEqual({ text: NOTE, finish: 'content_filter', toolDeltas: 0 });

    const allowed = await h.openai.chat.completions
      .stream({
        model: 'm-openai',
        stream: true,
        tools: [RUN_SQL],
        messages: [{ role: 'user', content: 'select 1' }],
      })
      .finalChatCompletion();
    expect(allowed.choices[0]?.finish_reason).toBe('tool_calls');
    expect(allowed.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'run_sql', arguments: JSON.stringify({ query: 'select 1' }) },
    });
  });

  it('messages (Anthropic SDK) and responses: the same rule, streamed and not', async () => {
    const tool = { name: 'run_sql', input_schema: { type: 'object' as const, properties: {} } };
    const plain = await h.anthropic.messages.create({
      model: 'm-anthropic',
      max_tokens: 50,
      tools: [tool],
      messages: [{ role: 'user', content: DROP }],
    });
    expect(plain.stop_reason).toBe('refusal');
    expect(plain.content.map((block) => block.type)).toEqual(['text']);
    expect(plain.content[0]).toMatchObject({ text: NOTE });
    const streamed = await h.anthropic.messages
      .stream({
        model: 'm-anthropic',
        max_tokens: 50,
        tools: [tool],
        messages: [{ role: 'user', content: DROP }],
      })
      .finalMessage();
    expect(streamed.stop_reason).toBe('refusal');
    expect(streamed.content.map((block) => block.type)).toEqual(['text']);
    expect(streamed.content[0]).toMatchObject({ text: NOTE });

    const responses = await h.openai.responses.create({
      model: 'm-openai',
      tools: [{ type: 'function', name: 'run_sql', parameters: {}, strict: false }],
      input: DROP,
    });
    expect(responses.status).toBe('incomplete');
    expect(responses.incomplete_details).toEqual({ reason: 'content_filter' });
    expect(responses.output.some((item) => item.type === 'function_call')).toBe(false);
    expect(responses.output_text).toBe(NOTE);
  });

  it('logs each removal in the row’s guardrail field and counts it in /metrics', async () => {
    const rows = await h.logs(6);
    const removed = rows.filter((row) => row.guardrail === 'block:inspect_tools:no-drops');
    expect(removed.length).toBeGreaterThanOrEqual(5);
    for (const row of removed) expect(row.statusCode).toBe(200);
    await expect
      .poll(async () => (await h.gateway.app.request('/metrics')).text(), { timeout: 5000 })
      .toMatch(/sluice_guardrail_blocks_total\{guardrail="inspect_tools",rule="no-drops"\} [5-9]\b/);
  });
});

describe('security.content flag rules', () => {
  it('let the request pass and mark its log row; /metrics counts the flag', async () => {
    // Rows are written after each response: wait for this request's own (newest first).
    const before = (await h.logs(0)).length;
    const answer = await h.openai.chat.completions.create({
      model: 'm-openai',
      messages: [{ role: 'user', content: 'what is the salary band?' }],
    });
    expect(answer.choices[0]?.message.content).toBe('echo: what is the salary band?');
    const [row] = await h.logs(before + 1);
    expect(row).toMatchObject({ statusCode: 200, guardrail: 'flag:content:mentions-salary' });
    const clean = await h.openai.chat.completions.create({
      model: 'm-openai',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(clean.choices[0]?.message.content).toBe('echo: hello');
    expect((await h.logs(before + 2))[0]?.guardrail).toBeNull();
    await expect
      .poll(async () => (await h.gateway.app.request('/metrics')).text(), { timeout: 5000 })
      .toMatch(/sluice_guardrail_flags_total\{guardrail="content",rule="mentions-salary"\} 1\b/);
  });
});
