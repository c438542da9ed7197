/**
 * Everything the bench starts registers how to stop it here; the registry runs on normal exit,
 * on failure and on SIGINT/SIGTERM, newest first, so nothing is left running after a Ctrl-C.
 */
type Task = () => Promise<void> | void;

const tasks: Task[] = [];
let running: Promise<void> | null = null;
let signalStatus: number | null = null;

/** The exit status a signal asked for (130 for SIGINT, 143 for SIGTERM), or null. */
export function signalled(): number | null {
  return signalStatus;
}

/** Registers a stop task; the returned function removes it again (once the thing stopped on its own). */
export function onCleanup(task: Task): () => void {
  tasks.push(task);
  return () => {
    const index = tasks.indexOf(task);
    if (index >= 0) tasks.splice(index, 1);
  };
}

/** Runs every task once, newest first; a failing task does not stop the others. */
export function cleanupAll(): Promise<void> {
  running ??= (async () => {
    while (tasks.length > 0) {
      const task = tasks.pop()!;
      try {
        await task();
      } catch (error) {
        console.error(`bench: cleanup: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return running;
}

/** On SIGINT/SIGTERM: stop everything, then exit 130/143 as a shell would report the signal. */
export function stopOnSignals(): void {
  for (const [signal, status] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      signalStatus = status;
      console.error(`\nbench: ${signal}, stopping what it started`);
      void cleanupAll().then(() => process.exit(status));
    });
  }
}
