/** Stands in for `ajv-formats` in the worker bundle; see ./ajv.ts. */
export default function addFormats(): never {
  throw new Error('ajv-formats is not bundled into the gateway worker');
}
