import type { ProviderAdapter } from '../canonical/ports';
import { bedrockAdapter } from './bedrock/index';
import { googleAdapter } from './google/index';

/** The Gemini and Bedrock adapters keyed by provider type; the integrator merges registries. */
export const googleBedrockProviders: Readonly<Record<'google' | 'bedrock', ProviderAdapter>> = {
  google: googleAdapter,
  bedrock: bedrockAdapter,
};
