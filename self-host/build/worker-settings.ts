import { join } from 'node:path';
import * as z from 'zod';
import { runToEnd } from '../process/run-to-end';

const ROOT = join(import.meta.dirname, '..', '..');
export const WRANGLER_TOML = join(ROOT, 'wrangler.toml');

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValue),
    z.record(z.string(), jsonValue),
  ]),
);

const printedSettings = z.object({
  name: z.string().min(1),
  main: z.string().min(1, 'wrangler.toml has no `main`'),
  compatibility_date: z
    .string({ error: 'wrangler.toml has no `compatibility_date`' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'compatibility_date must be YYYY-MM-DD'),
  compatibility_flags: z.array(z.string().regex(/^[a-z0-9_]+$/, 'unexpected compatibility flag')),
  vars: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'var names must be identifiers'), jsonValue),
  crons: z.array(z.string()),
  unsupported: z.array(z.string()),
});

/** What the gateway's runtime config takes from wrangler.toml. */
export interface WorkerSettings {
  name: string;
  /** Absolute path of the entry source (its bundle is named after it). */
  main: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
  /** `[vars]`: strings become text bindings, anything else a JSON binding, as on the edge. */
  vars: Record<string, JsonValue>;
  /** `[triggers] crons`: not run by workerd serve or Miniflare here (the console runs the jobs). */
  crons: string[];
}

/**
 * Reads wrangler.toml through wrangler's own reader (in a child process, see
 * print-worker-settings.ts) and validates the part the local runtimes use. Bindings a plain
 * workerd config here cannot provide (KV, D1, Durable Objects, services...) are refused rather
 * than silently left out.
 */
export async function readWorkerSettings(configPath = WRANGLER_TOML): Promise<WorkerSettings> {
  const output = await runToEnd(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'print-worker-settings.ts'), configPath],
    { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0' } },
  );
  return parseWorkerSettings(output);
}

/** Parses the child's output: wrangler may print warnings first, the JSON is the last line. */
export function parseWorkerSettings(output: string): WorkerSettings {
  const line = output.trim().split('\n').at(-1) ?? '';
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new Error(`could not read wrangler.toml settings: ${output.slice(0, 500)}`);
  }
  const parsed = printedSettings.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`);
    throw new Error(`wrangler.toml: ${problems.join('; ')}`);
  }
  const settings = parsed.data;
  if (settings.unsupported.length > 0) {
    throw new Error(
      `wrangler.toml declares ${settings.unsupported.join(', ')}: the self-host runtime provides [vars] ` +
        'and its own store bindings only. Remove them or deploy with `wrangler deploy`.',
    );
  }
  return {
    name: settings.name,
    main: settings.main,
    compatibilityDate: settings.compatibility_date,
    compatibilityFlags: settings.compatibility_flags,
    vars: settings.vars,
    crons: settings.crons,
  };
}
