/** Fixtures and checks the provider tests share (imported by *.test.ts only). */
import { expect } from 'vitest';
import type { EmbeddingRequest, VendorAnswer } from '../../../src/canonical/embeddings';
import type { CanonicalRequest } from '../../../src/canonical/types';
import { AppError } from '../../../src/http/app-error';

/** One user turn saying "Hello" and nothing else set; a test overrides what it is about. */
export function canonicalRequest(overrides: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    model: 'client-model',
    system: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    stream: false,
    ...overrides,
  };
}

/** A user turn holding a Messages API block no other format has (a document), as a vendor part. */
export function withMessagesBlock(block: Record<string, unknown>): CanonicalRequest {
  return canonicalRequest({
    messages: [
      {
        role: 'user',
        content: [{ type: 'vendor', format: 'anthropic-messages', field: 'messages[0].content[0]', block }],
      },
    ],
  });
}

/** Stands in for the random ids adapters make up: `prefix1`, `prefix2`, … */
export function sequentialIds(): (prefix: string) => string {
  let n = 0;
  return (prefix) => `${prefix}${++n}`;
}

export function textEmbeddingRequest(texts: string[], dimensions?: number): EmbeddingRequest {
  return {
    model: 'embed',
    input: { kind: 'text', texts },
    encodingFormat: 'float',
    ...(dimensions !== undefined && { dimensions }),
  };
}

export function tokenEmbeddingRequest(tokens: number[][]): EmbeddingRequest {
  return { model: 'embed', input: { kind: 'tokens', tokens }, encodingFormat: 'float' };
}

/** Answers as the embeddings endpoint hands them to an adapter, without headers. */
export function vendorAnswers(...bodies: unknown[]): VendorAnswer[] {
  return bodies.map((body) => ({ body, headers: new Headers() }));
}

/** What `run` threw, or undefined. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** `run` refuses a vendor's embeddings answer the gateway's way: a 502 naming the vendor. */
export function expectMalformedEmbeddings(run: () => unknown, vendor: string): void {
  const error = thrown(run);
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({
    status: 502,
    type: 'upstream_error',
    message: expect.stringMatching(new RegExp(`^Upstream ${vendor} answered embeddings without `)),
  });
}
