// Checks what the suite's authorization mode saved (mcp.sh with AUTHORIZATION=1 and OUT_DIR):
// both scenarios ran and no check failed. Prints each scenario's count; exits 1 otherwise.
// Usage: node authorization-passed.mjs <OUT_DIR>/authorization
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir = ''] = process.argv.slice(2);
const runs = existsSync(dir) ? readdirSync(dir) : [];
const expected = ['authorization-server-metadata-endpoint', 'authorization-code-grant'];
let failed = 0;
for (const scenario of expected) {
  const run = runs.find((r) => r.includes(scenario));
  const checks = run ? JSON.parse(readFileSync(join(dir, run, 'checks.json'), 'utf8')) : [];
  const passed = checks.filter((c) => c.status === 'SUCCESS').length;
  const failures = checks.filter((c) => c.status === 'FAILURE');
  console.log(`authorization ${scenario}: ${passed}/${checks.length} passed`);
  for (const f of failures) console.log(`  ✗ ${f.id}: ${f.errorMessage ?? ''}`);
  if (checks.length === 0 || failures.length > 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
