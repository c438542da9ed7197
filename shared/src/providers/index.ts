// What the apps use of providers/. Inside shared/src, import the files themselves.
export { providerAdapters } from './registry';
