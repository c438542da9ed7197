import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, extname, join } from 'node:path';
import { runToEnd } from '../process/run-to-end';
import { readWorkerSettings, type WorkerSettings, WRANGLER_TOML } from './worker-settings';

const require = createRequire(import.meta.url);
const ROOT = join(import.meta.dirname, '..', '..');

/** workerd's module kinds, by the extension wrangler gives an output file. */
export type WorkerModuleType = 'esModule' | 'commonJsModule' | 'wasm' | 'text' | 'data' | 'json';

export interface WorkerModule {
  /** The module's name inside the worker: its path relative to the build directory. */
  name: string;
  type: WorkerModuleType;
  /** Absolute path of the file. */
  path: string;
}

export interface GatewayBuild {
  directory: string;
  settings: WorkerSettings;
  /** Entry module first (workerd treats the first module as the main one). */
  modules: WorkerModule[];
}

const MODULE_TYPES: Record<string, WorkerModuleType> = {
  '.js': 'esModule',
  '.mjs': 'esModule',
  '.cjs': 'commonJsModule',
  '.wasm': 'wasm',
  '.txt': 'text',
  '.html': 'text',
  '.bin': 'data',
  '.json': 'json',
};

/**
 * Builds the gateway exactly as the edge gets it: `wrangler deploy --dry-run --outdir`, so
 * wrangler.toml's `main`, `minify`, `[alias]`, `rules` and whatever else it says apply. The
 * settings are read from the same file in parallel.
 */
export async function buildGatewayWorker(
  directory: string,
  configPath = WRANGLER_TOML,
): Promise<GatewayBuild> {
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const wrangler = require.resolve('wrangler/bin/wrangler.js');
  const [settings] = await Promise.all([
    readWorkerSettings(configPath),
    runToEnd(
      process.execPath,
      [wrangler, 'deploy', '--dry-run', '--outdir', directory, '--config', configPath],
      {
        cwd: ROOT,
        // No telemetry and no colour codes; the dry run itself needs no network or account.
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0' },
      },
    ),
  ]);
  return { directory, settings, modules: listModules(directory, settings.main) };
}

/** The files wrangler wrote, as workerd modules; source maps and its README are not modules. */
export function listModules(directory: string, main: string): WorkerModule[] {
  const entryName = `${basename(main, extname(main))}.js`;
  const modules: WorkerModule[] = [];
  for (const name of readdirSync(directory, { recursive: true, encoding: 'utf8' }).sort()) {
    if (name.endsWith('.map') || name === 'README.md') continue;
    const type = MODULE_TYPES[extname(name)];
    if (!type) continue; // a directory, or a file kind workerd cannot load as a module
    modules.push({ name: name.split('\\').join('/'), type, path: join(directory, name) });
  }
  const entry = modules.findIndex((module) => module.name === entryName);
  if (entry < 0) throw new Error(`wrangler wrote no ${entryName} into ${directory}`);
  return [modules[entry]!, ...modules.filter((_, i) => i !== entry)];
}
