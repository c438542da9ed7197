// Coding agents (docs/agents.md), each against vendors of its own and of other formats, over real
// HTTP against the stack as `npm start` runs it: the real coding agents (Claude Code, Codex,
// opencode; pinned in package.json), unmodified and offline, with a Sluice key and a model alias,
// through fake vendors that enforce the vendors' own rules (signed thinking and encrypted reasoning
// sent back unaltered, tool ids that match, unknown parameters refused). Each cell is a two-turn
// tool loop with reasoning on: read a file, then answer with the secret word in it. Every request
// is in the request log with the client, the reasoning effort and tokens, cache reads and writes,
// and a cost at the cache prices.
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';
import type { RecordedRequest } from '../fakes/server';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import {
  AGENT_MODELS,
  agentCost,
  configureAgentRoutes,
  createAgentKey,
  describeRequests,
  type RouteType,
  waitForAliases,
} from '../helpers/agent-gateway';
import {
  AGENT_VERSIONS,
  type AgentName,
  type AgentRun,
  type AgentWorkspace,
  agentWorkspace,
  claudeRun,
  codexRun,
  describeRun,
  ensureAgentClis,
  type GatewayTarget,
  type OpencodeProvider,
  opencodeRun,
  runAgent,
} from '../helpers/coding-agents';
import { e2eRequestLogStore } from '../helpers/e2e-request-logs';
import { type ConsoleCall, PROVIDER_VENDORS } from '../helpers/fake-providers';
import { adminConsole } from '../helpers/first-run';

const { gatewayUrl, consoleUrl } = inject('stack');
/** One CLI run: opencode takes 3–5 s to start, the others well under a second, plus the turns. */
const RUN_TIMEOUT_MS = 120_000;

interface Cell {
  agent: AgentName;
  /** opencode's provider package (its client format). */
  opencode?: OpencodeProvider;
  route: RouteType;
  /** The file-reading tool the agent declares. */
  tool: string;
  /** The effort the agent asks for, on OpenAI's scale (docs/agents.md's table). */
  effort: string;
}

const CELLS: Cell[] = [
  { agent: 'claude-code', route: 'anthropic', tool: 'Read', effort: 'high' },
  { agent: 'claude-code', route: 'openai', tool: 'Read', effort: 'high' },
  { agent: 'claude-code', route: 'bedrock', tool: 'Read', effort: 'high' },
  { agent: 'codex', route: 'openai', tool: 'exec_command', effort: 'high' },
  { agent: 'codex', route: 'anthropic', tool: 'exec_command', effort: 'high' },
  // opencode's anthropic provider asks for thinking with a 15,999-token budget: medium.
  { agent: 'opencode', opencode: 'anthropic', route: 'openai', tool: 'read', effort: 'medium' },
  { agent: 'opencode', opencode: 'chat', route: 'anthropic', tool: 'read', effort: 'high' },
  { agent: 'opencode', opencode: 'responses', route: 'anthropic', tool: 'read', effort: 'high' },
];

/** Bedrock's Converse usage has no reasoning count; Anthropic and OpenAI report theirs. */
const REPORTS_REASONING_TOKENS: Readonly<Record<RouteType, boolean>> = {
  anthropic: true,
  openai: true,
  bedrock: false,
};

const cellName = (cell: Cell): string =>
  `${cell.agent}${cell.opencode ? ` (${cell.opencode} provider)` : ''} × ${cell.route}-type route`;

let fakes: FakeUpstreams;
let api: ConsoleCall;
let providerIds: string[] = [];
/** The keys of the runs, and when they began, for the analytics check at the end. */
const runKeys: string[] = [];
let runsFrom: string;

