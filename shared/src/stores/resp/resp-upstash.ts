import { Redis, type Requester, type UpstashRequest, type UpstashResponse } from '@upstash/redis';
import { RespError, type RespReply } from './resp-codec';
import type { RespConnection } from './resp-connection';

/** A pipeline's answer, one entry per command: what the Upstash REST API sends. */
type Outcome = { result: unknown } | { error: string };

/**
 * The Upstash client over a RESP connection instead of HTTP: the very client the domain code
 * takes (its argument serialisation, its JSON reading of replies, its pipeline), so code written
 * against the REST API behaves the same on a direct connection to Redis. Each request is one
 * batch on the connection, bounded by `timeoutMs` (a batch that waits that long takes its socket
 * with it, so the next request, a retry included, goes on a new one). Transactions and subscriptions need a connection of their own and are
 * refused: nothing in Sluice uses them.
 */
export function createRespUpstash(connection: RespConnection, timeoutMs: number): Redis {
  const exec = (commands: string[][]) => connection.exec(commands, timeoutMs);
  const requester: Requester = {
    async request<TResult>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
      const path = req.path?.join('/');
      if (path === 'pipeline') {
        const replies = await exec((req.body as unknown[][]).map(commandOf));
        // The client reads a pipeline's answer as the array the REST API sends.
        return replies.map(outcomeOf) as unknown as UpstashResponse<TResult>;
      }
      if (path !== undefined && path !== '') {
        throw new Error(`Redis over RESP: /${path} is not supported (one shared connection)`);
      }
      const [reply = null] = await exec([commandOf(req.body)]);
      return outcomeOf(reply) as UpstashResponse<TResult>;
    },
  };
  return new Redis(requester);
}

/** The client serialises arguments to strings, numbers and booleans; Redis takes their text. */
function commandOf(body: unknown): string[] {
  if (!Array.isArray(body)) throw new Error('Redis over RESP: a command is an array');
  return body.map(String);
}

function outcomeOf(reply: RespReply): Outcome {
  return reply instanceof RespError ? { error: reply.message } : { result: reply };
}
