import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openListenSocket } from './listen-socket';
import { openPortSockets, type PortSockets, type PortSocketsOptions } from './port-sockets';
import { freePort } from './ports';
import { findReusePort, type ReusePortSupport } from './reuse-port';

/** A child that serves "<tag>" on the inherited listening socket (fd 3), as workerd does. */
const SERVE_ON_FD_3 =
  "require('node:net').createServer((s) => s.end(process.argv[1])).listen({ fd: 3 }, () => console.log('up'))";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function serveOn(fd: number, tag: string): Promise<void> {
  return serving(
    spawn(process.execPath, ['-e', SERVE_ON_FD_3, tag], { stdio: ['ignore', 'pipe', 'inherit', fd] }),
  );
}

/** A child started the way the sockets say (its socket on fd 3), serving "<tag>". */
async function serveThrough(sockets: PortSockets, tag: string): Promise<ChildProcess> {
  const started = sockets.launch(process.execPath, ['-e', SERVE_ON_FD_3, tag]);
  const child = spawn(started.command, started.args, {
    stdio: ['ignore', 'pipe', 'inherit', ...started.inheritFds],
  });
  await serving(child);
  return child;
}

function serving(child: ChildProcess): Promise<void> {
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the child exited (${code}) before it served`)));
  });
}

function connected(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

function answer(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.once('end', () => resolve(text));
    socket.once('error', reject);
  });
}

describe('a listening socket shared with child processes', () => {
  it('queues connections while no process accepts, and hands them to the children that do', async () => {
    const port = await freePort();
    const socket = await openListenSocket('127.0.0.1', port);
    try {
      expect(socket.address).toBe(`127.0.0.1:${port}`);
      // Listening, though nothing accepts yet: the kernel completes the handshake.
      const early = await connected(port);
      await Promise.all([serveOn(socket.fd, 'a'), serveOn(socket.fd, 'b')]);
      expect(['a', 'b']).toContain(await answer(early));
      const answers = await Promise.all(Array.from({ length: 4 }, async () => answer(await connected(port))));
      expect(answers.every((tag) => tag === 'a' || tag === 'b')).toBe(true);
    } finally {
      socket.close();
    }
  });

  it('refuses a port already taken, naming the address and the error', async () => {
    const port = await freePort();
    const first = await openListenSocket('127.0.0.1', port);
    try {
      await expect(openListenSocket('127.0.0.1', port)).rejects.toThrow(`127.0.0.1:${port}: EADDRINUSE`);
    } finally {
      first.close();
    }
  });

  it('takes IPv6 literals with or without brackets', async () => {
    const port = await freePort();
    const socket = await openListenSocket('[::1]', port).catch((error: Error) => error);
    // A machine without IPv6 on loopback cannot bind it at all; that is not this module's concern.
    if (socket instanceof Error) return expect(socket.message).toMatch(/EADDRNOTAVAIL|EAFNOSUPPORT/);
    expect(socket.address).toBe(`[::1]:${port}`);
    socket.close();
  });
});

const REUSE_PORT = findReusePort();

function socketsFor(port: number, overrides: Partial<PortSocketsOptions> = {}): Promise<PortSockets> {
  return openPortSockets({
    host: '127.0.0.1',
    port,
    processes: 2,
    mode: undefined,
    reusePort: () => REUSE_PORT,
    log: () => {},
    ...overrides,
  });
}

/** Answers over `count` fresh connections, one after another. */
async function answers(port: number, count: number): Promise<string[]> {
  const tags: string[] = [];
  for (let i = 0; i < count; i++) tags.push(await answer(await connected(port)));
  return tags;
}

const UNSUPPORTED: ReusePortSupport = { ok: false, reason: 'no perl on PATH to open them' };

describe('how several processes get the port (openPortSockets)', () => {
  it('finds SO_REUSEPORT on Linux with perl, and says why not elsewhere', () => {
    expect(REUSE_PORT).toEqual({ ok: true, perl: expect.stringMatching(/\/perl$/) });
    expect(findReusePort(process.env, 'darwin')).toEqual({
      ok: false,
      reason: 'darwin does not balance SO_REUSEPORT sockets',
    });
    expect(findReusePort({ PATH: '/nonexistent' }, 'linux')).toEqual(UNSUPPORTED);
  });

  it('gives each of several processes a socket of its own, and the kernel spreads connections over them', async () => {
    const port = await freePort();
    const sockets = await socketsFor(port);
    expect(sockets.mode).toBe('per-process');
    expect(sockets.address).toBe(`127.0.0.1:${port}`);
    const served = await Promise.all([serveThrough(sockets, 'a'), serveThrough(sockets, 'b')]);
    // The launcher replaced itself with the command: the pid the caller holds is the server's.
    for (const child of served) expect(readFileSync(`/proc/${child.pid}/comm`, 'utf8').trim()).toBe('node');
    const [first, second] = served.map((child) => readlinkSync(`/proc/${child.pid}/fd/3`));
    expect(first).toMatch(/^socket:\[\d+\]$/);
    expect(second).not.toBe(first);
    // Each connection lands on either socket by its address hash: 48 all on one would be 2^-47.
    const tags = await answers(port, 48);
    expect(new Set(tags)).toEqual(new Set(['a', 'b']));
  });

  it('sends new connections to the others once a process is gone', async () => {
    const port = await freePort();
    const sockets = await socketsFor(port);
    const [gone] = await Promise.all([serveThrough(sockets, 'a'), serveThrough(sockets, 'b')]);
    const exited = new Promise((resolve) => gone!.once('exit', resolve));
    gone!.kill('SIGKILL');
    await exited;
    expect(new Set(await answers(port, 16))).toEqual(new Set(['b']));
  });

  it('refuses a port something listens on, as a shared socket does, rather than joining it', async () => {
    const port = await freePort();
    const taken = await socketsFor(port);
    await Promise.all([serveThrough(taken, 'a'), serveThrough(taken, 'b')]);
    // A second stack on the same port: its processes would share the first one's connections.
    await expect(socketsFor(port)).rejects.toThrow(
      `cannot bind 127.0.0.1:${port}: EADDRINUSE (address already in use)`,
    );
    await expect(socketsFor(port, { mode: 'shared' })).rejects.toThrow(`127.0.0.1:${port}: EADDRINUSE`);
  });

  it('shares one socket for a single process, when asked, or where a socket each cannot work', async () => {
    const logged: string[] = [];
    const cases: Partial<PortSocketsOptions>[] = [
      { processes: 1 },
      { mode: 'shared' },
      { reusePort: () => UNSUPPORTED, log: (line) => logged.push(line) },
    ];
    for (const overrides of cases) {
      const port = await freePort();
      const sockets = await socketsFor(port, overrides);
      try {
        expect(sockets.mode).toBe('shared');
        const served = await Promise.all([serveThrough(sockets, 'a'), serveThrough(sockets, 'b')]);
        const [first, second] = served.map((child) => readlinkSync(`/proc/${child.pid}/fd/3`));
        expect(second).toBe(first);
        expect(['a', 'b']).toContain(await answer(await connected(port)));
      } finally {
        sockets.close();
      }
    }
    expect(logged).toEqual([
      'the gateway processes share one listening socket: no perl on PATH to open them for a socket each',
    ]);
  });

  it('refuses a socket each where it cannot work when that was asked for', async () => {
    const port = await freePort();
    await expect(socketsFor(port, { mode: 'per-process', reusePort: () => UNSUPPORTED })).rejects.toThrow(
      'SLUICE_GATEWAY_SOCKETS=per-process cannot work here: no perl on PATH to open them',
    );
  });
});
