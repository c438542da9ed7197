import * as z from 'zod';

/** JSON Schema documents and tool arguments: any object, checked no further. */
export const jsonObject = z.record(z.string(), z.unknown());

/**
 * The function a client declares as a tool. Chat Completions nests it under `function` and
 * Responses flattens it into the tool, but the fields and their nullability are the same, so
 * a fix to one format's declaration cannot miss the other.
 */
export const functionDeclarationFields = {
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: jsonObject.nullish(),
  strict: z.boolean().nullish(),
};

/**
 * An object of a `type` outside `known`: the catch-all branch of an open union (content parts,
 * items, tools newer than the gateway). The check aborts, so a union reports a malformed known
 * object by the known branch's issue ("text is required"), not as an unknown type.
 */
export function otherTypeObject(known: ReadonlySet<string>) {
  return z.looseObject({
    type: z
      .string()
      .min(1)
      .refine((type) => !known.has(type), { abort: true }),
  });
}
