// What the apps use of config/. Inside shared/src, import the files themselves.
export { parseEnv, parseStoreEnv, type StoreEnv, storeEnvSchema } from './env';
