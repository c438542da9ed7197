import type { ByteChannel } from '@sluice/shared/proxy';

/**
 * workerd's own byte stream, when the runtime has one: streamed answers built in JavaScript go
 * to the client through it (see handOver). Node, where the integration tests run this app, has
 * none; the answer is then the stream as built. Decided once, when the deps are built.
 */
export function runtimeByteChannel(): (() => ByteChannel) | undefined {
  const Native = (globalThis as { IdentityTransformStream?: new () => ByteChannel }).IdentityTransformStream;
  return Native ? () => new Native() : undefined;
}
