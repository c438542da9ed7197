import type { WireFormatName } from '@sluice/shared/canonical';
import { AppError, describeJsonInputProblem, findJsonInputProblem } from '@sluice/shared/http';
import type { ModelEndpoint } from '@sluice/shared/proxy';
import { handleCountTokens, handleEmbeddings, handleModelRequest } from '@sluice/shared/proxy';
import { type CallDeadline, createCallDeadline } from '@sluice/shared/util';
import { type Context, Hono } from 'hono';
import { backgroundFor } from '../background';
import { principalOf } from '../middleware/authenticate';
import type { GatewayEnv } from '../types';
import { readJsonWithin } from './read-body';

/**
 * The response cache is skipped when the client says so: `Cache-Control: no-cache` or
 * `no-store` (what HTTP clients already send), or `x-sluice-cache: bypass`.
 */
function clientOptsOutOfCache(c: Context<GatewayEnv>): boolean {
  const control = c.req.header('cache-control') ?? '';
  return /\bno-(cache|store)\b/i.test(control) || c.req.header('x-sluice-cache')?.toLowerCase() === 'bypass';
}

async function readJsonBody(c: Context<GatewayEnv>, timer: CallDeadline): Promise<unknown> {
  const body = await readJsonWithin(c, timer, () => new AppError(400, 'Request body must be valid JSON'));
  const problem = findJsonInputProblem(body);
  if (problem) throw new AppError(400, `Invalid request: ${describeJsonInputProblem(problem)}`);
  return body;
}

type ModelHandler = typeof handleModelRequest;

function modelEndpoint(
  endpoint: ModelEndpoint,
  format: WireFormatName,
  handle: ModelHandler = handleModelRequest,
) {
  return async (c: Context<GatewayEnv>) => {
    const timer = createCallDeadline();
    return handle(
      {
        endpoint,
        format,
        body: await readJsonBody(c, timer),
        principal: c.get('principal'),
        signal: c.req.raw.signal,
        span: c.get('span'),
        headers: c.req.raw.headers,
        useCache: () => !clientOptsOutOfCache(c),
        waitUntil: backgroundFor(c),
        timer,
        bodyEnds: (ended) => c.set('bodyEnds', ended),
        // After the gate dropped the isolate's stale caches: the key record is loaded afresh.
        reauthenticate: () => principalOf(c, { allowJwt: true, checkedByAdmission: true }),
      },
      c.get('deps').proxy,
    );
  };
}

/** Their admission round trip checks the isolate's cache versions (limits/admission-script.ts). */
export const MODEL_PATHS: ReadonlySet<string> = new Set([
  '/v1/chat/completions',
  '/v1/messages',
  '/v1/responses',
  '/v1/messages/count_tokens',
  '/v1/embeddings',
]);

/**
 * The three chat endpoints (one handler, three wire formats), Anthropic's token counter, and
 * embeddings (OpenAI's API surface, so its error envelope).
 */
export const proxyRoutes = new Hono<GatewayEnv>()
  .post('/chat/completions', modelEndpoint('/v1/chat/completions', 'openai-chat'))
  .post('/messages', modelEndpoint('/v1/messages', 'anthropic-messages'))
  .post(
    '/messages/count_tokens',
    modelEndpoint('/v1/messages/count_tokens', 'anthropic-messages', handleCountTokens),
  )
  .post('/responses', modelEndpoint('/v1/responses', 'openai-responses'))
  .post('/embeddings', modelEndpoint('/v1/embeddings', 'openai-chat', handleEmbeddings));
