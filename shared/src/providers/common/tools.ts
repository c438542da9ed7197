import type { ToolDefinition } from '../../canonical/types';
import { refuseHostedTool } from './untranslatable';

/** A tool as vendors without custom or hosted tools declare it: a function with a JSON schema. */
export interface FunctionView {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

/** A custom (freeform) tool takes its text as the one string `input` (canonical/types.ts). */
export const FREEFORM_PARAMETERS: Readonly<Record<string, unknown>> = {
  type: 'object',
  properties: { input: { type: 'string' } },
  required: ['input'],
};

/**
 * The function a vendor that knows only functions gets for a tool: custom tools become a
 * function of one string; a tool the client's vendor runs (web search, …) has no such form, and
 * the request is refused naming it.
 */
export function asFunction(tool: ToolDefinition, providerType: string): FunctionView {
  if (tool.kind === 'hosted') throw refuseHostedTool(tool, providerType);
  const parameters = tool.kind === 'custom' ? { ...FREEFORM_PARAMETERS } : tool.parameters;
  return tool.description === undefined
    ? { name: tool.name, parameters }
    : { name: tool.name, description: tool.description, parameters };
}
