// Guardrails: security.redact in effect. Built-in detectors and named patterns
// replace what they match with [REDACTED:<rule>] in what leaves for the upstream (model prompts,
// MCP tool arguments) and, per rule, in what comes back — streamed answers included, with
// matches split across chunks caught — through the official openai and anthropic SDKs. Real
// Postgres/Redis/ClickHouse; fake upstreams that echo the prompt word by word.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMcpServer, startEverything } from '../fakes/mcp-servers';
import { type ProxyHarness, proxyHarness } from '../helpers/proxy-harness';

let h: ProxyHarness;
let everything: RunningMcpServer;
const PRIVATE =
  'mail jane.doe@example.com card 4111 1111 1111 1111 key sk-proj-abcdefghijklmnopqrstuvwx ticket TCK-4242';
const REDACTED = 'mail [REDACTED:email] card [REDACTED:card] key [REDACTED:api_key] ticket [REDACTED:ticket]';

/** What the fake upstreams were last sent, as text. */
const lastUpstreamBody = () => JSON.stringify(h.fakes.requests.at(-1)?.body);

beforeAll(async () => {
  h = await proxyHarness('redaction');
  const patched = await h.admin('PATCH', '/api/admin/settings', {
    settings: {
      redact: {
        detectors: ['email', 'card', 'api_key'],
        patterns: [
          { name: 'ticket', regex: 'TCK-[0-9]+' },
          // Only on the way back: the upstream sees it, the client does not.
          { name: 'project', regex: '(?i)project\\s+[a-z]+\\s+alpha', apply_to: ['response'] },
        ],
        apply_to: ['request', 'logs'],
      },
    },
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  everything = await startEverything('streamableHttp');
  const server = await h.admin('POST', '/api/mcp/servers', {
    name: 'everything',
    endpoint_url: everything.url,
  });
  expect(server.status).toBe(201);
  expect((await h.admin('POST', `/api/mcp/servers/${server.body.id}/discover`)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await everything?.close();
  await h?.close();
});

describe('security.redact', () => {
  it('redacts what leaves for the upstream: the upstream and its echo see placeholders only', async () => {
    const answer = await h.openai.chat.completions.create({
      model: 'm-openai',
      messages: [{ role: 'user', content: PRIVATE }],
    });
    expect(lastUpstreamBody()).toContain(REDACTED);
    expect(lastUpstreamBody()).not.toContain('jane.doe');
    expect(answer.choices[0]?.message.content).toBe(`echo: ${REDACTED}`);

    const streamed = h.anthropic.messages.stream({
      model: 'm-anthropic',
      max_tokens: 100,
      system: 'The owner is jane.doe@example.com',
      messages: [{ role: 'user', content: 'card 4111-1111-1111-1111 please' }],
    });
    expect(await streamed.finalText()).toBe('echo: card [REDACTED:card] please');
    expect(lastUpstreamBody()).toContain('The owner is [REDACTED:email]');
  });

  it('redacts answers per rule, streamed or not, a match split across chunks included', async () => {
    const prompt = 'tell me about Project Zephyr Alpha and TCK-7';
    const plain = await h.openai.chat.completions.create({
      model: 'm-openai',
      messages: [{ role: 'user', content: prompt }],
    });
    // The response-only rule let the upstream see the project; the client does not.
    expect(lastUpstreamBody()).toContain('Project Zephyr Alpha');
    expect(plain.choices[0]?.message.content).toBe(
      'echo: tell me about [REDACTED:project] and [REDACTED:ticket]',
    );
    // Streamed word by word: "Project", " Zephyr", " Alpha" arrive as three chunks.
    const stream = await h.openai.chat.completions.create({
      model: 'm-openai',
      stream: true,
      messages: [{ role: 'user', content: prompt }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('echo: tell me about [REDACTED:project] and [REDACTED:ticket]');
    const responses = await h.openai.responses.create({ model: 'm-openai', input: prompt, stream: true });
    let output = '';
    for await (const event of responses)
      if (event.type === 'response.output_text.delta') output += event.delta;
    expect(output).toBe('echo: tell me about [REDACTED:project] and [REDACTED:ticket]');
  });

  it('redacts MCP tool arguments on their way to the server', async () => {
    const transport = new StreamableHTTPClientTransport(new URL('http://gateway.test/mcp'), {
      fetch: ((input: string | URL | Request, init?: RequestInit) =>
        h.gateway.app.request(input instanceof Request ? input : String(input), init)) as typeof fetch,
      requestInit: { headers: { authorization: `Bearer ${h.apiKey}` } },
    });
    const client = new Client({ name: 'redaction-test', version: '1.0.0' });
    await client.connect(transport);
    const echo = await client.callTool({ name: 'everything__echo', arguments: { message: PRIVATE } });
    expect(echo.content).toEqual([{ type: 'text', text: `Echo: ${REDACTED}` }]);
    await client.close();
  });

  it('is validated at PATCH: 422 at the field', async () => {
    const bad = await h.admin('PATCH', '/api/admin/settings', {
      settings: { redact: { detectors: ['ssn'], patterns: [{ name: 'p', regex: '(\\d+)+' }] } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      'settings.redact.detectors.0',
      'settings.redact.patterns.0.regex',
    ]);
  });
});
