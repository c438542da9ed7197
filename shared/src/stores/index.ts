// What the apps use of stores/. Inside shared/src, import the files themselves.
export { type Breaker, createBreaker, StoreUnavailableError } from './breaker';
export { ensureClickHouseDatabase, pingClickHouse } from './clickhouse';
export { configureNeon, createHttpDb } from './neon';
export { probeLatency, readiness } from './probe';
export { parseRedisUrl, type RedisEndpoint } from './redis-url';
export { createLinkRedis, type HotRedis, toPipelineReplies } from './resp/link-redis';
export { preambleFor, REDIS_CLIENT_NAMES, requiredReplies } from './resp/preamble';
export { encodeCommandText, RespError, RespReader, type RespReply } from './resp/resp-codec';
export { createRespConnection, type RespConnection, type RespSocket } from './resp/resp-connection';
export { createRespUpstash } from './resp/resp-upstash';
export { createRawUpstash, createUpstash } from './upstash';
