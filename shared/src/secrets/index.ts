// What the apps use of secrets/. Inside shared/src, import the files themselves.
export { sealedValueOpener } from './sealed-values';
export { createSecretBox, type SecretBox } from './secret-box';
