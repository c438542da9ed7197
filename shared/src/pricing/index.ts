// What the apps use of pricing/. Inside shared/src, import the files themselves.
export { deletePrice, listPrices, putPrice } from './admin';
export { priceInputSchema } from './schemas';
