// What the apps use of guardrails/. Inside shared/src, import the files themselves.
export { redactPolicyOf } from './redact-policy';
export { toolPolicyOf } from './tool-policy';
export { tryGuardrails } from './try-rules';
