/**
 * OpenAI Embeddings (`POST /v1/embeddings`) as OpenAI, custom OpenAI-compatible servers and
 * Azure OpenAI speak it: a `list` of `embedding` objects by `index`, floats or (with
 * `encoding_format: "base64"`) little-endian float32 base64, and `usage.prompt_tokens`.
 */
import { asArray, fakeId, isRecord, type JsonObject } from './behaviour';
import { type FakeContext, runScenario, sendAnswer, sendError } from './context';
import {
  FAKE_EMBEDDING_DIMENSIONS,
  fakeEmbeddingTokens,
  fakeTokenVector,
  fakeVector,
  float32Base64,
} from './embeddings';
import { azureError, type ChatFlavor, openAiError } from './openai-chat';

type FakeInput = { kind: 'text'; text: string } | { kind: 'tokens'; tokens: number[] };

const isTokenArray = (value: unknown): value is number[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((token) => typeof token === 'number' && Number.isInteger(token) && token >= 0);

/** `input` in any of its four forms: a string, strings, one token array, token arrays. */
function inputsOf(value: unknown): FakeInput[] | undefined {
  if (typeof value === 'string') return value === '' ? undefined : [{ kind: 'text', text: value }];
  if (isTokenArray(value)) return [{ kind: 'tokens', tokens: value }];
  const items = asArray(value);
  if (items.length === 0) return undefined;
  const inputs: FakeInput[] = [];
  for (const item of items) {
    if (typeof item === 'string' && item !== '') inputs.push({ kind: 'text', text: item });
    else if (isTokenArray(item)) inputs.push({ kind: 'tokens', tokens: item });
    else return undefined;
  }
  return inputs;
}

const INVALID_INPUT =
  "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";

/** The checks OpenAI makes that an adapter could plausibly trip over. */
function validate(body: JsonObject, needsModel: boolean): string | undefined {
  if (needsModel && typeof body.model !== 'string') return 'you must provide a model parameter';
  if (body.input === undefined) return "'input' is a required property";
  if (inputsOf(body.input) === undefined) return INVALID_INPUT;
  const format = body.encoding_format;
  if (format !== undefined && format !== 'float' && format !== 'base64') {
    return `Invalid value for 'encoding_format': '${String(format)}'. Supported values are: 'float' and 'base64'.`;
  }
  const dimensions = body.dimensions;
  if (
    dimensions !== undefined &&
    !(
      Number.isInteger(dimensions) &&
      Number(dimensions) >= 1 &&
      Number(dimensions) <= FAKE_EMBEDDING_DIMENSIONS
    )
  ) {
    return `Invalid value for 'dimensions' = ${String(dimensions)}. Must be between 1 and ${FAKE_EMBEDDING_DIMENSIONS}.`;
  }
  return undefined;
}

const vectorOf = (input: FakeInput, dimensions: number): number[] =>
  input.kind === 'text' ? fakeVector(input.text, dimensions) : fakeTokenVector(input.tokens, dimensions);

/** The text the fake counts tokens of: a token array counts one per token. */
const countedText = (input: FakeInput): string =>
  input.kind === 'text' ? input.text : input.tokens.join(' ');

export function embeddingsList(body: JsonObject, model: string): JsonObject {
  const inputs = inputsOf(body.input) ?? [];
  const dimensions = typeof body.dimensions === 'number' ? body.dimensions : FAKE_EMBEDDING_DIMENSIONS;
  const base64 = body.encoding_format === 'base64';
  const data = inputs.map((input, index) => {
    const vector = vectorOf(input, dimensions);
    return { object: 'embedding', index, embedding: base64 ? float32Base64(vector) : vector };
  });
  const tokens = fakeEmbeddingTokens(inputs.map(countedText));
  return { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

/** One embeddings call, after routing and authentication (Azure: `model` is the deployment). */
export async function answerEmbeddings(ctx: FakeContext, flavor: ChatFlavor, model: string): Promise<void> {
  const renderError = flavor === 'azure' ? azureError : openAiError;
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  const invalid = body
    ? validate(body, flavor === 'openai')
    : 'We could not parse the JSON body of your request.';
  if (!body || invalid !== undefined) return sendError(ctx, renderError(400, 'invalid', invalid ?? ''));
  const scenario = await runScenario(ctx, model, renderError);
  if (!scenario) return;
  await sendAnswer(ctx, embeddingsList(body, model), scenario, { 'x-request-id': fakeId('req_') });
}
