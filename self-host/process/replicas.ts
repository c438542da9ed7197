import { type Child, describeExit } from './children';

/** Delays before a crashed replica is started again. */
export interface Backoff {
  /** After the first crash. */
  initialMs: number;
  /** The delay doubles with each crash in a row, up to this. */
  maxMs: number;
  /** A replica that ran this long before it crashed starts over from initialMs. */
  stableMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000, stableMs: 30_000 };

/**
 * How long an exit waits before it counts as a crash: a signal to the whole process group
 * (Ctrl-C, `kill -- -PGID`, systemd) may reach a replica before the supervisor's own handler
 * has called stopping(), and must not read as a crash to restart.
 */
export const EXIT_GRACE_MS = 300;

export interface ReplicaOptions {
  count: number;
  /** Starts replica `index` (0-based); called again for each replacement. */
  spawn(index: number): Child;
  /** Restart messages (operators want them even when the children's own lines are hidden). */
  log(line: string): void;
  backoff?: Backoff;
}

export interface Replicas {
  /** Resolves with `"<name> exited (<how>)"` if a replica exits before running() is called. */
  failure: Promise<string>;
  /** Start-up is over: from now on a replica that exits is restarted instead of reported. */
  running(): void;
  /** The stack is stopping: a replica that exits from now on stays down. */
  stopping(): void;
  /** The live replicas' process ids. */
  pids(): number[];
  /** Stops every replica (and any pending restart); resolves once all have exited. */
  stop(): Promise<void>;
}

interface Slot {
  index: number;
  child: Child | null;
  /** Crashes in a row, for the backoff. */
  crashes: number;
  timer?: NodeJS.Timeout;
}

type Phase = 'starting' | 'running' | 'stopping';

/**
 * N copies of one process, kept at N: one that exits on its own is logged and started again
 * after a backoff, the others serving meanwhile. During start-up an exit is reported instead,
 * so a process that cannot start at all fails the start rather than looping.
 */
export function startReplicas(options: ReplicaOptions): Replicas {
  const state = { phase: 'starting' as Phase, backoff: options.backoff ?? DEFAULT_BACKOFF };
  let reportFailure: (reason: string) => void = () => {};
  const failure = new Promise<string>((resolve) => {
    reportFailure = resolve;
  });
  const launch = (slot: Slot): Child => {
    const child = options.spawn(slot.index);
    const startedAt = Date.now();
    slot.child = child;
    void child.exited.then((exit) => {
      if (slot.child === child) slot.child = null;
      if (state.phase === 'starting') return reportFailure(`${child.name} exited (${describeExit(exit)})`);
      restartLater(
        slot,
        `${child.name} (pid ${child.process.pid}) exited (${describeExit(exit)})`,
        Date.now() - startedAt,
      );
    });
    return child;
  };
  const restartLater = (slot: Slot, what: string, ranMs: number): void => {
    slot.timer = setTimeout(() => {
      if (state.phase === 'stopping') return;
      slot.crashes = ranMs >= state.backoff.stableMs ? 1 : slot.crashes + 1;
      const delay = Math.min(state.backoff.maxMs, state.backoff.initialMs * 2 ** (slot.crashes - 1));
      options.log(`${what} unexpectedly; restarting it in ${seconds(delay)}`);
      slot.timer = setTimeout(() => {
        if (state.phase === 'stopping') return;
        const replacement = launch(slot);
        options.log(`${replacement.name} restarted (pid ${replacement.process.pid})`);
      }, delay);
    }, EXIT_GRACE_MS);
  };
  const slots = Array.from(
    { length: options.count },
    (_, index): Slot => ({ index, child: null, crashes: 0 }),
  );
  for (const slot of slots) launch(slot);
  return replicaControls(slots, state, failure);
}

function replicaControls(slots: Slot[], state: { phase: Phase }, failure: Promise<string>): Replicas {
  const stopping = () => {
    state.phase = 'stopping';
    for (const slot of slots) clearTimeout(slot.timer);
  };
  return {
    failure,
    running: () => {
      if (state.phase === 'starting') state.phase = 'running';
    },
    stopping,
    pids: () => slots.flatMap((slot) => (slot.child?.process.pid ? [slot.child.process.pid] : [])),
    async stop() {
      stopping();
      await Promise.all(slots.map((slot) => slot.child?.stop()));
    },
  };
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
