// What the apps use of routing/. Inside shared/src, import the files themselves.

export { benchPolicyOf } from './route-health';
export { ROUTE_STATE_VALUES, readRouteHealth } from './route-health-report';
export { createRouteHealth } from './route-health-tracker';
export { createRouteLatency } from './route-order';
