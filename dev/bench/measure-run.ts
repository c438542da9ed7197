/**
 * One measured load run: every counter read before, wrk, a short settle (the requests'
 * write-behind work — log batches, token counters, metrics — finishes after their answers and
 * belongs to them), every counter read after. Figures are per request of the run.
 */
import { type BridgeAccess, type BridgeCounts, bridgePerRequest, readBridgeCounts } from './bridge-counts';
import { readLinkSegments } from './link-segments';
import { type CpuTimes, cpuBusyBetween, readCpuTimes, ticksPerSecond } from './proc';
import { type CommandDelta, commandDelta, othersActive, type RedisProbe } from './redis-stats';
import {
  cpuSecondsBetween,
  describeProcesses,
  type PerRole,
  perRole,
  ROLES,
  rssMbByRole,
  type StackSnapshot,
} from './stack-processes';
import { runWrk, type WrkLoad, type WrkResult } from './wrk';

export interface Probes {
  readStack(): StackSnapshot;
  redis: RedisProbe;
  bridge: BridgeAccess;
  /** Redis's port: the gateway's sockets to it are the Redis link's (link-segments.ts). */
  redisPort: number;
  settleMs: number;
}

export interface RunFigures {
  wrk: WrkResult;
  /** The window counters were read over: the load plus the settle. */
  windowSeconds: number;
  cpuUsPerRequest: PerRole<number> & { total: number };
  /**
   * CPU time over the load's wall time (wrk's run, without the settle: an idle second in the
   * window would cap a 5-second run at 0.83): 1.0 is one core kept busy.
   */
  cores: PerRole<number>;
  /** Each CPU's busy share over the load, whatever ran on it (/proc/stat). */
  cpuBusy: Record<string, number>;
  rssMb: PerRole<number>;
  /** `pid comm` of every stack process seen at the end, by role (who "other" is). */
  processes: PerRole<string[]>;
  redis: CommandDelta & { perRequest: number; evalshaPerRequest: number };
  /** Clients of other Redis databases active during the window: their commands are counted too. */
  redisOthers: string[];
  bridge: BridgeCounts;
  /** Round trips per request on the gateway's own Redis link (npm run serve's default). */
  linkRoundTrips: number;
}

interface Reading {
  at: number;
  cpus: Map<string, CpuTimes>;
  stack: StackSnapshot;
  commands: Map<string, number>;
  bridge: BridgeCounts;
  linkSegments: number;
}

async function read(probes: Probes): Promise<Reading> {
  const [commands, bridge] = await Promise.all([
    probes.redis.commandStats(),
    readBridgeCounts(probes.bridge),
  ]);
  const stack = probes.readStack();
  const gateway = new Set([...stack.values()].filter((p) => p.role === 'gateway').map((p) => p.pid));
  const linkSegments = readLinkSegments(gateway, probes.redisPort);
  return { at: performance.now(), cpus: readCpuTimes(), stack, commands, bridge, linkSegments };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** CPU each role spends with no load at all (timers, pools, keep-alives), in ms per second. */
export async function idleCpu(probes: Probes, ms: number): Promise<PerRole<number>> {
  const before = probes.readStack();
  const startedAt = performance.now();
  await sleep(ms);
  const after = probes.readStack();
  const seconds = (performance.now() - startedAt) / 1000;
  const cpu = cpuSecondsBetween(before, after, ticksPerSecond());
  const perSecond = perRole(() => 0);
  for (const role of ROLES) perSecond[role] = (cpu[role] * 1000) / seconds;
  return perSecond;
}

/** A moment the busy shares are read at (before the load, and at its end). */
export interface LoadMark {
  at: number;
  cpus: Map<string, CpuTimes>;
  stack: StackSnapshot;
}

/** The stack's and the CPUs' counters now, as a mark to read busy shares from. */
export function markLoad(readStack: () => StackSnapshot): LoadMark {
  return { at: performance.now(), cpus: readCpuTimes(), stack: readStack() };
}

/** How busy the stack and each CPU were between two marks (the load only, not the settle). */
export function busyOverLoad(
  start: LoadMark,
  end: LoadMark,
  ticksPerSecond: number,
): { cores: PerRole<number>; cpuBusy: Record<string, number> } {
  const seconds = (end.at - start.at) / 1000;
  const cpu = cpuSecondsBetween(start.stack, end.stack, ticksPerSecond);
  const cores = perRole(() => 0);
  for (const role of ROLES) cores[role] = seconds > 0 ? cpu[role] / seconds : 0;
  return { cores, cpuBusy: cpuBusyBetween(start.cpus, end.cpus) };
}

export async function measuredRun(load: WrkLoad, probes: Probes): Promise<RunFigures> {
  const before = await read(probes);
  const wrk = await runWrk(load);
  const loadEnd = markLoad(probes.readStack);
  await sleep(probes.settleMs);
  const after = await read(probes);
  const windowSeconds = (after.at - before.at) / 1000;
  const clients = await probes.redis.clients();
  return figures(wrk, before, loadEnd, after, windowSeconds, {
    others: othersActive(clients, probes.redis.db, probes.redis.ownId, windowSeconds).map(
      (c) => `${c.addr} (db ${c.db}, last ${c.cmd})`,
    ),
  });
}

function figures(
  wrk: WrkResult,
  before: Reading,
  loadEnd: LoadMark,
  after: Reading,
  windowSeconds: number,
  redis: { others: string[] },
): RunFigures {
  const n = wrk.requests;
  const cpu = cpuSecondsBetween(before.stack, after.stack, ticksPerSecond());
  const cpuUsPerRequest = { ...perRole(() => 0), total: 0 };
  for (const role of ROLES) {
    cpuUsPerRequest[role] = n > 0 ? (cpu[role] * 1e6) / n : 0;
    cpuUsPerRequest.total += cpuUsPerRequest[role];
  }
  const commands = commandDelta(before.commands, after.commands);
  return {
    wrk,
    windowSeconds,
    cpuUsPerRequest,
    ...busyOverLoad(before, loadEnd, ticksPerSecond()),
    rssMb: rssMbByRole(after.stack),
    processes: describeProcesses(new Map([...before.stack, ...after.stack])),
    redis: {
      ...commands,
      perRequest: n > 0 ? commands.total / n : 0,
      evalshaPerRequest: n > 0 ? commands.evalsha / n : 0,
    },
    redisOthers: redis.others,
    bridge: bridgePerRequest(before.bridge, after.bridge, n),
    linkRoundTrips: n > 0 ? Math.max(0, after.linkSegments - before.linkSegments) / n : 0,
  };
}
