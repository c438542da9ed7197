// What the apps use of models-admin/. Inside shared/src, import the files themselves.
export { replaceModelRoutes, updateModel } from './model-changes';
export { createModel, deleteModel, getModel, listModels, listUnpricedModels } from './models-admin';
export {
  createModelInputSchema,
  MAX_OUTPUT_TOKENS_LIMIT,
  replaceRoutesInputSchema,
  updateModelInputSchema,
} from './schemas';
