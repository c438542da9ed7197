import type { WireFormatName } from '../../canonical/ports';
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

/**
 * What a route's vendor gets for a tool the client's vendor runs: the declaration itself when the
 * client spoke the vendor's own format (`ownFormat`), the vendor's web search (`webSearch`) for
 * the other family's, and otherwise a refusal naming the tool, since no other kind has a twin.
 */
export function hostedToolFor<T>(
  tool: HostedToolDefinition,
  providerType: string,
  ownFormat: WireFormatName,
  webSearch: () => T,
): HostedToolDefinition['declaration'] | T {
  if (tool.format === ownFormat) return tool.declaration;
  if (isWebSearchTool(tool)) return webSearch();
  throw refuseHostedTool(tool, providerType);
}
