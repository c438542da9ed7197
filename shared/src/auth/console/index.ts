// What the apps use of auth/console/. Inside shared/src, import the files themselves.
export { type AccessClaims, createJwtSigner, type JwtSigner } from './jwt';
