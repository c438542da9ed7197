import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Who may import whom (docs/architecture.md, Layout): shared/src runs in workerd and Node alike,
 * so it imports neither `node:` modules nor hono; the areas only the console uses and the ones
 * only the gateway's request path uses never import each other, and each app imports only its
 * own side's areas and the common ones.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SHARED = join(ROOT, 'shared/src');

export const CONSOLE_ONLY = ['audit', 'identity', 'limits-admin', 'models-admin', 'providers-admin', 'users'];
export const GATEWAY_ONLY = ['gateway', 'metrics', 'proxy'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

const specifiers = (path: string): string[] =>
  [...readFileSync(path, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
    (m) => m[1] as string,
  );

/** The shared/src area a file is in, or that a specifier of it names. */
const areaOf = (file: string) => relative(SHARED, file).split(sep)[0] as string;

function sharedAreasImported(file: string): string[] {
  return specifiers(file).flatMap((spec) => {
    if (spec.startsWith('@sluice/shared/')) return [spec.split('/')[2] as string];
    if (!spec.startsWith('.') || !file.startsWith(SHARED)) return [];
    return [areaOf(resolve(dirname(file), spec))];
  });
}

/** `file imports area` for every import that crosses into a forbidden area. */
function crossings(files: string[], forbidden: (from: string, to: string) => boolean): string[] {
  return files.flatMap((file) => {
    const from = file.startsWith(SHARED) ? areaOf(file) : relative(ROOT, file).split(sep)[0];
    return sharedAreasImported(file)
      .filter((to) => to !== from && forbidden(from as string, to))
      .map((to) => `${relative(ROOT, file)} imports ${to}`);
  });
}

describe('import boundaries', () => {
  const shared = sources(SHARED);

  it('shared/src imports no node: module and no hono (it runs in workerd as in Node)', () => {
    const offending = shared.flatMap((file) =>
      specifiers(file)
        .filter((spec) => spec.startsWith('node:') || spec === 'hono' || spec.startsWith('hono/'))
        .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('console-only and gateway-only areas of shared/ never import each other', () => {
    const across = (from: string, to: string) =>
      (CONSOLE_ONLY.includes(from) && GATEWAY_ONLY.includes(to)) ||
      (GATEWAY_ONLY.includes(from) && CONSOLE_ONLY.includes(to));
    expect(crossings(shared, across)).toEqual([]);
  });

  it('the gateway imports no console-only area, the console no gateway-only one', () => {
    expect(
      crossings(sources(join(ROOT, 'gateway-worker/src')), (_, to) => CONSOLE_ONLY.includes(to)),
    ).toEqual([]);
    expect(
      crossings(sources(join(ROOT, 'console-server/src')), (_, to) => GATEWAY_ONLY.includes(to)),
    ).toEqual([]);
  });

  it('every workspace that imports @sluice/shared declares it', () => {
    for (const workspace of ['gateway-worker', 'console-server', 'self-host']) {
      const manifest = JSON.parse(readFileSync(join(ROOT, workspace, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      const files = sources(join(ROOT, workspace));
      const imports = files.some((file) =>
        specifiers(file).some((spec) => spec.startsWith('@sluice/shared')),
      );
      expect({
        workspace,
        declared: imports ? '@sluice/shared' in (manifest.dependencies ?? {}) : true,
      }).toEqual({
        workspace,
        declared: true,
      });
    }
  });
});
