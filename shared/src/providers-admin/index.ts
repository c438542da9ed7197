// What the apps use of providers-admin/. Inside shared/src, import the files themselves.
export {
  createProvider,
  deleteProvider,
  getProvider,
  listProviders,
  updateProvider,
} from './providers-admin';
export { createProviderInputSchema, updateProviderInputSchema } from './schemas';
