/**
 * `npm run bench:scale -- --suite platform`: the gateway and console on a platform's worth of
 * configuration. Seeds a Postgres database of its own (sluice_bench_platform; kept, and reused
 * while it holds the asked sizes; --reseed drops it): 100,000 API keys over 2,000 users (one
 * owner with 2,001), 1,000 models with 5 routes each, one MCP server with 1,000 tools. Then
 * starts `npm run serve`'s stack on it with a fake upstream (nginx) and the bench's MCP server,
 * and times, --runs times interleaved: chats with cold and warm keys, a model never asked
 * before, /v1/models, MCP tools/list and tools/call, every console list endpoint of the OpenAPI
 * document, the owner's keys and the admin's key search; then the same chat on a stack with 2
 * models. Prints the seeded sizes, the table, each process's memory, and writes results.csv
 * beside the stack's log.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findExecutable } from '../../self-host/process/executables';
import { freePort } from '../../self-host/process/ports';
import { CLICKHOUSE_URL, pgUrl } from '../../tests/helpers/env';
import { onCleanup } from './cleanup';
import { consoleCases } from './console-list-cases';
import { startFakeUpstream } from './fake-upstream';
import { fewModelCases, gatewayCases, mcpCases } from './platform-cases';
import { type BenchMcpServer, startBenchMcpServer } from './platform-mcp-server';
import {
  ADMIN_KEY_INDEX,
  countSeeded,
  dropDatabase,
  keySecret,
  newSeedMeta,
  type PlatformSizes,
  readSeedMeta,
  type SeedMeta,
  seededKeyName,
  seedRows,
} from './platform-seed';
import { consoleApi, login, PLATFORM_ADMIN, PLATFORM_OWNER, repoint, seedThroughApi } from './platform-setup';
import { memoryRows, snapshotOf, startPlatformStack } from './platform-stack';
import type { PlatformOptions } from './scale-options';
import { formatTable } from './table';
import { type CaseFigures, FIGURE_COLUMNS, figureRow, figuresCsv, runInterleaved } from './timed-cases';

const say = (line: string) => console.log(`bench:scale platform: ${line}`);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/13';
/** Tokens live 15 minutes: log in again well before. */
const TOKEN_AGE_MS = 10 * 60_000;

interface Fixtures {
  upstreamUrl: string;
  mcp: BenchMcpServer;
  resultsDir: string;
  gatewayProcesses: number;
}

const stackFor = (databaseUrl: string, f: Fixtures) =>
  startPlatformStack({
    databaseUrl,
    redisUrl: REDIS_URL,
    clickhouseUrl: CLICKHOUSE_URL,
    gatewayProcesses: f.gatewayProcesses,
    resultsDir: f.resultsDir,
  });

const sameSizes = (a: PlatformSizes, b: PlatformSizes) =>
  (Object.keys(b) as Array<keyof PlatformSizes>).every((k) => a[k] === b[k]);

