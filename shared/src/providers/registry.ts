/**
 * Every provider adapter, keyed by the provider type a route names: the one place the gateway
 * looks a provider up. Typed by the database's list of types, so a type without an adapter
 * does not compile.
 *
 * Each provider folder uses the same file names for the same jobs: adapter.ts (the
 * ProviderAdapter), api.ts (where and as whom to call), request.ts (the declarative parameter
 * map and body), request-messages.ts (the conversation), response.ts, stream.ts, errors.ts,
 * embeddings.ts and types.ts; a vendor's extra needs sit beside them (google/schema.ts,
 * bedrock/credentials.ts). What vendors share lives in common/.
 */
import type { ProviderAdapter } from '../canonical/ports';
import type { ProviderType } from '../db/schema/providers';
import { anthropicAdapter } from './anthropic/adapter';
import { azureOpenAiAdapter } from './azure-openai/adapter';
import { bedrockAdapter } from './bedrock/adapter';
import { customAdapter } from './custom/adapter';
import { googleAdapter } from './google/adapter';
import { openAiAdapter } from './openai/adapter';

export const providerAdapters: Readonly<Record<ProviderType, ProviderAdapter>> = {
  openai: openAiAdapter,
  azure_openai: azureOpenAiAdapter,
  custom: customAdapter,
  anthropic: anthropicAdapter,
  google: googleAdapter,
  bedrock: bedrockAdapter,
};
