// The part of redis-parser 3.x (ioredis's RESP2 parser) the bridge's Redis connection uses.
declare module 'redis-parser' {
  interface RedisParserOptions {
    returnReply(reply: unknown): void;
    returnError(error: Error): void;
    returnFatalError?(error: Error): void;
    /** Bulk and simple strings as Buffers (slices of the received chunk) instead of JS strings. */
    returnBuffers?: boolean;
    stringNumbers?: boolean;
  }
  export default class RedisParser {
    constructor(options: RedisParserOptions);
    execute(chunk: Buffer): void;
    reset(): void;
  }
}
