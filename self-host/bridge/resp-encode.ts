import type { RedisCommand } from './redis-reply';

/**
 * Commands in RESP2's request form (`*<n>\r\n$<len>\r\n<arg>\r\n...`), all in one string so a
 * whole pipeline goes out in one write. Lengths count UTF-8 bytes, as Redis reads them.
 */
export function encodeCommands(commands: readonly RedisCommand[]): string {
  let out = '';
  for (const command of commands) {
    out += `*${command.length}\r\n`;
    for (const arg of command) out += `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`;
  }
  return out;
}
