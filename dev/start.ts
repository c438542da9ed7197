// `npm start`: the whole stack on this machine. Ctrl-C stops everything.
import { stackOptionsFromEnv, startStack } from './stack';

const stack = await startStack(stackOptionsFromEnv(process.env)).catch((error: unknown) => {
  console.error(`sluice: failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
console.log(stack.banner);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`sluice: ${signal} received, stopping`);
  await stack.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
