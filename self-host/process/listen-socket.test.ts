import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openListenSocket } from './listen-socket';
import { freePort } from './ports';

/** A child that serves "<tag>" on the inherited listening socket (fd 3), as workerd does. */
const SERVE_ON_FD_3 =
  "require('node:net').createServer((s) => s.end(process.argv[1])).listen({ fd: 3 }, () => console.log('up'))";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function serveOn(fd: number, tag: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', SERVE_ON_FD_3, tag], {
    stdio: ['ignore', 'pipe', 'inherit', fd],
  });
  children.push(child);
  return new Promise((resolve) => child.stdout!.once('data', () => resolve()));
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
