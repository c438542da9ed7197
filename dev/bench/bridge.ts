// `npm run bench:bridge`: CPU the store bridge spends per HTTP request and per Redis command.
// Starts dev/bench/bridge-server.ts in a process of its own (pinned to BENCH_BRIDGE_CPU, default
// 1) in front of real Redis (BENCH_REDIS_URL), drives it with wrk posting a /pipeline of 1 and
// of 16 EVALSHA commands (base64 and plain encoding), and reads the bridge's own CPU time from
// /proc before and after each run. Both of its HTTP servers are measured: the lean one on the
// Upstash port the apps are given, and Node's `http` on the main port. `paced` rows send one
// request every BENCH_PACE_MS (5 ms: 200 req/s) on one connection, as a quiet gateway's
// admissions come, each to a cold process. Needs `wrk` on the PATH and Linux. Indicative
// figures: on a small machine wrk, Redis and the bridge share the cores.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { formatTable } from './table';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,8').split(',').map(Number);
const BRIDGE_CPU = process.env.BENCH_BRIDGE_CPU ?? '1';
const WRK_CPU = process.env.BENCH_WRK_CPU ?? '0';
const TOKEN = 'bench-token';
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 5);
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** A limiter-shaped script: a counter with an expiry, an array reply of integers and strings. */
const SCRIPT = `local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], 60000)
return {n, ARGV[1], 'allowed', 0, tonumber(ARGV[2]), KEYS[2]}`;

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // After "pid (comm) ": state is field 0, utime 11, stime 12 (man 5 proc).
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function startBridge(): Promise<{ child: ChildProcess; ports: Record<'lean' | 'node-http', number> }> {
  const child = spawn(
    'taskset',
    ['-c', BRIDGE_CPU, process.execPath, '--import', 'tsx', join(import.meta.dirname, 'bridge-server.ts')],
    { env: { ...process.env, BENCH_REDIS_URL: REDIS_URL }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /port=(\d+) rest=(\d+)/.exec(out);
      if (found) resolve({ child, ports: { lean: Number(found[2]), 'node-http': Number(found[1]) } });
    });
    child.once('exit', (code) => reject(new Error(`bridge exited with ${code}: ${out}`)));
  });
}

function wrkScript(dir: string, sha: string, commands: number, base64: boolean, paced = false): string {
  const pipeline = Array.from({ length: commands }, (_, i) => [
    'evalsha',
    sha,
    '2',
    `bench:bridge:{k${i}}:count`,
    `bench:bridge:{k${i}}:meta`,
    'user:requests/1m',
    '1000',
    'route:tokens/1m',
    '250000',
  ]);
  const lines = [
    'wrk.method = "POST"',
    `wrk.headers["Authorization"] = "Bearer ${TOKEN}"`,
    'wrk.headers["Content-Type"] = "application/json"',
    ...(base64 ? ['wrk.headers["Upstash-Encoding"] = "base64"'] : []),
    `wrk.body = [==[${JSON.stringify(pipeline)}]==]`,
    ...(paced ? [`function delay() return ${PACE_MS} end`] : []),
  ];
  const file = join(dir, `pipeline-${commands}-${base64 ? 'b64' : 'plain'}${paced ? '-paced' : ''}.lua`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

interface Run {
  requests: number;
  non2xx: number;
  cpu: number;
  /** Median latency in µs. */
  p50: number;
}

/** wrk's `--latency` figure ("50%    1.23ms") in µs. */
function medianMicros(output: string): number {
  const [, value, unit] = /^\s+50%\s+([\d.]+)(us|ms|s)/m.exec(output) ?? [];
  const scale = unit === 'us' ? 1 : unit === 'ms' ? 1e3 : 1e6;
  return Number(value ?? Number.NaN) * scale;
}

function wrk(pid: number, url: string, script: string, connections: number): Run {
  const before = cpuSeconds(pid);
  const output = execFileSync(
    'taskset',
    ['-c', WRK_CPU, 'wrk', '-t1', `-c${connections}`, `-d${SECONDS}s`, '--latency', '-s', script, url],
    { encoding: 'utf8' },
  );
  const cpu = cpuSeconds(pid) - before;
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  return { requests, non2xx, cpu, p50: medianMicros(output) };
}

const redis = new Redis(REDIS_URL);
const sha = (await redis.script('LOAD', SCRIPT)) as string;
const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-bridge-'));
const { child, ports } = await startBridge();
try {
  // Warm up the JIT and the connections before measuring.
  for (const port of Object.values(ports)) {
    wrk(child.pid!, `http://127.0.0.1:${port}/pipeline`, wrkScript(dir, sha, 16, true), 8);
  }
  const rows = [
    [
      'server',
      'commands',
      'encoding',
      'conns',
      'req/s',
      'p50 µs',
      'µs CPU/request',
      'µs CPU/command',
      'non-2xx',
    ],
  ];
  const row = (server: string, commands: number, base64: boolean, conns: string, run: Run) => {
    const perRequest = (run.cpu * 1e6) / run.requests;
    rows.push([
      server,
      String(commands),
      base64 ? 'base64' : 'plain',
      conns,
      (run.requests / SECONDS).toFixed(0),
      run.p50.toFixed(0),
      perRequest.toFixed(1),
      (perRequest / commands).toFixed(1),
      String(run.non2xx),
    ]);
  };
  for (const commands of [1, 16]) {
    for (const base64 of [true, false]) {
      for (const connections of CONNECTIONS) {
        for (const [server, port] of Object.entries(ports)) {
          const url = `http://127.0.0.1:${port}/pipeline`;
          row(
            server,
            commands,
            base64,
            String(connections),
            wrk(child.pid!, url, wrkScript(dir, sha, commands, base64), connections),
          );
        }
      }
    }
  }
  for (const [server, port] of Object.entries(ports)) {
    const url = `http://127.0.0.1:${port}/pipeline`;
    row(server, 1, false, 'paced', wrk(child.pid!, url, wrkScript(dir, sha, 1, false, true), 1));
  }
  console.log(formatTable(rows));
} finally {
  child.kill('SIGTERM');
  await redis.eval("for _, k in ipairs(redis.call('KEYS', 'bench:bridge:*')) do redis.call('DEL', k) end", 0);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
}
