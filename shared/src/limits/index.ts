// What the apps use of limits/. Inside shared/src, import the files themselves.
export { budgetWebhookOf, createBudgetAlerts } from './budget-alerts';
export { budgetThresholdsOf } from './budget-status';
export { createCounterAnchor } from './counter-anchor';
export { keepCounters } from './counter-rebuild';
export { EPOCH_KEY } from './counting-since';
export type { LimitSubject, SubjectLimits } from './definitions';
export { subjectLimits } from './definitions';
export { createFixedWindowCounter, type FixedWindowCounter } from './fixed-window';
export { createGate } from './gate';
export { createLimiter, type Limiter } from './limiter';
export { createRouteCaps } from './route-caps';
export { createSlidingWindowLimiter } from './sliding-window';
export { createTokenTally } from './token-tally';
export { createToolGate } from './tool-gate';