beforeAll(async () => {
  runsFrom = new Date().toISOString();
  ensureAgentClis();
  fakes = await startFakeUpstreams();
  api = await adminConsole(consoleUrl);
  providerIds = await configureAgentRoutes(api, fakes);
  const probe = await createAgentKey(api, 'coding agents: alias probe');
  await waitForAliases(gatewayUrl, probe.key);
});
afterAll(async () => {
  // The stack is shared with the suite's other files: its providers point at fakes that stop here.
  for (const id of providerIds) await api('DELETE', `/api/admin/providers/${id}`);
  await fakes?.close();
});

function agentRun(cell: Cell, workspace: AgentWorkspace, target: GatewayTarget): AgentRun {
  if (cell.agent === 'claude-code') return claudeRun(workspace, target, RUN_TIMEOUT_MS);
  if (cell.agent === 'codex') return codexRun(workspace, target, RUN_TIMEOUT_MS);
  // opencode's background npm install goes to the fakes' server, which answers it 404.
  const registry = `${fakes.url}/npm-registry/`;
  return opencodeRun(workspace, target, cell.opencode ?? 'anthropic', registry, RUN_TIMEOUT_MS);
}

async function logRows(apiKeyId: string, count: number): Promise<RequestLogRecord[]> {
  return vi.waitFor(
    async () => {
      const rows = await e2eRequestLogStore().list({ apiKeyId, limit: 100 });
      if (rows.length < count) throw new Error(`${rows.length} of ${count} request-log rows`);
      return rows;
    },
    { timeout: 20_000, interval: 250 },
  );
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

/** Request-log rows' token sums, as the vendor's usage and analytics by client count them. */
interface TokenTotals {
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

function totalsOf(rows: readonly RequestLogRecord[]): TokenTotals {
  return {
    prompt: sum(rows.map((row) => row.promptTokens)),
    completion: sum(rows.map((row) => row.completionTokens)),
    cacheRead: sum(rows.map((row) => row.cachedTokens)),
    cacheWrite: sum(rows.map((row) => row.cacheWriteTokens)),
    reasoning: sum(rows.map((row) => row.reasoningTokens)),
  };
}

/** count_tokens calls answer a count, not a generation: they report no usage (and are logged with 0 tokens). */
const isGeneration = (request: RecordedRequest): boolean => !request.path.endsWith('/count_tokens');

describe('the real coding-agent CLIs through the running gateway, with reasoning on', () => {
  it.each(CELLS.map((cell) => [cellName(cell), cell] as const))(
    '%s: completes its tool loop, and every request is logged',
    async (_name, cell) => {
      const workspace = agentWorkspace();
      try {
        const key = await createAgentKey(api, `coding agents: ${cellName(cell)}`);
        runKeys.push(key.id);
        const target = { gatewayUrl, apiKey: key.key, model: AGENT_MODELS[cell.route].alias };
        const from = fakes.requests.length;
        const result = await runAgent(agentRun(cell, workspace, target));
        const seen = fakes.requests.slice(from);
        const requests = seen.filter((request) => request.vendor === PROVIDER_VENDORS[cell.route]);
        const context = `${describeRun(result)}\n${describeRequests(seen)}`;

        // The CLI finished the task: it read the file through the tool and told the word.
        expect(result.timedOut, context).toBe(false);
        expect(result.code, context).toBe(0);
        expect(result.stdout, context).toContain(workspace.secret);

        // The vendor saw the tool call made (turn 1) and its result sent back (turn 2).
        const callAt = requests.findIndex((request) => request.observed.answer?.kind === 'tool');
        expect(callAt, context).toBeGreaterThanOrEqual(0);
        const call = requests[callAt] as RecordedRequest;
        expect(call.observed.answer, context).toMatchObject({ kind: 'tool', name: cell.tool });
        const answered = requests
          .slice(callAt + 1)
          .find(
            (request) =>
              request.observed.answer?.kind === 'text' &&
              request.observed.answer.text.includes(workspace.secret),
          );
        expect(answered, context).toBeDefined();

        // Turn 1 reasoned; turn 2 brought that reasoning back to the vendor exactly as issued
        // (the fake verified its signature or encrypted content).
        expect(call.observed.reasoning, context).toBeTruthy();
        expect(answered?.observed.verifiedReasoning, context).toBeGreaterThan(0);

        // Every request is in the request log: the client, reasoning, cache use and cost.
        const rows = await logRows(key.id, requests.length);
        const rowsText = JSON.stringify(rows, null, 1);
        expect(rows.length, rowsText).toBe(requests.length);
        for (const row of rows) {
          expect(row, rowsText).toMatchObject({
            statusCode: 200,
            model: target.model,
            upstreamModel: AGENT_MODELS[cell.route].upstream,
            clientName: cell.agent,
            clientVersion: AGENT_VERSIONS[cell.agent],
            unpriced: false,
          });
          expect(row.sessionId, rowsText).toBeTruthy();
          expect(row.reasoningEffort, rowsText).toBeTruthy();
          if (REPORTS_REASONING_TOKENS[cell.route]) expect(row.reasoningTokens, rowsText).toBeGreaterThan(0);
          expect(row.costUsd, rowsText).toBeCloseTo(agentCost(row), 9);
        }
        const loopEfforts = rows.filter((row) => row.reasoningEffort === cell.effort);
        expect(loopEfforts.length, rowsText).toBeGreaterThanOrEqual(2);
        const totals = totalsOf(rows);
        expect(totals.cacheRead, rowsText).toBeGreaterThan(0);
        if (cell.route !== 'openai') {
          // Anthropic and Bedrock bill cache writes; OpenAI caches without writes to report.
          expect(totals.cacheWrite, rowsText).toBeGreaterThan(0);
        }
        // The log counts exactly what the vendor reported for each generation.
        const usages = requests.filter(isGeneration).map((request) => request.observed.usage);
        expect(usages, context).not.toContain(undefined);
        const reported = usages.filter((usage) => usage !== undefined);
        expect(totals, rowsText).toEqual({
          prompt: sum(reported.map((usage) => usage.input)),
          completion: sum(reported.map((usage) => usage.output)),
          cacheRead: sum(reported.map((usage) => usage.cacheRead)),
          cacheWrite: sum(reported.map((usage) => usage.cacheWrite)),
          reasoning: sum(reported.map((usage) => usage.reasoning)),
        });
      } finally {
        workspace.remove();
      }
    },
    300_000,
  );
});

describe('analytics by client', () => {
  it('counts the agents by name and version, with their tokens, cache use, reasoning and cost', async () => {
    const rows = (
      await Promise.all(runKeys.map((apiKeyId) => e2eRequestLogStore().list({ apiKeyId, limit: 100 })))
    ).flat();
    expect(rows.length).toBeGreaterThan(0);
    // Each client's rows, as analytics should sum them.
    const byClient = new Map<string, RequestLogRecord[]>();
    for (const row of rows) {
      const key = `${row.clientName}/${row.clientVersion}`;
      byClient.set(key, [...(byClient.get(key) ?? []), row]);
    }
    const clients = await vi.waitFor(
      async () => {
        const res = await api('GET', `/api/analytics/clients?from=${encodeURIComponent(runsFrom)}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.data as Array<Record<string, unknown>>;
      },
      { timeout: 10_000, interval: 250 },
    );
    for (const [key, clientRows] of byClient) {
      const totals = totalsOf(clientRows);
      const entry = clients.find((client) => `${client.client_name}/${client.client_version}` === key);
      expect(entry, `${key} in ${JSON.stringify(clients)}`).toMatchObject({
        requests: clientRows.length,
        prompt_tokens: totals.prompt,
        completion_tokens: totals.completion,
        cache_read_tokens: totals.cacheRead,
        cache_write_tokens: totals.cacheWrite,
        reasoning_tokens: totals.reasoning,
      });
      expect(entry?.cost_usd).toBeCloseTo(sum(clientRows.map((row) => row.costUsd ?? 0)), 9);
    }
  });
});
