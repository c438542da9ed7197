import { describe, expect, it } from 'vitest';
import type { RunFigures } from './measure-run';
import { formatReport, mainTable, type ReportInput, topCommands } from './report';

function run(rps: number, gatewayUs: number): RunFigures {
  return {
    wrk: {
      requests: rps * 5,
      seconds: 5,
      requestsPerSecond: rps,
      p50Ms: 7.5,
      p90Ms: 9,
      p95Ms: 9,
      p99Ms: 12.25,
      maxMs: 30,
      meanMs: 8,
      errors: 0,
      non2xx: 1,
      bytes: 1,
    },
    windowSeconds: 6,
    cpuUsPerRequest: { gateway: gatewayUs, bridge: 40, console: 0.5, other: 0, total: gatewayUs + 40.5 },
    cores: { gateway: 0.8, bridge: 0.15, console: 0, other: 0 },
    cpuBusy: { '0': 0.995, '1': 0.9 },
    rssMb: { gateway: 200, bridge: 100, console: 120, other: 0 },
    processes: { gateway: ['2 workerd'], bridge: ['1 node'], console: ['3 node'], other: [] },
    redis: {
      total: rps * 5 * 20,
      scripts: rps * 5,
      evalsha: rps * 5,
      byCommand: { hincrby: rps * 5 * 12, hmget: rps * 5 * 7, evalsha: rps * 5 },
      perRequest: 20,
      evalshaPerRequest: 1,
    },
    redisOthers: [],
    bridge: {
      upstash_requests: 0.1,
      redis_commands: 1.02,
      sql_requests: 0,
      sql_statements: 0,
    },
    linkRoundTrips: 0.09,
  };
}

const input: ReportInput = {
  meta: {
    mode: 'serve',
    pinning: '2 cores, wrk + fake upstream on CPU 0, stack on CPU 1',
    cpuUse: { '0': 'wrk + fake upstream', '1': 'stack' },
    versions: 'Node v20',
    stores: 'stores: …',
    connections: 32,
    seconds: 5,
    rate: 200,
    rateSeconds: 5,
    warmupSeconds: 3,
    settleMs: 1000,
    ticksPerSecond: 100,
  },
  modes: { json: { saturation: run(4000, 180), fixedRate: run(200, 400) } },
  isolate: null,
  idle: { gateway: 1, bridge: 2.5, console: 3, other: 0 },
  machine: {
    before: { syscallNs: 1100, taskUs: 22.5, taskAfterGapUs: 31.25, gapMs: 5 },
    after: { syscallNs: 2650, taskUs: 41, taskAfterGapUs: 90, gapMs: 5 },
  },
  logRows: { rows: 23_003, sent: 23_000 },
  notes: ['json 200/s: something to know'],
  resultsFile: '/tmp/x/results.json',
};

describe('bench report', () => {
  it('puts json and stream side by side, at saturation and at the fixed rate, a dash where not measured', () => {
    const lines = mainTable(input).split('\n');
    expect(lines[0]).toMatch(/^\s+json\s+stream$/);
    expect(lines[1]).toMatch(/saturation\s+200\/s\s+saturation\s+200\/s$/);
    expect(lines).toContainEqual(expect.stringMatching(/^throughput \(req\/s\)\s+4,000\s+200\s+-\s+-$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}gateway runtime \(workerd\)\s+180\s+400\s+-\s+-$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}total\s+221\s+441\s+-\s+-$/));
    expect(lines).toContainEqual(expect.stringMatching(/^failed requests\s+1\s+1\s+-\s+-$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}EVALSHA calls\s+1.00\s+1.00/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^CPU 0 busy \(wrk \+ fake upstream\)\s+100%\s+100%\s+-\s+-$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^CPU 1 busy \(stack\)\s+90%\s+90%/));
  });

  it('lists the commands Redis ran most per request', () => {
    expect(topCommands(run(4000, 180), 2)).toBe('hincrby 12.0, hmget 7.00');
  });

  it('says how it measured, with the idle cost, notes and where the raw figures are', () => {
    const text = formatReport(input);
    expect(text).toContain(
      'idle stack, no load (ms of CPU per second): gateway runtime 1.00, store bridge 2.50',
    );
    expect(text).toContain('request log: 23,003 rows for 23,000 model requests sent');
    expect(text).toContain(
      '  machine, before → after the runs: syscall 1,100 → 2,650 ns; JS task 22.5 → 41.0 µs, 5 ms after the last 31.3 → 90.0 µs',
    );
    expect(text).toContain('How these figures are measured:');
    expect(text).toContain('- json 200/s: something to know');
    expect(text.trimEnd().endsWith('raw figures: /tmp/x/results.json')).toBe(true);
  });
});
