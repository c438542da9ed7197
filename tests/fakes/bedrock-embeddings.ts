/**
 * Bedrock InvokeModel (`/model/{modelId}/invoke`) for the embedding models: Titan Text
 * (`{inputText, dimensions?, normalize?}` → `{embedding, inputTextTokenCount}`) and Cohere
 * Embed (`{texts ≤ 96, input_type, embedding_types?, output_dimension?}` → `{id, embeddings,
 * texts, response_type}`). Every answer counts input tokens in
 * `X-Amzn-Bedrock-Input-Token-Count`, as InvokeModel does. Other model ids are refused.
 */
import { randomUUID } from 'node:crypto';
import { bedrockError } from './bedrock';
import { asArray, isRecord, type JsonObject } from './behaviour';
import { type FakeContext, runScenario, sendAnswer, sendError } from './context';
import { FAKE_EMBEDDING_DIMENSIONS, fakeEmbeddingTokens, fakeVector } from './embeddings';

interface Family {
  /** Every key the model's body may have; anything else is refused, as Bedrock's schema does. */
  keys: readonly string[];
  validate(body: JsonObject): string | undefined;
  /** The answer body and the texts it counted tokens of. */
  answer(body: JsonObject): { body: JsonObject; texts: string[] };
}

const malformed = (detail: string): string =>
  `Malformed input request: ${detail}, please reformat your input and try again.`;

function sizeProblem(value: unknown, key: string): string | undefined {
  if (value === undefined) return undefined;
  const ok = Number.isInteger(value) && Number(value) >= 1 && Number(value) <= FAKE_EMBEDDING_DIMENSIONS;
  return ok ? undefined : malformed(`#/${key}: ${String(value)} is not a valid enum value`);
}

const sizeOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

const TITAN: Family = {
  keys: ['inputText', 'dimensions', 'normalize', 'embeddingTypes'],
  validate(body) {
    if (body.inputText === undefined) return malformed('#: required key [inputText] not found');
    if (typeof body.inputText !== 'string') return malformed('#/inputText: expected type: String');
    if (body.inputText === '') return malformed('#/inputText: expected minLength: 1, actual: 0');
    return sizeProblem(body.dimensions, 'dimensions');
  },
  answer(body) {
    const text = String(body.inputText);
    const embedding = fakeVector(text, sizeOf(body.dimensions));
    return { body: { embedding, inputTextTokenCount: fakeEmbeddingTokens([text]) }, texts: [text] };
  },
};

const COHERE: Family = {
  keys: ['texts', 'images', 'input_type', 'truncate', 'embedding_types', 'output_dimension', 'max_tokens'],
  validate(body) {
    if (body.texts === undefined) return malformed('#: required key [texts] not found');
    const texts = asArray(body.texts);
    if (!Array.isArray(body.texts) || texts.some((text) => typeof text !== 'string' || text === '')) {
      return malformed('#/texts: expected type: JSONArray of non-empty strings');
    }
    if (texts.length === 0 || texts.length > 96) {
      return malformed(`#/texts: expected 1 to 96 items, found: ${texts.length}`);
    }
    if (body.input_type === undefined) return malformed('#: required key [input_type] not found');
    return sizeProblem(body.output_dimension, 'output_dimension');
  },
  answer(body) {
    const texts = asArray(body.texts).map(String);
    const floats = texts.map((text) => fakeVector(text, sizeOf(body.output_dimension)));
    const byType = asArray(body.embedding_types).length > 0;
    const answer = {
      id: randomUUID(),
      embeddings: byType ? { float: floats } : floats,
      texts,
      response_type: byType ? 'embeddings_by_type' : 'embeddings_floats',
    };
    return { body: answer, texts };
  },
};

function familyOf(model: string): Family | undefined {
  if (model.includes('cohere.embed')) return COHERE;
  if (model.includes('amazon.titan-embed')) return TITAN;
  return undefined;
}

function problemOf(family: Family, body: JsonObject): string | undefined {
  const extra = Object.keys(body).find((key) => !family.keys.includes(key));
  return extra === undefined
    ? family.validate(body)
    : malformed(`#: extraneous key [${extra}] is not permitted`);
}

/** One InvokeModel call, after SigV4. Scenarios come first, so any model name can fail on cue. */
export async function answerInvoke(ctx: FakeContext, model: string): Promise<void> {
  const body = isRecord(ctx.body) ? ctx.body : undefined;
  if (!body) return sendError(ctx, bedrockError(400, 'invalid', malformed('body is not a JSON object')));
  const scenario = await runScenario(ctx, model, bedrockError);
  if (!scenario) return;
  const family = familyOf(model);
  if (!family)
    return sendError(ctx, bedrockError(400, 'invalid', 'The provided model identifier is invalid.'));
  const invalid = problemOf(family, body);
  if (invalid !== undefined) return sendError(ctx, bedrockError(400, 'invalid', invalid));
  const answer = family.answer(body);
  await sendAnswer(ctx, answer.body, scenario, {
    'x-amzn-requestid': randomUUID(),
    'x-amzn-bedrock-invocation-latency': '42',
    'x-amzn-bedrock-input-token-count': String(fakeEmbeddingTokens(answer.texts)),
  });
}
