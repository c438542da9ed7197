import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Who may import whom (docs/architecture.md, Layout): shared/src runs in workerd and Node alike,
 * so it imports neither `node:` modules nor hono; the areas only the console uses and the ones
 * only the gateway's request path uses never import each other, and each app imports only its
 * own side's areas and the common ones, through the areas' entry points.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SHARED = join(ROOT, 'shared/src');
const WORKSPACES = ['gateway-worker', 'console-server', 'self-host'];

type Side = 'console' | 'gateway' | 'common';

/**
 * Every area of shared/src and which side it serves. An area is a top-level folder, or a
 * sub-folder listed here on its own (auth/ is only its sub-areas). Each may have an index.ts,
 * its entry point for the apps; inside shared/src, files import files.
 */
export const AREAS: Record<string, Side> = {
  access: 'console',
  audit: 'console',
  'auth/api-keys': 'common',
  'auth/console': 'common',
  'auth/gateway': 'gateway',
  'auth/oauth': 'common',
  'auth/sign-in': 'console',
  canonical: 'common',
  config: 'common',
  db: 'common',
  'db/repos': 'common',
  'db/schema': 'common',
  gateway: 'gateway',
  guardrails: 'common',
  http: 'common',
  keys: 'common',
  limits: 'common',
  'limits-admin': 'console',
  logs: 'common',
  'logs/analytics': 'common',
  'logs/mcp': 'common',
  'logs/requests': 'common',
  'logs/server': 'common',
  mcp: 'common',
  'mcp/gateway': 'common',
  'mcp/oauth': 'common',
  'mcp/registry': 'common',
  'mcp/upstream': 'common',
  metrics: 'gateway',
  'models-admin': 'console',
  pricing: 'common',
  providers: 'common',
  'providers-admin': 'console',
  proxy: 'gateway',
  retention: 'common',
  routing: 'common',
  runtime: 'common',
  secrets: 'common',
  settings: 'common',
  sse: 'common',
  stores: 'common',
  telemetry: 'common',
  users: 'console',
  util: 'common',
  wire: 'common',
};
/** Folders that are no area themselves, only the parents of areas. */
const GROUPS = ['auth'];

const areasOn = (side: Side) => Object.keys(AREAS).filter((area) => AREAS[area] === side);
export const CONSOLE_ONLY = areasOn('console');
export const GATEWAY_ONLY = areasOn('gateway');

function sources(dir: string, withTests = false): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path, withTests);
    const isTest = path.endsWith('.test.ts');
    return /\.tsx?$/.test(path) && (withTests || !isTest) && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** `import … from 'x'`, `export … from 'x'`, `import 'x'` and `import('x')`, nothing in strings. */
const IMPORT =
  /^\s*(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
const specifiers = (path: string): string[] =>
  [...readFileSync(path, 'utf8').matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);

/** The area a path under shared/src (relative to it, '/'-separated) belongs to. */
function areaOfPath(rel: string): string {
  const parts = rel.split('/');
  const two = parts.slice(0, 2).join('/');
  return two in AREAS ? two : (parts[0] as string);
}
const areaOf = (file: string) => areaOfPath(relative(SHARED, file).split(sep).join('/'));

function sharedAreasImported(file: string): string[] {
  return specifiers(file).flatMap((spec) => {
    if (spec.startsWith('@sluice/shared/')) return [areaOfPath(spec.slice('@sluice/shared/'.length))];
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

const manifest = (dir: string) =>
  JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
    exports?: Record<string, string>;
    dependencies?: Record<string, string>;
  };

/** The package a bare specifier names ('@scope/name' or 'name'), or null for a built-in. */
function packageOf(spec: string): string | null {
  if (spec.startsWith('.') || /^[a-z]+:/.test(spec)) return null;
  const parts = spec.split('/');
  return (spec.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

describe('import boundaries', () => {
  const shared = sources(SHARED);

  it('every folder of shared/src is a classified area (or only holds areas)', () => {
    const folders = readdirSync(SHARED).filter((name) => statSync(join(SHARED, name)).isDirectory());
    const unclassified = folders.flatMap((name) =>
      GROUPS.includes(name)
        ? readdirSync(join(SHARED, name))
            .map((sub) => `${name}/${sub}`)
            .filter((sub) => statSync(join(SHARED, sub)).isDirectory() && !(sub in AREAS))
        : name in AREAS
          ? []
          : [name],
    );
    expect(unclassified).toEqual([]);
    expect(Object.keys(AREAS).filter((area) => !existsSync(join(SHARED, area)))).toEqual([]);
  });

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

  it('the store adapters use the runtime machinery built on them only for the ports they implement', () => {
    const valueImports = shared
      .filter((file) => areaOf(file) === 'stores')
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/^import\s+(?!type\s)[^;]*?from\s+['"]([^'"]+)['"]/gms)]
          .map((m) => m[1] as string)
          .filter((spec) => spec.startsWith('.') && areaOf(resolve(dirname(file), spec)) === 'runtime')
          .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
      );
    expect(valueImports).toEqual([]);
  });

  it("inside shared/src files import files, not another area's entry point", () => {
    const throughEntries = shared.flatMap((file) =>
      specifiers(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) =>
          relative(SHARED, resolve(dirname(file), spec))
            .split(sep)
            .join('/')
            .replace(/\/index$/, ''),
        )
        .filter((target) => target in AREAS && target !== 'db/schema' && target !== areaOf(file))
        .map((target) => `${relative(ROOT, file)} imports ${target}/index.ts`),
    );
    expect(throughEntries).toEqual([]);
  });

  it('the gateway imports no console-only area, the console no gateway-only one', () => {
    expect(
      crossings(sources(join(ROOT, 'gateway-worker/src')), (_, to) => CONSOLE_ONLY.includes(to)),
    ).toEqual([]);
    expect(
      crossings(sources(join(ROOT, 'console-server/src')), (_, to) => GATEWAY_ONLY.includes(to)),
    ).toEqual([]);
  });

  it("the export map lists exactly the areas' entry points", () => {
    const expected = Object.fromEntries(
      Object.keys(AREAS)
        .filter((area) => existsSync(join(SHARED, area, 'index.ts')))
        .sort()
        .map((area) => [`./${area}`, `./src/${area}/index.ts`]),
    );
    expect(manifest('shared').exports).toEqual(expected);
  });

  it('the apps, dev tools and tests import @sluice/shared only through its entry points', () => {
    const listed = Object.keys(manifest('shared').exports ?? {}).map(
      (key) => `@sluice/shared${key.slice(1)}`,
    );
    const offending = [...WORKSPACES, 'dev', 'bench', 'tests'].flatMap((dir) =>
      sources(join(ROOT, dir), true)
        .flatMap((file) => specifiers(file).map((spec) => ({ file, spec })))
        .filter(({ spec }) => spec.startsWith('@sluice/shared') && !listed.includes(spec))
        .map(({ file, spec }) => `${relative(ROOT, file)} imports ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('every workspace declares the packages its sources import', () => {
    for (const workspace of WORKSPACES) {
      const declared = Object.keys(manifest(workspace).dependencies ?? {});
      const undeclared = new Set(
        sources(join(ROOT, workspace))
          .filter((file) => !file.includes(`${sep}ui${sep}`))
          .flatMap(specifiers)
          .map(packageOf)
          .filter((name): name is string => name !== null && !declared.includes(name)),
      );
      expect({ workspace, undeclared: [...undeclared] }).toEqual({ workspace, undeclared: [] });
    }
  });
});
