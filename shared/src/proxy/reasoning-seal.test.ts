import { describe, expect, it } from 'vitest';
import { isSealed, SEAL_PREFIX } from '../canonical/reasoning';
import type { ReasoningOpaque } from '../canonical/types';
import { AppError } from '../http/app-error';
import { createReasoningSeal } from './reasoning-seal';

const KEY = 'c'.repeat(64);
const thinking: ReasoningOpaque = {
  vendor: 'anthropic',
  data: { type: 'thinking', thinking: 'Read the file first.', signature: 'EqQBCkgIARAB' },
};

async function refusalOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(400);
  return (error as AppError).message;
}

describe('the reasoning seal', () => {
  it('opens what it sealed, exactly, on any gateway of the deployment', async () => {
    const sealed = await createReasoningSeal(KEY).seal(thinking);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed.startsWith(SEAL_PREFIX)).toBe(true);
    expect(await createReasoningSeal(KEY).open(sealed, 'input[3]')).toEqual(thinking);
  });

  it('shows the client nothing of the vendor form, and seals the same thing differently each time', async () => {
    const seal = createReasoningSeal(KEY);
    const [a, b] = [await seal.seal(thinking), await seal.seal(thinking)];
    expect(a).not.toBe(b);
    for (const secret of ['EqQBCkgIARAB', 'Read the file', 'anthropic']) expect(a).not.toContain(secret);
  });

  it("passes a vendor's own value as not its own", async () => {
    expect(await createReasoningSeal(KEY).open('EqQBCkgIARAB', 'x')).toBeNull();
    expect(await createReasoningSeal(KEY).open('gAAAAABzZnim2cKr', 'x')).toBeNull();
  });

  it('refuses an altered seal, one of another key and a truncated one, naming the field', async () => {
    const sealed = await createReasoningSeal(KEY).seal(thinking);
    const body = sealed.slice(SEAL_PREFIX.length);
    const flipped = `${SEAL_PREFIX}${body.slice(0, -2)}${body.at(-2) === 'A' ? 'B' : 'A'}${body.at(-1)}`;
    const otherKey = await createReasoningSeal('d'.repeat(64)).seal(thinking);
    for (const value of [flipped, otherKey, `${SEAL_PREFIX}abc`, `${SEAL_PREFIX}!!.??`]) {
      expect(await refusalOf(createReasoningSeal(KEY).open(value, 'messages[1].content[0]'))).toBe(
        "Invalid 'messages[1].content[0]': this reasoning was not issued by this gateway or was altered",
      );
    }
  });
});
