// What the apps use of mcp/upstream/. Inside shared/src, import the files themselves.
export { createUpstreamListCache } from './list-cache';
export { createSdkConnector } from './sdk-connector';
export { generationAwareConnector } from './stateless-upstream';
