// Checks what the suite's client mode saved (mcp.sh with CLIENT=1 and OUT_DIR) against
// client-baseline.json: a scenario that fails and is not listed there fails CI, and so does a
// listed one that passes (the list must shrink as the connector learns). Prints a line per scenario.
// Usage: node client-passed.mjs <OUT_DIR>/client
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir = ''] = process.argv.slice(2);
const baseline = new Set(
  JSON.parse(readFileSync(new URL('./client-baseline.json', import.meta.url), 'utf8')).expectedFailures,
);

/** scenario → its checks, from <dir>/<scenario>-<timestamp>/checks.json (auth/ ones one level down). */
function runs(base, prefix = '') {
  const found = new Map();
  if (!existsSync(base)) return found;
  for (const entry of readdirSync(base, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(base, entry.name);
    if (existsSync(join(path, 'checks.json'))) {
      const scenario = prefix + entry.name.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
      found.set(scenario, JSON.parse(readFileSync(join(path, 'checks.json'), 'utf8')));
    } else {
      for (const [name, checks] of runs(path, `${prefix}${entry.name}/`)) found.set(name, checks);
    }
  }
  return found;
}

const results = runs(dir);
let bad = 0;
for (const [scenario, checks] of [...results].sort(([a], [b]) => a.localeCompare(b))) {
  const failed = checks.filter((c) => c.status === 'FAILURE');
  const expected = baseline.has(scenario);
  const mark = failed.length === 0 ? (expected ? '!' : '✓') : expected ? '~' : '✗';
  console.log(`${mark} ${scenario}: ${checks.length - failed.length}/${checks.length}`);
  if (mark === '✗') for (const f of failed) console.log(`    ${f.id}: ${f.errorMessage ?? ''}`);
  if (mark === '✗' || mark === '!') bad += 1;
}
if (results.size === 0) {
  console.log('no client-mode results');
  bad += 1;
}
console.log(
  bad === 0
    ? 'client mode: as the baseline says'
    : `client mode: ${bad} scenario(s) differ from the baseline (✗ new failure, ! now passes: remove it)`,
);
process.exit(bad === 0 ? 0 : 1);
