import type { UserRole } from '../../db/schema/users';

/** Who is calling the gateway: an API key (with its owner) or a signed-in user via JWT. */
export type Principal =
  | {
      kind: 'api_key';
      keyId: string;
      userId: string;
      role: UserRole;
      allowedModels: string[] | null;
      rateLimitRpm: number | null;
      expiresAt: Date | null;
      /** When the value replaced by the last rotation stops being accepted. */
      gracePeriodEndsAt: Date | null;
    }
  | { kind: 'user'; userId: string; role: UserRole };

export function mayUseModel(principal: Principal, model: string): boolean {
  if (principal.kind !== 'api_key' || principal.allowedModels === null) return true;
  return principal.allowedModels.includes(model);
}
