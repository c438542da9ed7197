/**
 * Adapters for the OpenAI family and Anthropic, keyed by provider type string. The
 * integrator merges this with the other provider registries.
 */
import type { ProviderAdapter } from '../canonical/ports';
import { anthropicAdapter } from './anthropic/adapter';
import { azureOpenAiAdapter } from './azure-openai/adapter';
import { customAdapter } from './custom/adapter';
import { openAiAdapter } from './openai/adapter';

export const openAiAnthropicAdapters: Readonly<Record<string, ProviderAdapter>> = {
  [openAiAdapter.type]: openAiAdapter,
  [azureOpenAiAdapter.type]: azureOpenAiAdapter,
  [customAdapter.type]: customAdapter,
  [anthropicAdapter.type]: anthropicAdapter,
};
