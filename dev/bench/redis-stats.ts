/**
 * Redis's own count of the commands it ran (INFO commandstats), before and after a run. The
 * counts are server-wide: every database, every client, and the commands Lua scripts run
 * (redis.call) under their own names beside the EVALSHA that ran them. So the total is "work
 * Redis did per request", EVALSHA alone is "script calls", and other clients' commands count
 * too: CLIENT LIST shows who else was active during a run, so the report can say so.
 */
import { Redis } from 'ioredis';

/** Commands the bench itself sends to read these figures: not the stack's. */
const OWN_COMMANDS = new Set(['info', 'client|list', 'client|id', 'select', 'flushdb', 'ping']);

/** calls per command name (`get`, `evalsha`, `client|list`...) of an INFO commandstats text. */
export function parseCommandStats(info: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:\s]+):calls=(\d+)/gm))
    calls.set(match[1]!, Number(match[2]));
  return calls;
}

export interface CommandDelta {
  /** Every command Redis ran, those run inside scripts included. */
  total: number;
  /** Script calls (EVALSHA, plus EVAL when a script was not cached yet). */
  scripts: number;
  evalsha: number;
  byCommand: Record<string, number>;
}

export function commandDelta(before: Map<string, number>, after: Map<string, number>): CommandDelta {
  const byCommand: Record<string, number> = {};
  let total = 0;
  for (const [name, calls] of after) {
    if (OWN_COMMANDS.has(name)) continue;
    const delta = calls - (before.get(name) ?? 0);
    if (delta <= 0) continue;
    byCommand[name] = delta;
    total += delta;
  }
  const evalsha = byCommand.evalsha ?? 0;
  return { total, evalsha, scripts: evalsha + (byCommand.eval ?? 0), byCommand };
}

export interface RedisClientInfo {
  id: number;
  addr: string;
  db: number;
  /** Seconds since its last command. */
  idle: number;
  cmd: string;
}

export function parseClientList(text: string): RedisClientInfo[] {
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      const fields = new Map(
        line
          .trim()
          .split(' ')
          .map((pair) => {
            const eq = pair.indexOf('=');
            return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
          }),
      );
      return {
        id: Number(fields.get('id')),
        addr: fields.get('addr') ?? '',
        db: Number(fields.get('db')),
        idle: Number(fields.get('idle')),
        cmd: fields.get('cmd') ?? '',
      };
    });
}

/**
 * Clients of other databases that ran a command within the last `seconds` (idle counts whole
 * seconds, so only those surely active during the window): their commands are in the counts.
 */
export function othersActive(clients: RedisClientInfo[], ownDb: number, ownId: number, seconds: number) {
  return clients.filter((c) => c.id !== ownId && c.db !== ownDb && c.idle < Math.floor(seconds));
}

/** One connection of the bench's own to the stack's Redis. */
export class RedisProbe {
  private constructor(
    private readonly client: Redis,
    readonly db: number,
    readonly ownId: number,
  ) {}

  static async open(url: string): Promise<RedisProbe> {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    const id = Number(await client.client('ID'));
    return new RedisProbe(client, Number(new URL(url).pathname.slice(1) || 0), id);
  }

  async commandStats(): Promise<Map<string, number>> {
    return parseCommandStats(await this.client.info('commandstats'));
  }

  async clients(): Promise<RedisClientInfo[]> {
    return parseClientList(String(await this.client.client('LIST')));
  }

  /** Empties the bench's own database only. */
  async flushDb(): Promise<void> {
    await this.client.flushdb();
  }

  async version(): Promise<string> {
    return /redis_version:(\S+)/.exec(await this.client.info('server'))?.[1] ?? 'unknown';
  }

  close(): void {
    this.client.disconnect();
  }
}
