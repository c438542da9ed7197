// Run as a child process by worker-settings.ts: prints what `npm run serve` and `npm start`
// need from wrangler.toml as one line of JSON, read by wrangler's own config reader so it means
// exactly what `wrangler deploy` takes it to mean. A child, because importing wrangler costs
// ~200 MB of memory that a long-running supervisor should not keep.
import { unstable_readConfig } from 'wrangler';

/** Config keys that declare bindings a plain `workerd serve` config here does not provide. */
const BINDING_KEYS = [
  'kv_namespaces',
  'durable_objects',
  'workflows',
  'r2_buckets',
  'd1_databases',
  'queues',
  'services',
  'vectorize',
  'hyperdrive',
  'analytics_engine_datasets',
  'dispatch_namespaces',
  'mtls_certificates',
  'send_email',
  'ai',
  'ai_search',
  'ai_search_namespaces',
  'browser',
  'images',
  'stream',
  'media',
  'pipelines',
  'secrets_store_secrets',
  'artifacts',
  'flagship',
  'worker_loaders',
  'ratelimits',
  'vpc_services',
  'vpc_networks',
  'version_metadata',
  'logfwdr',
  'unsafe',
  'assets',
  'site',
  'wasm_modules',
  'text_blobs',
  'data_blobs',
  'containers',
  'tail_consumers',
] as const;

/** Empty arrays and objects holding only empty arrays are wrangler's defaults, not declarations. */
function declares(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.values(value).some(declares);
  return true;
}

const configPath = process.argv[2];
if (!configPath) throw new Error('usage: print-worker-settings.ts <wrangler.toml>');
const config = unstable_readConfig({ config: configPath });
const raw = config as unknown as Record<string, unknown>;
const settings = {
  name: config.name,
  main: config.main,
  compatibility_date: config.compatibility_date,
  compatibility_flags: config.compatibility_flags,
  vars: config.vars,
  crons: config.triggers?.crons ?? [],
  unsupported: BINDING_KEYS.filter((key) => declares(raw[key])),
};
process.stdout.write(`${JSON.stringify(settings)}\n`);
