import { isSealed } from '../../canonical/reasoning';
import type { ReasoningVendor } from '../../canonical/types';
import { isRecord } from '../../util/json';
import { mapSealed, type OpenSeal, restoredBlock } from '../common/sealed-reasoning';

/**
 * A Responses body passed through to a vendor: reasoning items whose encrypted_content is one
 * of the gateway's seals become the vendor's own item again when it issued them, and are left
 * out otherwise (OpenAI refuses encrypted content it did not make).
 */
export async function restoreResponsesReasoning(
  body: Record<string, unknown>,
  vendor: ReasoningVendor | undefined,
  open: OpenSeal,
): Promise<Record<string, unknown>> {
  if (!Array.isArray(body.input)) return body;
  const input = await mapSealed(body.input as unknown[], (item, i) => {
    if (!isRecord(item) || item.type !== 'reasoning' || !isSealed(item.encrypted_content)) return undefined;
    return restoredBlock(item.encrypted_content, `input[${i}].encrypted_content`, vendor, open);
  });
  return input === null ? body : { ...body, input };
}
