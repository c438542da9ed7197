import type { HostedToolDefinition, VendorPart } from '../../canonical/types';
import { AppError } from '../../http/app-error';

/**
 * The 400 for a construct of the client's format that a route of another vendor cannot take:
 * it names the construct, where it was, and the route's provider type, so the client can act.
 */
export function untranslatable(field: string, what: string, providerType: string): AppError {
  const article = /^[aeiou]/.test(providerType) ? 'an' : 'a';
  const message = `Invalid '${field}': ${what} has no equivalent on ${article} ${providerType}-type route`;
  return new AppError(400, message, { type: 'invalid_request_error' });
}

export function refuseVendorPart(part: VendorPart, providerType: string): AppError {
  return untranslatable(part.field, `type ${String(part.block.type)}`, providerType);
}

export function refuseHostedTool(tool: HostedToolDefinition, providerType: string): AppError {
  return untranslatable(tool.field, `tool type ${tool.type}`, providerType);
}

/**
 * Web search is the vendor-run tool both families have: Anthropic's versioned
 * `web_search_YYYYMMDD` server tool and OpenAI's Responses `web_search` (`web_search_preview`).
 */
export function isWebSearchTool(tool: HostedToolDefinition): boolean {
  if (tool.format === 'anthropic-messages') return tool.type.startsWith('web_search_');
  return tool.type === 'web_search' || tool.type.startsWith('web_search_preview');
}
