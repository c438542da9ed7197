/**
 * Routing and authentication for the OpenAI family: api.openai.com (and custom
 * OpenAI-compatible servers, identical here) under `/v1`, Azure OpenAI under
 * `/openai/deployments/{deployment}/{chat/completions|embeddings}?api-version=…` with an
 * `api-key` header.
 */
import { asRecord } from './behaviour';
import { type FakeContext, sendJson } from './context';
import { answerChat, azureError, openAiError } from './openai-chat';
import { answerEmbeddings } from './openai-embeddings';
import { answerResponses } from './openai-responses';

function maskKey(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}`;
}

/** OpenAI's own answers for a missing or wrong bearer token (401 either way). */
function bearerFailure(ctx: FakeContext): string | undefined {
  const header = ctx.headers.authorization;
  if (header === undefined || !/^Bearer\s+\S/.test(header)) {
    return "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
  }
  const key = header.replace(/^Bearer\s+/, '');
  if (key === ctx.apiKey) return undefined;
  return `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`;
}

/** `openai` and `custom`: POST `/<vendor>/v1/` `chat/completions`, `responses`, `embeddings`. */
export async function handleOpenAiCompatible(ctx: FakeContext): Promise<void> {
  const route = /^\/[a-z]+\/v1\/(chat\/completions|responses|embeddings)$/.exec(ctx.rawPath)?.[1];
  if (route === undefined || ctx.req.method !== 'POST') {
    const message = `Invalid URL (${ctx.req.method} ${ctx.rawPath})`;
    return sendJson(ctx, 404, { error: { message, type: 'invalid_request_error', param: null, code: null } });
  }
  const authFailure = bearerFailure(ctx);
  if (authFailure !== undefined) {
    // Without an Authorization header at all, OpenAI names no code.
    const detail = ctx.headers.authorization === undefined ? { code: null } : {};
    const error = openAiError(401, 'auth', authFailure, detail);
    return sendJson(ctx, error.status, error.body, error.headers);
  }
  if (route === 'responses') return answerResponses(ctx);
  const model = asRecord(ctx.body)?.model;
  const modelName = typeof model === 'string' ? model : '';
  if (route === 'embeddings') return answerEmbeddings(ctx, 'openai', modelName);
  return answerChat(ctx, 'openai', modelName);
}

/** `azure`: the deployment in the path is the model; `api-version` is mandatory. */
export async function handleAzure(ctx: FakeContext): Promise<void> {
  const route = /^\/azure\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/.exec(ctx.rawPath);
  const deployment = route?.[1];
  if (deployment === undefined || ctx.req.method !== 'POST' || !ctx.query.get('api-version')) {
    return sendJson(ctx, 404, { error: { code: '404', message: 'Resource not found' } });
  }
  if (ctx.headers['api-key'] !== ctx.apiKey) {
    const message =
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';
    const error = azureError(401, 'auth', message);
    return sendJson(ctx, error.status, error.body, error.headers);
  }
  if (route?.[2] === 'embeddings') return answerEmbeddings(ctx, 'azure', decodeURIComponent(deployment));
  return answerChat(ctx, 'azure', decodeURIComponent(deployment));
}
