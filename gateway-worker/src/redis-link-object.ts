import { connect } from 'cloudflare:sockets';
import { DurableObject, type DurableObjectContext } from 'cloudflare:workers';
import { parseStoreEnv } from '@sluice/shared/config';
import type { PipelineReply } from '@sluice/shared/runtime';
import {
  createRespConnection,
  parseRedisUrl,
  preambleFor,
  REDIS_CLIENT_NAMES,
  type RespConnection,
  toPipelineReplies,
} from '@sluice/shared/stores';
import type { GatewayBindings } from './types';

/**
 * The hot path's Redis round trips over one RESP socket instead of HTTP through the store
 * bridge (the self-host mode's choice; see docs/architecture.md). A Worker's socket belongs to
 * the request that opened it, so no isolate could pool one across requests; a Durable Object
 * lives in one I/O context for all its requests, so its socket outlives them. The isolate's
 * coalesced pipelines reach it by RPC in the same process, and it writes each as one batch.
 */
export class RedisLink extends DurableObject<GatewayBindings> {
  private readonly connection: RespConnection;

  constructor(ctx: DurableObjectContext, env: GatewayBindings) {
    super(ctx, env);
    const endpoint = parseRedisUrl(String(env.SLUICE_REDIS_LINK_URL));
    this.connection = createRespConnection({
      open: () => {
        const socket = connect(
          { hostname: endpoint.host, port: endpoint.port },
          { secureTransport: endpoint.tls ? 'on' : 'off' },
        );
        return { readable: socket.readable, writable: socket.writable, close: () => socket.close() };
      },
      preamble: preambleFor(endpoint, REDIS_CLIENT_NAMES.gatewayLink),
      stuckAfterMs: parseStoreEnv(env).SLUICE_STORE_TIMEOUT_MS,
    });
  }

  async exec(commands: string[][]): Promise<PipelineReply[]> {
    return toPipelineReplies(await this.connection.exec(commands));
  }
}
