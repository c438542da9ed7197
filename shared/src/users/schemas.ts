import * as z from 'zod';
import { displayNameSchema, emailSchema, passwordSchema } from '../auth/sign-in/schemas';
import { USER_ROLES } from '../db/schema/users';

export const userRoleSchema = z.enum(USER_ROLES);

export const createUserInputSchema = z.object({
  email: emailSchema,
  display_name: displayNameSchema,
  password: passwordSchema,
  role: userRoleSchema.default('user'),
});
export type CreateUserInput = z.infer<typeof createUserInputSchema>;

/** Strict: a misspelt or read-only field (email) is a 422, not a silent no-op. */
export const updateUserInputSchema = z
  .strictObject({
    display_name: displayNameSchema.optional(),
    role: userRoleSchema.optional(),
    is_active: z.boolean().optional(),
    password: passwordSchema.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'at least one field is required');
export type UpdateUserInput = z.infer<typeof updateUserInputSchema>;
