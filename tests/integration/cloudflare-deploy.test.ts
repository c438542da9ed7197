// The Cloudflare walkthrough (docs/operations.md#on-cloudflare-wrangler-deploy), as far as it goes
// without an account: `npx wrangler deploy --dry-run` bundles the worker from the repository, and
// `npm run console` on a checkout without a web UI build builds it, then serves it at / and
// answers /api/health and the setup API. The checkout is a copy of this working tree (tracked
// and untracked files, no build output) with the installed packages linked in, so the real
// checkout's build is never touched. The console gets a fresh Postgres database migrated by
// `npm run db:migrate` (where Neon would be) and a store bridge where Upstash would be, over a
// Redis database.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisBackend, type RedisBackend, runCommand } from '../../self-host/bridge/redis-backend';
import { type StoreBridge, startStoreBridge } from '../../self-host/bridge/server';
import { freePort } from '../../self-host/process/ports';
import { recreateDatabase } from '../helpers/databases';
import { PG_HOST, PG_PORT, pgUrl, TEST_SECRETS } from '../helpers/env';
import { FIRST_ADMIN } from '../helpers/first-run';
import { http } from '../helpers/http';
import { stripStoreEnv } from '../setup/e2e-global';

const ROOT = join(import.meta.dirname, '../..');
const DATABASE = 'sluice_console_start';
const REDIS_URL = process.env.TEST_CONSOLE_REDIS_URL ?? 'redis://127.0.0.1:6379/11';
/** No telemetry, no colour codes, and no Cloudflare account from the environment. */
const WRANGLER_ENV = {
  ...stripStoreEnv(process.env),
  WRANGLER_SEND_METRICS: 'false',
  FORCE_COLOR: '0',
  CLOUDFLARE_API_TOKEN: '',
  CLOUDFLARE_ACCOUNT_ID: '',
};

const scratch = mkdtempSync(join(tmpdir(), 'sluice-cloudflare-'));

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('npx wrangler deploy --dry-run', () => {
  it('bundles the gateway worker from the repository without an account', () => {
    const outdir = join(scratch, 'worker');
    const output = execFileSync('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outdir], {
      cwd: ROOT,
      env: WRANGLER_ENV,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    expect(output).toContain('--dry-run: exiting now.');
    // wrangler.toml's main is gateway-worker/src/entry.ts: the bundle's entry module is entry.js.
    expect(readFileSync(join(outdir, 'entry.js'), 'utf8').length).toBeGreaterThan(10_000);
  }, 150_000);
});

describe('npm run console on a checkout without a web UI build', () => {
  const checkout = join(scratch, 'checkout');
  let bridge: StoreBridge | undefined;
  let redis: RedisBackend | undefined;
  let console_: ChildProcess | undefined;
  let consoleUrl = '';
  let output = '';

  beforeAll(async () => {
    copyWorkingTree(checkout);
    expect(existsSync(join(checkout, 'console-server/ui/dist'))).toBe(false);

    const databaseUrl = pgUrl(DATABASE);
    await recreateDatabase(databaseUrl);
    // The walkthrough's migration step, from the copy: the console does not migrate.
    execFileSync('npm', ['run', '--silent', 'db:migrate'], {
      cwd: checkout,
      env: { ...stripStoreEnv(process.env), DATABASE_URL: databaseUrl },
      stdio: 'ignore',
      timeout: 60_000,
    });
    redis = createRedisBackend(REDIS_URL);
    await runCommand(redis, ['FLUSHDB']);
    // Upstash's REST endpoint (the console's Redis on Cloudflare); Postgres is reached directly.
    bridge = await startStoreBridge({
      port: 0,
      pgTarget: { host: PG_HOST, port: PG_PORT },
      redis,
      redisToken: 'console-start-token',
    });

    const port = await freePort();
    consoleUrl = `http://127.0.0.1:${port}`;
    console_ = spawn('npm', ['run', '--silent', 'console'], {
      cwd: checkout,
      // Its own process group: npm and the node it starts are stopped together.
      detached: true,
      env: {
        ...stripStoreEnv(process.env),
        DATABASE_URL: databaseUrl,
        ...bridge.env,
        ...TEST_SECRETS,
        SLUICE_CONSOLE_HOST: '127.0.0.1',
        SLUICE_CONSOLE_PORT: String(port),
        SLUICE_TRUST_PROXY: '1',
        FORCE_COLOR: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    console_.stdout?.on('data', collect);
    console_.stderr?.on('data', collect);
    await waitForHealth(`${consoleUrl}/api/health`, console_, () => output, 150_000);
  }, 200_000);

  afterAll(async () => {
    await stopGroup(console_);
    await bridge?.close();
    await redis?.close();
  });

  it('built the web UI into the checkout and serves its index.html at /', async () => {
    expect(output).toContain('ui: built console-server/ui/dist');
    const index = readFileSync(join(checkout, 'console-server/ui/dist/index.html'), 'utf8');
    const page = await fetch(`${consoleUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toBe(index);
    // A route of the single-page app answers the same page.
    expect(await (await fetch(`${consoleUrl}/keys`)).text()).toBe(index);
  });

  it('answers /api/health and creates the first admin through the setup API', async () => {
    expect(await http('GET', `${consoleUrl}/api/health`)).toMatchObject({ status: 200 });
    expect(await http('GET', `${consoleUrl}/api/setup/status`)).toMatchObject({
      status: 200,
      body: { initialized: false, needs_setup: true },
    });
    const init = await http('POST', `${consoleUrl}/api/setup/initialize`, { body: { admin: FIRST_ADMIN } });
    expect(init.status).toBe(200);
    expect(init.body.user).toMatchObject({ email: FIRST_ADMIN.email, role: 'admin' });
  });
});

/**
 * This working tree's files (tracked, and untracked ones not ignored: no node_modules, no
 * dist) copied to `target`, with the installed packages linked in: each entry of the root
 * node_modules links to the installed one, except the workspaces' own links (relative), which
 * point into the copy; a workspace's own node_modules links to the installed one.
 */
function copyWorkingTree(target: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    const from = join(ROOT, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(from, join(target, file), { verbatimSymlinks: true });
  }
  linkModules(join(ROOT, 'node_modules'), join(target, 'node_modules'));
  const { workspaces } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  for (const workspace of workspaces) {
    const installed = join(ROOT, workspace, 'node_modules');
    if (existsSync(installed)) symlinkSync(installed, join(target, workspace, 'node_modules'));
  }
}

function linkModules(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const stat = lstatSync(source);
    if (stat.isSymbolicLink() && !isAbsolute(readlinkSync(source))) {
      symlinkSync(readlinkSync(source), join(to, name)); // a workspace: into the copy
    } else if (name.startsWith('@') && stat.isDirectory()) {
      linkModules(source, join(to, name));
    } else {
      symlinkSync(realpathSync(source), join(to, name));
    }
  }
}

async function waitForHealth(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`npm run console exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`npm run console did not answer ${url} in time:\n${output()}`);
}

/** SIGTERM to the process group (npm and the console), SIGKILL after 15 s; resolves once npm is gone. */
async function stopGroup(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // gone
    }
  };
  signal('SIGTERM');
  const force = setTimeout(() => signal('SIGKILL'), 15_000);
  await exited;
  clearTimeout(force);
}
