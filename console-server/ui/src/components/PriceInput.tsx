import { NumberInput, type NumberInputProps } from '@mantine/core';

/** A price in USD per 1M tokens, to six decimals; empty is "not set". */
export function PriceInput(props: NumberInputProps) {
  return <NumberInput decimalScale={6} {...props} />;
}
