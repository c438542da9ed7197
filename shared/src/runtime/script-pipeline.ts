import { type Breaker, NO_BREAKER, unavailable } from '../stores/breaker';
import type { ScriptCall } from '../stores/lua-script';
import type { Background } from '../util/background';
import type { CallDeadline } from '../util/call-deadline';
import { withDeadline } from '../util/deadline';
import { type Coalescer, createCoalescer } from './coalescer';

export type { ScriptCall } from '../stores/lua-script';

export type ScriptOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/** One reply of a pipeline run with `keepErrors`, as the Upstash REST API gives it. */
export interface PipelineReply {
  result?: unknown;
  error?: string | null;
}

/**
 * What script round trips need of a Redis client: the Upstash client's pipeline, or the
 * gateway's own Redis link (stores/resp/link-redis.ts) that speaks RESP over one socket.
 */
export interface PipelinePort {
  pipeline(): {
    evalsha(sha1: string, keys: string[], args: string[]): unknown;
    eval(script: string, keys: string[], args: string[]): unknown;
    exec(options: { keepErrors: true }): Promise<PipelineReply[]>;
  };
}

async function execute(redis: PipelinePort, calls: readonly ScriptCall[], sha: boolean) {
  const pipeline = redis.pipeline();
  for (const call of calls) {
    const args = call.args.map(String);
    if (sha) pipeline.evalsha(call.script.sha1, [...call.keys], args);
    else pipeline.eval(call.script.source, [...call.keys], args);
  }
  return pipeline.exec({ keepErrors: true });
}

/**
 * Many script calls in one round trip (an Upstash `/pipeline`). Each call succeeds or fails on
 * its own; calls Redis answered NOSCRIPT (a restarted or flushed Redis) go again, once, as EVAL
 * in a second pipeline. Rejects only when the round trip itself fails.
 */
export async function runScriptPipeline(
  redis: PipelinePort,
  calls: readonly ScriptCall[],
): Promise<ScriptOutcome[]> {
  if (calls.length === 0) return [];
  const first = await execute(redis, calls, true);
  const outcomes: ScriptOutcome[] = first.map((reply) =>
    reply.error === undefined || reply.error === null
      ? { ok: true, value: reply.result }
      : { ok: false, error: String(reply.error) },
  );
  const missing = outcomes.flatMap((outcome, i) =>
    !outcome.ok && outcome.error.includes('NOSCRIPT') ? [i] : [],
  );
  if (missing.length === 0) return outcomes;
  const again = await execute(
    redis,
    missing.map((i) => calls[i] as ScriptCall),
    false,
  );
  missing.forEach((index, j) => {
    const reply = again[j];
    outcomes[index] =
      reply && (reply.error === undefined || reply.error === null)
        ? { ok: true, value: reply.result }
        : { ok: false, error: String(reply?.error ?? 'no reply') };
  });
  return outcomes;
}

/** Thrown for a script Redis ran and failed (as opposed to Redis being unreachable). */
export class ScriptError extends Error {}

export interface ScriptRunner {
  /**
   * Runs the script in the next shared round trip. Rejects with ScriptError when the script
   * failed, with another error when Redis could not be reached within the deadline, or at once
   * (StoreUnavailableError) while the breaker holds Redis for down.
   */
  run(call: ScriptCall, keepAlive?: Background, timer?: CallDeadline): Promise<unknown>;
}

/**
 * The one owner of an isolate's script round trips: concurrent calls share pipelines (see
 * coalescer.ts), every pipeline has a deadline, and a round trip that fails opens the breaker.
 */
export function createScriptRunner(
  redis: PipelinePort,
  options: { timeoutMs: number; maxInFlight?: number; maxBatch?: number; breaker?: Breaker },
): ScriptRunner {
  const breaker = options.breaker ?? NO_BREAKER;
  const batches: Coalescer<ScriptCall, ScriptOutcome> = createCoalescer({
    send: (calls) =>
      withDeadline(runScriptPipeline(redis, calls), options.timeoutMs, 'Redis').catch((error: unknown) => {
        breaker.failed(error);
        throw error;
      }),
    timeoutMs: options.timeoutMs,
    maxInFlight: options.maxInFlight,
    maxBatch: options.maxBatch,
  });
  return {
    async run(call, keepAlive, timer) {
      if (!breaker.allows(keepAlive)) throw unavailable('Redis');
      const outcome = await batches.submit(call, keepAlive, timer);
      if (!outcome.ok) throw new ScriptError(`${call.script.name}: ${outcome.error}`);
      return outcome.value;
    },
  };
}