/** A fresh database: the stack migrates it and the API makes its part, then the bulk rows. */
async function seed(databaseUrl: string, sizes: PlatformSizes, f: Fixtures): Promise<SeedMeta> {
  const started = performance.now();
  await dropDatabase(databaseUrl);
  const stack = await stackFor(databaseUrl, f);
  try {
    const ids = await seedThroughApi(stack.consoleUrl, f.upstreamUrl, f.mcp.url);
    const meta = newSeedMeta(sizes);
    await seedRows(databaseUrl, meta, ids);
    say(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return meta;
  } finally {
    await stack.stop();
  }
}

async function measureSeeded(
  databaseUrl: string,
  meta: SeedMeta,
  o: PlatformOptions,
  f: Fixtures,
): Promise<{ sizes: string; figures: CaseFigures[]; memory: string[][] }> {
  const stack = await stackFor(databaseUrl, f);
  try {
    const admin = await login(stack.consoleUrl, PLATFORM_ADMIN);
    const owner = await login(stack.consoleUrl, PLATFORM_OWNER);
    await repoint(consoleApi(stack.consoleUrl, admin.token), f.upstreamUrl, f.mcp.url);
    const counts = await countSeeded(databaseUrl, owner.userId);
    const n = (value: number) => value.toLocaleString('en-US');
    const sizes =
      `${o.database}: ${n(counts.users)} users, ${n(counts.keys)} API keys (${n(counts.ownerKeys)} of ` +
      `${PLATFORM_OWNER.email}), ${n(counts.models)} models, ${n(counts.routes)} routes, ` +
      `${n(counts.mcpServers)} MCP server with ${n(counts.tools)} tools`;
    say(sizes);
    const tokens = { admin: admin.token, owner: owner.token };
    let loggedInAt = Date.now();
    const mcp = await mcpCases(stack.gatewayUrl, keySecret(meta.salt, ADMIN_KEY_INDEX), meta.sizes.tools);
    const forgetMcp = onCleanup(() => mcp.close());
    const consoleSet = await consoleCases(stack.consoleUrl, tokens, {
      ownerEmail: PLATFORM_OWNER.email,
      keyName: seededKeyName(meta.sizes.keys - 1),
      ownerKeys: counts.ownerKeys,
    });
    for (const line of consoleSet.skipped) say(`not a list endpoint: ${line}`);
    const cases = [
      ...gatewayCases({ gatewayUrl: stack.gatewayUrl, salt: meta.salt, sizes: meta.sizes }),
      ...mcp.cases,
      ...consoleSet.cases,
    ].filter((c) => o.only === undefined || `${c.group} ${c.name}`.includes(o.only));
    const read = snapshotOf(stack);
    let afterWarmUp = read();
    say(`${cases.length} cases, ${o.runs} runs each`);
    const figures = await runInterleaved(cases, o.runs, async (round) => {
      if (round === 0) afterWarmUp = read();
      if (Date.now() - loggedInAt < TOKEN_AGE_MS) return;
      tokens.admin = (await login(stack.consoleUrl, PLATFORM_ADMIN)).token;
      tokens.owner = (await login(stack.consoleUrl, PLATFORM_OWNER)).token;
      loggedInAt = Date.now();
    });
    forgetMcp();
    await mcp.close();
    return { sizes, figures, memory: memoryRows(afterWarmUp, read()) };
  } finally {
    await stack.stop();
  }
}

/** The warm chat and /v1/models on a stack with 2 models: what the 1,000 cost, if anything. */
async function measureSmall(o: PlatformOptions, f: Fixtures): Promise<CaseFigures[]> {
  const databaseUrl = pgUrl(`${o.database}_small`);
  await dropDatabase(databaseUrl);
  const stack = await stackFor(databaseUrl, f);
  try {
    const ids = await seedThroughApi(stack.consoleUrl, f.upstreamUrl, null);
    const admin = await login(stack.consoleUrl, PLATFORM_ADMIN);
    const call = consoleApi(stack.consoleUrl, admin.token);
    for (const name of ['small-0', 'small-1']) {
      await call('POST', '/api/admin/models', {
        name,
        routes: ids.providerIds.map((provider_id) => ({ provider_id, upstream_model: 'gpt-4o-mini' })),
      });
    }
    // A user's key, as on the seeded stack (the admin's role could weigh differently).
    const owner = await login(stack.consoleUrl, PLATFORM_OWNER);
    const key = (
      await consoleApi(stack.consoleUrl, owner.token)<{ key: string }>('POST', '/api/keys', { name: 'small' })
    ).key;
    const cases = fewModelCases(stack.gatewayUrl, key, 'small-0', '2 models');
    return await runInterleaved(cases, o.runs);
  } finally {
    await stack.stop();
  }
}

export async function runPlatformSuite(o: PlatformOptions): Promise<void> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const resultsDir = resolve(process.env.BENCH_RESULTS_DIR ?? join('.sluice', 'bench', `platform-${stamp}`));
  mkdirSync(resultsDir, { recursive: true });
  const nginx = findExecutable('nginx');
  if (!nginx)
    throw new Error('the platform suite needs nginx (the fake upstream): apt-get install nginx-light');
  const upstream = await startFakeUpstream({ nginx, port: await freePort(), runDir: resultsDir, cpus: null });
  const mcp = await startBenchMcpServer(o.sizes.tools);
  onCleanup(() => mcp.close());
  const fixtures: Fixtures = {
    upstreamUrl: upstream.url,
    mcp,
    resultsDir,
    gatewayProcesses: o.gatewayProcesses,
  };
  const databaseUrl = pgUrl(o.database);
  let meta = o.reseed ? null : await readSeedMeta(databaseUrl);
  if (meta === null || !sameSizes(meta.sizes, o.sizes)) meta = await seed(databaseUrl, o.sizes, fixtures);
  const { sizes, figures, memory } = await measureSeeded(databaseUrl, meta, o, fixtures);
  if (o.small) figures.push(...(await measureSmall(o, fixtures)));
  console.log(`\n${sizes}`);
  console.log(
    `${o.runs} runs each, interleaved${o.small ? ' (the 2-model rows on a stack of their own, after)' : ''}; ` +
      `gateway processes: ${o.gatewayProcesses}\n`,
  );
  console.log(formatTable([FIGURE_COLUMNS, ...figures.map(figureRow)]));
  console.log(`\n${formatTable(memory)}`);
  writeFileSync(join(resultsDir, 'results.csv'), figuresCsv(figures));
  say(`results.csv and the stack's log: ${resultsDir}`);
}
