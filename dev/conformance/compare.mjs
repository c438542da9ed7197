// Compares what the conformance suites saved (mcp.sh with OUT_DIR and REFERENCE=1): every check
// that passes against the reference server alone must pass through the gateway too. Prints one
// line per suite and scenario and the checks that regressed; exits 1 when any did.
// Usage: node compare.mjs <OUT_DIR> [gateway-dir, default gateway-mcp-everything]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [out, gatewayDir = 'gateway-mcp-everything'] = process.argv.slice(2);
/** What each check said (error message or details), to show beside a regression. */
const why = new Map();

/** scenario → (check id#occurrence → status) for one suite run. */
function results(dir) {
  const byScenario = new Map();
  if (!existsSync(dir)) return byScenario;
  for (const run of readdirSync(dir)) {
    const scenario = run.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    const checks = JSON.parse(readFileSync(join(dir, run, 'checks.json'), 'utf8'));
    const seen = new Map();
    const statuses = new Map();
    for (const check of checks) {
      const n = (seen.get(check.id) ?? 0) + 1;
      seen.set(check.id, n);
      statuses.set(`${check.id}#${n}`, check.status);
      why.set(
        `${dir}:${scenario}:${check.id}#${n}`,
        check.errorMessage ?? JSON.stringify(check.details ?? ''),
      );
    }
    byScenario.set(scenario, statuses);
  }
  return byScenario;
}

const passed = (statuses) => [...statuses.values()].filter((s) => s === 'SUCCESS').length;
let regressions = 0;
for (const suite of readdirSync(join(out, 'reference'))) {
  const reference = results(join(out, 'reference', suite));
  const gateway = results(join(out, gatewayDir, suite));
  let refTotal = 0;
  let gwTotal = 0;
  for (const [scenario, expected] of reference) {
    const actual = gateway.get(scenario) ?? new Map();
    refTotal += passed(expected);
    gwTotal += passed(actual);
    for (const [check, status] of expected) {
      if (status === 'SUCCESS' && actual.get(check) !== 'SUCCESS') {
        regressions++;
        const said = why.get(`${join(out, gatewayDir, suite)}:${scenario}:${check}`) ?? '';
        console.log(
          `REGRESSION ${suite} ${scenario} ${check}: ${actual.get(check) ?? 'not run'} through the gateway ${said.slice(0, 600)}`,
        );
      }
    }
  }
  console.log(
    `${suite}: reference alone ${refTotal} checks passed, through the gateway (${gatewayDir}) ${gwTotal}`,
  );
}
console.log(
  regressions === 0
    ? 'conformance: no check fails through the gateway that passes alone'
    : `conformance: ${regressions} regressions`,
);
process.exit(regressions === 0 ? 0 : 1);
