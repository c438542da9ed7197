import type { components } from '../../api/schema.gen';

export type ProviderType = components['schemas']['Provider']['provider_type'];

export interface ProviderTypeInfo {
  label: string;
  baseUrl: string;
  keyHelp: string;
  help: string;
  /** Which config options (providerConfigSchema) the type reads. */
  config: Array<'region' | 'api_version' | 'deployment' | 'max_tokens_field' | 'api'>;
}

/** Help for the six provider types, from what each adapter in shared/src/providers reads. */
export const PROVIDER_TYPES: Record<ProviderType, ProviderTypeInfo> = {
  openai: {
    label: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    keyHelp: 'An OpenAI API key (sk-...).',
    help: 'Chat Completions and Responses APIs. The base URL ends in /v1. Requests of other formats go through the Responses API unless set otherwise.',
    config: ['max_tokens_field', 'api'],
  },
  anthropic: {
    label: 'Anthropic',
    baseUrl: 'https://api.anthropic.com',
    keyHelp: 'An Anthropic API key (sk-ant-...).',
    help: 'Messages API; OpenAI-format requests are translated.',
    config: [],
  },
  google: {
    label: 'Google Gemini',
    baseUrl: 'https://generativelanguage.googleapis.com',
    keyHelp: 'A Gemini API key (AIza...).',
    help: 'Gemini generateContent API; requests are translated both ways.',
    config: [],
  },
  azure_openai: {
    label: 'Azure OpenAI',
    baseUrl: 'https://<resource>.openai.azure.com',
    keyHelp: 'The Azure OpenAI resource key.',
    help: 'Routes address a deployment: set one deployment here, or the upstream model name is used as the deployment. API version defaults when empty.',
    config: ['api_version', 'deployment', 'max_tokens_field', 'api'],
  },
  bedrock: {
    label: 'AWS Bedrock',
    baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
    keyHelp: 'ACCESS_KEY_ID:SECRET_ACCESS_KEY (optionally :SESSION_TOKEN).',
    help: 'Converse API, signed with SigV4. A region is required.',
    config: ['region'],
  },
  custom: {
    label: 'Custom (OpenAI-compatible)',
    baseUrl: 'http://localhost:8000/v1',
    keyHelp: 'Whatever bearer token the server expects.',
    help: 'Any server speaking the OpenAI Chat Completions API (vLLM, Ollama, LiteLLM...).',
    config: ['max_tokens_field', 'api'],
  },
};

export const PROVIDER_TYPE_OPTIONS = (Object.keys(PROVIDER_TYPES) as ProviderType[]).map((value) => ({
  value,
  label: PROVIDER_TYPES[value].label,
}));
