// What the apps use of http/. Inside shared/src, import the files themselves.
export {
  AppError,
  badRequest,
  ERROR_TYPES,
  type ErrorStatus,
  forbidden,
  notFound,
  tooManyRequests,
  unauthorized,
  unprocessable,
} from './app-error';
export { bodyTooLarge, checkBodySize } from './body-limit';
export { DEFAULT_DISCARD_BOUNDS, discardRest, discardUnreadBody } from './discard-body';
export { describeJsonInputProblem, findJsonInputProblem } from './json-input';
