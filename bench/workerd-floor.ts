/**
 * The floors of a gateway on workerd (TARGETS=workerd,workerd-store): bench/floor/worker.js in a
 * workerd of its own, pinned like every system under test. `workerd` forwards to the fake
 * upstream untouched; `workerd-store` makes one Redis round trip through a Durable Object first,
 * the hop Sluice's admission makes under `npm run serve`. Beside nginx at the fixed rate they say
 * how much of what Sluice adds is the runtime's and the store hop's, and how much its own.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onCleanup } from '../dev/bench/cleanup';
import { pinned } from '../dev/bench/cpus';
import type { FakeUpstream } from '../dev/bench/fake-upstream';
import { stopProcessGroup } from '../dev/bench/process-group';
import { freePort, waitForHttp } from '../self-host/process/ports';
import { workerdBinary } from '../self-host/workerd/workerd-process';
import { BEARER, type RunningTarget, requests, treeCpu, upstreamPath } from './targets';

const WORKER = join(import.meta.dirname, 'floor', 'worker.js');

type FloorTarget = 'workerd' | 'workerd-store';

/** A text binding as a Cap'n Proto string literal (JSON's escaping is a subset of it). */
const text = (value: string) => JSON.stringify(value);

function renderConfig(port: number, upstreamUrl: string, redisUrl: string, store: boolean): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker), (name = "internet", network = (allow = ["local"])) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",
  globalOutbound = "internet",
  bindings = [
    (name = "UPSTREAM", text = ${text(upstreamUrl)}),
    (name = "REDIS_URL", text = ${text(redisUrl)}),
    (name = "STORE", text = "${store ? 'on' : 'off'}"),
    (name = "LINK", durableObjectNamespace = "StoreLink"),
  ],
  durableObjectNamespaces = [ (className = "StoreLink", uniqueKey = "sluice-bench-floor", preventEviction = true) ],
  durableObjectStorage = (inMemory = void),
);
`;
}

export async function workerdFloorTarget(
  name: FloorTarget,
  upstream: FakeUpstream,
  opts: { runDir: string; cpus: string | null; redisUrl: string },
): Promise<RunningTarget> {
  const dir = join(opts.runDir, name);
  mkdirSync(dir, { recursive: true });
  // workerd embeds a module by a path relative to its config, never an absolute one.
  copyFileSync(WORKER, join(dir, 'worker.js'));
  const port = await freePort();
  const store = name === 'workerd-store';
  writeFileSync(join(dir, 'config.capnp'), renderConfig(port, upstream.url, opts.redisUrl, store));
  const log = openSync(join(dir, 'workerd.log'), 'a');
  const [command, args] = pinned(opts.cpus, workerdBinary(), ['serve', join(dir, 'config.capnp')]);
  const child = spawn(command, args, { detached: true, stdio: ['ignore', log, log] });
  onCleanup(() => stopProcessGroup(child, 5_000));
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health`, 15_000).catch((error: unknown) => {
    throw new Error(`the ${name} floor did not start (see ${join(dir, 'workerd.log')}): ${String(error)}`);
  });
  return {
    name,
    request: requests(url, () => BEARER, upstreamPath),
    readCpu: treeCpu(child.pid!),
    describe: store
      ? `workerd-store: a bare Worker, one Redis INCR through a Durable Object, then the upstream (pid ${child.pid})`
      : `workerd: a bare Worker passing the request and the upstream's answer through (pid ${child.pid})`,
  };
}
