import { spawn } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
export const UI_DIR = join(ROOT, 'console-server', 'ui');
const DIST = join(UI_DIR, 'dist');
/** What the bundle is made of (the generated API types only matter to the typecheck). */
const SOURCES = ['src', 'index.html', 'vite.config.ts', 'package.json'];
const resolveFromUi = createRequire(join(UI_DIR, 'package.json')).resolve;

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.endsWith('.gen.d.ts')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** True when there is no build or a source is newer than it. */
export function uiBuildIsStale(): boolean {
  const index = join(DIST, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(UI_DIR, s)) > built);
}

function run(args: string[], log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: UI_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (d: Buffer) => {
      output += d.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) {
        log(output.trim().split('\n').at(-1) ?? '');
        resolve();
      } else reject(new Error(`UI build failed (${args.join(' ')}):\n${output}`));
    });
  });
}

/**
 * `npm start` builds the web UI when the build is missing or older than its sources. The
 * build goes to a private directory and is then swapped in, so two stacks starting at once
 * (the test suites) never serve a half-written build.
 */
export async function ensureUiBuild(log: (line: string) => void): Promise<void> {
  if (!uiBuildIsStale()) return;
  log('ui: building the web UI (console-server/ui)...');
  const tmp = `dist-tmp-${process.pid}`;
  const tsx = resolveFromUi('tsx/cli');
  const vite = join(dirname(resolveFromUi('vite/package.json')), 'bin', 'vite.js');
  try {
    await run([tsx, 'scripts/gen-api.ts'], () => {});
    await run([vite, 'build', '--outDir', tmp, '--logLevel', 'warn'], () => {});
    rmSync(DIST, { recursive: true, force: true });
    renameSync(join(UI_DIR, tmp), DIST);
    log('ui: built console-server/ui/dist');
  } catch (error) {
    // Another stack may have swapped its build in between; either build is the same.
    if (existsSync(join(DIST, 'index.html')) && (error as NodeJS.ErrnoException).code) return;
    throw error;
  } finally {
    rmSync(join(UI_DIR, tmp), { recursive: true, force: true });
  }
}
