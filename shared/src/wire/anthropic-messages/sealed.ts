import { isSealed } from '../../canonical/reasoning';
import type { ReasoningVendor } from '../../canonical/types';
import { isRecord } from '../../util/json';
import { mapSealed, type OpenSeal, restoredBlock } from '../common/sealed-reasoning';

type Block = Record<string, unknown>;

/** The block's seal and the field holding it, when the block is thinking the gateway sealed. */
function sealOf(block: unknown): { value: string; field: 'signature' | 'data' } | undefined {
  if (!isRecord(block)) return undefined;
  const field =
    block.type === 'thinking' ? 'signature' : block.type === 'redacted_thinking' ? 'data' : undefined;
  if (field === undefined) return undefined;
  const value = block[field];
  return isSealed(value) ? { value, field } : undefined;
}

/**
 * A Messages body passed through to a vendor: thinking blocks whose signature is one of the
 * gateway's seals (reasoning another vendor produced, carried by this client) become the
 * vendor's own block again when it issued them, and are left out otherwise.
 */
export async function restoreMessagesReasoning(
  body: Record<string, unknown>,
  vendor: ReasoningVendor | undefined,
  open: OpenSeal,
): Promise<Record<string, unknown>> {
  if (!Array.isArray(body.messages)) return body;
  const messages = await mapSealed(body.messages as unknown[], (message, i) => {
    if (!isRecord(message) || !Array.isArray(message.content)) return undefined;
    const content = message.content as unknown[];
    if (!content.some((block) => sealOf(block) !== undefined)) return undefined;
    return mapSealed(content, (block, j) => {
      const sealed = sealOf(block);
      if (sealed === undefined) return undefined;
      return restoredBlock(sealed.value, `messages[${i}].content[${j}].${sealed.field}`, vendor, open);
    }).then((blocks) => ({ ...(message as Block), content: blocks ?? content }));
  });
  return messages === null ? body : { ...body, messages };
}
