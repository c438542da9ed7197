import { AppError } from '@sluice/shared/http';
import type { CallDeadline } from '@sluice/shared/util';
import type { Context } from 'hono';
import type { GatewayEnv } from '../types';

/**
 * The request's JSON body, given at most SLUICE_BODY_TIMEOUT_MS to arrive: a client trickling
 * its body gets a 408 and its connection back to the runtime, rather than holding it for ever.
 * Timed on the request's own call timer (util/call-deadline.ts), armed no further out than the
 * store wait that follows, so the body costs no timer of its own. A body that is not JSON is
 * `notJson`'s to refuse, in the surface's own envelope.
 */
export async function readJsonWithin(
  c: Context<GatewayEnv>,
  timer: CallDeadline,
  notJson: () => Error,
): Promise<unknown> {
  const { bodyTimeoutMs, storeTimeoutMs } = c.get('deps');
  const late = new Promise<never>((_, reject) => {
    timer.set(
      bodyTimeoutMs,
      () => reject(new AppError(408, `The request body did not arrive within ${bodyTimeoutMs} ms`)),
      Math.min(bodyTimeoutMs, storeTimeoutMs),
    );
  });
  try {
    return await Promise.race([c.req.json(), late]);
  } catch (error) {
    if (error instanceof AppError && error.status === 408) throw error;
    throw notJson();
  } finally {
    timer.pause();
  }
}
