import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { GatewayBuild } from '../build/worker-build';
import { type Child, spawnChild } from '../process/children';
import { socketAddress, workerdConfig } from './workerd-config';

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
 * Writes the generated config beside the bundle and starts `workerd serve` on it. workerd's
 * environment holds the binding values and nothing else, so the config file carries no secret
 * and no other variable of the supervisor's can reach the worker.
 */
export function startWorkerd(options: WorkerdOptions): Child {
  const configPath = join(options.build.directory, 'workerd.capnp');
  const config = workerdConfig({
    settings: options.build.settings,
    modules: options.build.modules,
    configDirectory: options.build.directory,
    environmentBindings: Object.keys(options.bindings).sort(),
    address: socketAddress(options.host, options.port),
    outboundAllow: options.outboundAllow,
    redisLink: options.redisLink,
  });
  writeFileSync(configPath, config, { mode: 0o600 });
  return spawnChild('gateway', workerdBinary(), ['serve', configPath], {
    cwd: options.build.directory,
    env: options.bindings,
    quiet: options.quiet,
  });
}
