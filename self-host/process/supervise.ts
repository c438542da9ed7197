import { type Child, describeExit } from './children';

/** How long a child's exit waits for a group signal to arrive before it counts as a crash. */
const CHILD_EXIT_GRACE_MS = 300;

/** A started stack as its entry point sees it. */
export interface SupervisedStack {
  banner: string;
  /** Stops everything (children first, then the bridge and the stores); safe to call twice. */
  stop(): Promise<void>;
  /** Resolves with a description when a child ends that nobody stopped. */
  failure: Promise<string>;
}

/** Resolves with `"<name> exited (<how>)"` once the first of the children exits. */
export function firstExit(children: Child[]): Promise<string> {
  return new Promise((resolve) => {
    for (const child of children) {
      void child.exited.then((exit) => resolve(`${child.name} exited (${describeExit(exit)})`));
    }
  });
}

/**
 * Waits for `ready`, failing at once when a child exits first (a crash during start-up is
 * reported as such instead of as a readiness timeout).
 */
export function readyUnlessExited(ready: Promise<unknown>, failure: Promise<string>): Promise<void> {
  return new Promise((resolve, reject) => {
    ready.then(() => resolve(), reject);
    void failure.then((reason) => reject(new Error(`${reason} during start-up`)));
  });
}

/**
 * The entry points' main loop: start, print the banner, then stop everything and exit on
 * SIGINT/SIGTERM (status 0) or when a child dies on its own (status 1, so a service manager
 * restarts the whole unit rather than running half of it).
 */
export async function runUntilStopped(start: () => Promise<SupervisedStack>): Promise<void> {
  let stack: SupervisedStack | null = null;
  let stopping = false;
  // A signal during start-up is kept and acted on once the stack is up (start-up cleans up
  // after itself when it fails), so no child is left behind either way.
  let signalledEarly: string | null = null;
  const shutdown = async (reason: string, status: number): Promise<void> => {
    if (stopping || !stack) return;
    stopping = true;
    console.log(`sluice: ${reason}, stopping`);
    await stack.stop();
    process.exit(status);
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stack) void shutdown(`${signal} received`, 0);
    else signalledEarly ??= signal;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  stack = await start().catch((error: unknown) => {
    console.error(`sluice: failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
  if (signalledEarly) return shutdown(`${signalledEarly} received during start-up`, 0);
  void stack.failure.then(async (reason) => {
    // A signal to the whole process group (Ctrl-C, `kill -- -PGID`) reaches the children too,
    // and one may be seen exiting before our own signal is handled: let that signal win.
    await new Promise((resolve) => setTimeout(resolve, CHILD_EXIT_GRACE_MS));
    if (stopping) return;
    console.error(`sluice: ${reason} unexpectedly`);
    return shutdown(reason, 1);
  });
  console.log(stack.banner);
}
