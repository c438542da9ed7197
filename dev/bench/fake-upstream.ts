/**
 * The fake OpenAI upstream: nginx answering fixed bodies from memory (upstream/nginx.conf.in),
 * pinned beside wrk. `/v1/chat/completions` answers a chat.completion with usage,
 * `/sse/v1/chat/completions` a 17-event stream ending with a usage chunk and `[DONE]`. Checked
 * byte for byte before any load, so every figure is about the same answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitForHttp } from '../../self-host/process/ports';
import { onCleanup } from './cleanup';
import { pinned } from './cpus';
import { stopProcessGroup } from './process-group';

const HERE = import.meta.dirname;
export const UPSTREAM_FILES = {
  template: join(HERE, 'upstream', 'nginx.conf.in'),
  jsonBody: join(HERE, 'upstream', 'json-body.txt'),
  streamBody: join(HERE, 'upstream', 'stream-body.txt'),
};

export interface FakeUpstream {
  url: string;
  pid: number;
  jsonBody: string;
  streamBody: string;
}

/**
 * A body as an nginx single-quoted string: nginx turns `\n`, `\\` and `\'` back into the bytes.
 * `$` would start a variable and has no escape in a quoted string: refused.
 */
export function nginxQuoted(body: string): string {
  if (body.includes('$')) throw new Error('a fake upstream body must not contain "$" (an nginx variable)');
  return body.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\r', '\\r').replaceAll('\n', '\\n');
}

export function renderUpstreamConfig(
  template: string,
  port: number,
  jsonBody: string,
  streamBody: string,
): string {
  return template
    .replaceAll('@PORT@', String(port))
    .replace('@JSON_BODY@', () => nginxQuoted(jsonBody))
    .replace('@STREAM_BODY@', () => nginxQuoted(streamBody));
}

export async function startFakeUpstream(opts: {
  nginx: string;
  port: number;
  runDir: string;
  cpus: string | null;
}): Promise<FakeUpstream> {
  const dir = join(opts.runDir, 'upstream');
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const jsonBody = readFileSync(UPSTREAM_FILES.jsonBody, 'utf8');
  const streamBody = readFileSync(UPSTREAM_FILES.streamBody, 'utf8');
  const config = join(dir, 'nginx.conf');
  const template = readFileSync(UPSTREAM_FILES.template, 'utf8');
  writeFileSync(config, renderUpstreamConfig(template, opts.port, jsonBody, streamBody));
  // -e: the error log from the first moment (before the config is read nginx would try /var/log).
  const args = ['-p', `${dir}/`, '-c', config, '-e', join(dir, 'error.log')];
  const [command, argv] = pinned(opts.cpus, opts.nginx, args);
  const child: ChildProcess = spawn(command, argv, { detached: true, stdio: 'ignore' });
  onCleanup(() => stopProcessGroup(child, 5_000));
  const url = `http://127.0.0.1:${opts.port}`;
  await waitForHttp(`${url}/health`, 10_000).catch((error: unknown) => {
    throw new Error(`nginx did not start (see ${join(dir, 'error.log')}): ${String(error)}`);
  });
  await expectBody(`${url}/v1/chat/completions`, jsonBody);
  await expectBody(`${url}/sse/v1/chat/completions`, streamBody);
  return { url, pid: child.pid!, jsonBody, streamBody };
}

async function expectBody(url: string, expected: string): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  const body = await res.text();
  if (res.status !== 200 || body !== expected) {
    throw new Error(`the fake upstream answered ${url} with ${res.status} and other bytes than expected`);
  }
}
