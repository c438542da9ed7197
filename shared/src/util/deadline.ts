/** Thrown when a store call did not answer within its deadline. */
export class DeadlineError extends Error {}

/**
 * Races a store call against a deadline, so a hung Redis or Postgres cannot hang a request.
 * The call itself is not cancelled (the drivers take no signal); its late answer is dropped.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
