import type { PipelinePort, PipelineReply } from '../../runtime/script-pipeline';
import type { VersionsPort } from '../../runtime/version-board';
import { RespError, type RespReply } from './resp-codec';

/**
 * The hot path's Redis client, whatever carries it: the pipeline of script calls, the MGET of
 * cache versions and the breaker's PING. The Upstash client is one (over HTTP); a Redis link
 * (one RESP socket kept by the isolate) is the other.
 */
export type HotRedis = PipelinePort & VersionsPort & { ping(): Promise<unknown> };

/** Commands in, one reply each (Upstash's pipeline shape: `result`, or `error` for a refusal). */
export type LinkExec = (commands: string[][]) => Promise<PipelineReply[]>;

/** RESP replies in the Upstash pipeline's shape (what crosses a Durable Object's RPC). */
export function toPipelineReplies(replies: readonly RespReply[]): PipelineReply[] {
  return replies.map((reply) => (reply instanceof RespError ? { error: reply.message } : { result: reply }));
}

/** A HotRedis over a Redis link: each call is one batch of commands on the link's socket. */
export function createLinkRedis(exec: LinkExec): HotRedis {
  const single = async (command: string[]): Promise<unknown> => {
    const [reply] = await exec([command]);
    if (reply?.error !== undefined && reply.error !== null) throw new Error(reply.error);
    return reply?.result;
  };
  return {
    pipeline() {
      const commands: string[][] = [];
      return {
        evalsha(sha1, keys, args) {
          commands.push(['EVALSHA', sha1, String(keys.length), ...keys, ...args]);
        },
        eval(script, keys, args) {
          commands.push(['EVAL', script, String(keys.length), ...keys, ...args]);
        },
        exec: () => exec(commands),
      };
    },
    async mget(...keys) {
      return (await single(['MGET', ...keys])) as Array<string | null>;
    },
    ping: () => single(['PING']),
  };
}
