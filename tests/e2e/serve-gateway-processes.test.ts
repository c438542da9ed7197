// `npm run serve` with SLUICE_GATEWAY_PROCESSES=2: two `workerd serve` children of the
// supervisor serve the one port with no proxy in between, each on a listening socket of its own
// (SO_REUSEPORT, the default where the system has it) or all on the one socket the supervisor
// holds (SLUICE_GATEWAY_SOCKETS=shared); one killed with SIGKILL is replaced while the other
// keeps answering; a stop leaves no workerd behind.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { establishedBy } from '../../dev/bench/proc-sockets';
import type { SocketMode } from '../../self-host/process/port-sockets';
import { pgUrl, SERVE_REDIS_URL, withRedisDatabase } from '../helpers/env';
import { freshStackStores } from '../helpers/stack-seed';
import { type StackCommand, type StartedStack, startStackProcess, stopStackGroup } from '../setup/e2e-global';

const SERVE: StackCommand = { file: 'npm', args: ['run', '--silent', 'serve'], detached: true };
const DATABASE = 'sluice_serve_processes_e2e';
const REDIS_URL = withRedisDatabase(SERVE_REDIS_URL, 9);

describe.each<[SocketMode, string]>([
  ['per-process', 'a listening socket each (SO_REUSEPORT)'],
  ['shared', 'one shared listening socket'],
])('SLUICE_GATEWAY_PROCESSES=2, %s sockets', (mode, listening) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-processes-'));
  let stack: StartedStack;

  beforeAll(async () => {
    await freshStackStores(pgUrl(DATABASE), REDIS_URL);
    // The gateway alone: the console has nothing to do with how the gateway's processes run.
    stack = await startStackProcess(
      {
        DATABASE_URL: pgUrl(DATABASE),
        REDIS_URL,
        SLUICE_SERVE: 'gateway',
        SLUICE_GATEWAY_PROCESSES: '2',
        // Unset for the default, which is a socket each on this Linux with perl.
        ...(mode === 'shared' ? { SLUICE_GATEWAY_SOCKETS: mode } : {}),
        SLUICE_QUIET: '1',
      },
      dataDir,
      SERVE,
    );
  });

  afterAll(async () => {
    await stopStackGroup(stack);
    rmSync(dataDir, { recursive: true, force: true });
  });

  interface GroupProcess {
    pid: number;
    ppid: number;
    args: string;
  }

  /** Every process of the stack's group (npm leads it; the supervisor is its descendant). */
  function groupProcesses(): GroupProcess[] {
    let listing = '';
    try {
      listing = execFileSync('ps', ['-o', 'pid=,ppid=,args=', '-g', String(stack.child.pid)], {
        encoding: 'utf8',
      });
    } catch {
      return []; // ps exits 1 when no process matches
    }
    return listing
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => {
        const [pid, ppid, ...args] = line.trim().split(/\s+/);
        return { pid: Number(pid), ppid: Number(ppid), args: args.join(' ') };
      });
  }

  const workerdProcesses = () => groupProcesses().filter((p) => p.args.includes('workerd serve'));

  /** The supervisor (self-host/serve.ts): the parent of the workerd processes. */
  function supervisor(): GroupProcess {
    const parents = new Set(workerdProcesses().map((p) => p.ppid));
    expect(parents.size).toBe(1);
    const found = groupProcesses().find((p) => parents.has(p.pid));
    expect(found?.args).toContain('self-host/serve.ts');
    return found!;
  }

  /** The workerd children of the supervisor, by pid. */
  function gatewayPids(): number[] {
    const parent = supervisor().pid;
    return workerdProcesses()
      .filter((p) => p.ppid === parent)
      .map((p) => p.pid)
      .sort();
  }

  /** The socket each process serves on (its fd 3, given by --socket-fd), e.g. `socket:[123]`. */
  const servingSocket = (pid: number) => readlinkSync(`/proc/${pid}/fd/3`);

  /** `count` requests on fresh connections (no keep-alive, so each one is accepted anew). */
  async function healthStatuses(count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const response = await fetch(`${stack.gatewayUrl}/health`, {
        headers: { connection: 'close' },
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    return statuses;
  }

  /** `count` connections held open, each after one answered request (so a process accepted it). */
  async function heldConnections(count: number): Promise<Socket[]> {
    const { hostname, port } = new URL(stack.gatewayUrl);
    return Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(Number(port), hostname, () => {
              socket.write(`GET /health HTTP/1.1\r\nhost: ${hostname}\r\n\r\n`);
            });
            socket.once('data', (chunk: Buffer) => {
              if (chunk.toString().startsWith('HTTP/1.1 200')) resolve(socket);
              else reject(new Error(`unexpected answer: ${chunk.toString().slice(0, 80)}`));
            });
            socket.once('error', reject);
          }),
      ),
    );
  }

  it('runs that many workerd processes on the port, and says how they listen', async () => {
    expect(stack.output()).toContain(`, 2 processes on ${listening}`);
    expect(stack.output()).toMatch(/workerd serve, \d{4}-\d{2}-\d{2}, 2 processes/);
    const pids = gatewayPids();
    expect(pids).toHaveLength(2);
    for (const pid of pids) {
      expect(workerdProcesses().find((p) => p.pid === pid)?.args).toContain('--socket-fd=http=3');
    }
    const sockets = pids.map(servingSocket);
    expect(sockets[0]).toMatch(/^socket:\[\d+\]$/);
    if (mode === 'shared') {
      // The same socket in both (and the supervisor holds it; nothing listens in between).
      expect(sockets[1]).toBe(sockets[0]);
    } else {
      expect(sockets[1]).not.toBe(sockets[0]);
      // A pool's connections opened at once are spread over both (all 24 on one: 2^-23).
      const held = await heldConnections(24);
      try {
        const counts = establishedBy(pids, Number(new URL(stack.gatewayUrl).port));
        // 24, and any of the supervisor's own still open.
        expect([...counts.values()].reduce((a, b) => a + b)).toBeGreaterThanOrEqual(24);
        for (const pid of pids) expect(counts.get(pid)).toBeGreaterThan(0);
      } finally {
        for (const socket of held) socket.destroy();
      }
    }
    expect(await healthStatuses(20)).toEqual(Array(20).fill(200));
  });

  it('replaces a process killed with SIGKILL while requests keep being answered', async () => {
    const [victim, survivor] = gatewayPids() as [number, number];
    const socket = servingSocket(survivor);
    process.kill(victim, 'SIGKILL');
    if (mode === 'per-process') {
      // Until the kernel has torn the victim down its socket still takes its share of new
      // connections, and those are reset as it closes (operations.md): ask once it is gone.
      await expect
        .poll(() => workerdProcesses().some((p) => p.pid === victim), { timeout: 10_000, interval: 20 })
        .toBe(false);
    }
    // Answered by the survivor: the victim's own socket went with it, or the shared one holds
    // new connections in its backlog until a process accepts.
    expect(await healthStatuses(20)).toEqual(Array(20).fill(200));
    await expect
      .poll(() => gatewayPids().filter((pid) => pid !== victim), { timeout: 30_000, interval: 100 })
      .toHaveLength(2);
    const replacement = gatewayPids().find((pid) => pid !== survivor)!;
    if (mode === 'shared') expect(servingSocket(replacement)).toBe(socket);
    else expect(servingSocket(replacement)).not.toBe(socket);
    expect(stack.output()).toMatch(
      new RegExp(
        `sluice: gateway-\\d \\(pid ${victim}\\) exited \\(signal SIGKILL\\) unexpectedly; restarting it`,
      ),
    );
    // Said once the replacement is up, which can be a moment after its process appears.
    await expect
      .poll(() => stack.output(), { timeout: 30_000, interval: 100 })
      .toMatch(new RegExp(`sluice: gateway-\\d restarted \\(pid ${replacement}\\)`));
    expect(await healthStatuses(20)).toEqual(Array(20).fill(200));
  });

  it('stops every gateway process when the supervisor is told to stop, and the port is closed', async () => {
    const parent = supervisor().pid;
    const exited = new Promise((resolve) => stack.child.once('exit', resolve));
    process.kill(parent, 'SIGTERM');
    await exited;
    await expect.poll(() => groupProcesses(), { timeout: 30_000, interval: 100 }).toEqual([]);
    expect(stack.output()).toContain('sluice: SIGTERM received, stopping');
    // Only the one this file killed was ever restarted.
    expect(stack.output().match(/unexpectedly/g)).toHaveLength(1);
    const refused = await fetch(`${stack.gatewayUrl}/health`, { signal: AbortSignal.timeout(2000) }).catch(
      (e: Error & { cause?: { code?: string } }) => e.cause?.code,
    );
    expect(refused).toBe('ECONNREFUSED');
  });
});
