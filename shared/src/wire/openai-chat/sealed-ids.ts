import { SEAL_PREFIX } from '../../canonical/reasoning';

/**
 * Chat clients send an assistant turn back as they were given it only in part: opencode keeps
 * `reasoning_content` (text, which cannot restore a signed block) and drops `reasoning_details`.
 * Every client sends a tool call's id back exactly (in the turn and in the tool result), and a
 * tool loop is exactly where a vendor such as Anthropic needs its thinking block again; so the
 * seal of the reasoning that led to a turn's tool calls also rides on the id of its first call,
 * after a `.` (which ids the gateway hands out never contain otherwise).
 */
const MARK = `.${SEAL_PREFIX}`;

export function sealedCallId(id: string, sealed: string | undefined): string {
  return sealed ? `${id}.${sealed}` : id;
}

/** The id as the vendor knows it, and the seal it carried (if any). */
export function splitCallId(id: string): { id: string; sealed?: string } {
  const at = id.indexOf(MARK);
  return at < 0 ? { id } : { id: id.slice(0, at), sealed: id.slice(at + 1) };
}
