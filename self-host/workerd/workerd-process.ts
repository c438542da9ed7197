import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { GatewayBuild } from '../build/worker-build';
import { type Child, spawnChild } from '../process/children';
import type { PortSockets } from '../process/port-sockets';
import { HTTP_SOCKET, socketAddress, workerdConfig } from './workerd-config';

const require = createRequire(import.meta.url);

export interface WorkerdOptions {
  build: GatewayBuild;
  /** Runtime bindings (stores, bridge endpoints, secrets): passed through workerd's environment. */
  bindings: Record<string, string>;
  host: string;
  port: number;
  outboundAllow: string[];
  redisLink: boolean;
  quiet: boolean;
}

/** The `workerd` binary of the npm package (the version wrangler and Miniflare use). */
export function workerdBinary(): string {
  const exported: unknown = require('workerd');
  const path = (exported as { default?: unknown }).default;
  if (typeof path !== 'string') throw new Error('the workerd package did not export its binary path');
  return path;
}

/**
 * Writes the generated config beside the bundle; the file carries no secret (see
 * startWorkerd). Returns its path.
 */
export function writeWorkerdConfig(options: WorkerdOptions): string {
  const configPath = join(options.build.directory, 'workerd.capnp');
  const config = workerdConfig({
    settings: options.build.settings,
    modules: options.build.modules,
    configDirectory: options.build.directory,
    environmentBindings: Object.keys(options.bindings).sort(),
    address: socketAddress(options.host, options.port),
    outboundAllow: options.outboundAllow,
    redisLink: options.redisLink,
    v8Flags: splitArgs(process.env.WORKERD_V8_FLAGS),
  });
  writeFileSync(configPath, config, { mode: 0o600 });
  return configPath;
}

export interface WorkerdLaunch {
  /** `[name]` on its log lines. */
  name: string;
  configPath: string;
  /** Where the bundle and config are: workerd's working directory. */
  directory: string;
  bindings: Record<string, string>;
  /**
   * The listening socket to serve the HTTP socket on (as fd 3) instead of binding the config's
   * address, so that several processes serve one port.
   */
  sockets: PortSockets;
  quiet: boolean;
}

/**
 * WORKERD_EXTRA_ARGS: more arguments for every `workerd serve`, for profiling a running gateway
 * (`--inspector-addr=127.0.0.1:9229`: docs/performance.md).
 */
function extraArgs(): string[] {
  return splitArgs(process.env.WORKERD_EXTRA_ARGS);
}

/** WORKERD_V8_FLAGS (`--trace-gc`, …) and WORKERD_EXTRA_ARGS are space-separated. */
function splitArgs(value: string | undefined): string[] {
  return value?.split(' ').filter(Boolean) ?? [];
}

/**
 * Starts `workerd serve` on a written config. workerd's environment holds the binding values
 * and nothing else, so the config file carries no secret and no other variable of the
 * supervisor's can reach the worker.
 */
export function startWorkerd(launch: WorkerdLaunch): Child {
  const started = launch.sockets.launch(workerdBinary(), [
    'serve',
    launch.configPath,
    `--socket-fd=${HTTP_SOCKET}=3`,
    ...extraArgs(),
  ]);
  return spawnChild(launch.name, started.command, started.args, {
    cwd: launch.directory,
    env: launch.bindings,
    quiet: launch.quiet,
    inheritFds: started.inheritFds,
  });
}
