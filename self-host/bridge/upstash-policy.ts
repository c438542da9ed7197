/**
 * Commands the bridge refuses. Every REST request shares the backend's single connection, so a
 * command that changes connection state (SELECT, MULTI, WATCH, SUBSCRIBE, CLIENT REPLY...) would
 * leak into other requests, and a blocking one (BLPOP, XREAD BLOCK...) would stall them all.
 * Atomic work is a Lua script.
 */
const CONNECTION_STATE = new Set([
  'select',
  'multi',
  'exec',
  'discard',
  'watch',
  'unwatch',
  'subscribe',
  'psubscribe',
  'ssubscribe',
  'unsubscribe',
  'punsubscribe',
  'sunsubscribe',
  'monitor',
  'quit',
  'reset',
  'hello',
  'auth',
  'client',
  'sync',
  'psync',
  'replconf',
  'shutdown',
]);

const BLOCKING = new Set([
  'blpop',
  'brpop',
  'brpoplpush',
  'blmove',
  'blmpop',
  'bzpopmin',
  'bzpopmax',
  'bzmpop',
  'wait',
  'waitaof',
]);

/** The error text to answer with, or null when the command may run. */
export function refusal(command: readonly string[]): string | null {
  const name = (command[0] ?? '').toLowerCase();
  const blocksStream =
    (name === 'xread' || name === 'xreadgroup') && command.some((arg) => arg.toLowerCase() === 'block');
  if (CONNECTION_STATE.has(name)) {
    return `ERR '${name}' is not available through the store bridge (it would change the shared connection)`;
  }
  if (BLOCKING.has(name) || blocksStream) {
    return `ERR '${name}' is not available through the store bridge (blocking commands would stall it)`;
  }
  return null;
}
