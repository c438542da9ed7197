import type { TranscodedPipeline } from './pipeline-transcode';
import type { RedisBackend, RedisReply } from './redis-backend';
import { type CommandOutcome, outcomeOf } from './upstash-encoding';
import { refusal } from './upstash-policy';

/** An HTTP status and the JSON body to send with it. */
export type Answer = [status: number, body: unknown];

/** One command: 200 `{result}`, or 400 `{error}` with Redis's text when Redis (or the bridge) said no. */
export async function runSingle(backend: RedisBackend, command: string[], base64: boolean): Promise<Answer> {
  const refused = refusal(command);
  if (refused) return [400, { error: refused }];
  let reply: RedisReply;
  try {
    [reply = null] = await backend.pipeline([command]);
  } catch (error) {
    return unreachable(error);
  }
  const outcome = outcomeOf(reply, base64);
  return ['error' in outcome ? 400 : 200, outcome];
}

/**
 * The commands go to Redis together, in order, in one write; one failing spoils no other. A
 * command the bridge refuses gets its error in its slot and is not sent.
 */
export async function runPipeline(
  backend: RedisBackend,
  commands: string[][],
  base64: boolean,
): Promise<Answer> {
  const refusals = commands.map(refusal);
  const allowed = refusals.every((refused) => refused === null)
    ? commands
    : commands.filter((_, i) => refusals[i] === null);
  let replies: RedisReply[];
  try {
    replies = allowed.length > 0 ? await backend.pipeline(allowed) : [];
  } catch (error) {
    return unreachable(error);
  }
  let next = 0;
  const outcomes: CommandOutcome[] = refusals.map((refused) =>
    refused === null ? outcomeOf(replies[next++] ?? null, base64) : { error: refused },
  );
  return [200, outcomes];
}

/** runPipeline for a body the bridge transcoded (pipeline-transcode.ts): the same answer. */
export async function runEncodedPipeline(
  pipelineEncoded: (payload: Buffer, count: number) => Promise<RedisReply[]>,
  pipeline: TranscodedPipeline,
  base64: boolean,
): Promise<Answer> {
  let replies: RedisReply[];
  try {
    replies = await pipelineEncoded(pipeline.resp, pipeline.count);
  } catch (error) {
    return unreachable(error);
  }
  const outcomes: CommandOutcome[] = [];
  for (let i = 0; i < pipeline.count; i++) outcomes.push(outcomeOf(replies[i] ?? null, base64));
  return [200, outcomes];
}

/** 502 when Redis could not be reached at all (its refusals are replies, not failures). */
function unreachable(error: unknown): Answer {
  return [
    502,
    {
      error: `ERR store bridge could not reach Redis: ${error instanceof Error ? error.message : String(error)}`,
    },
  ];
}
