/**
 * One JSON line per absorbed failure, in the shape the apps' error handlers use. Best-effort
 * work (the audit mirror, the settings version bump) reports here instead of failing a request.
 */
export type WarningLogger = (message: string, error: unknown) => void;

export function jsonWarning(target: string): WarningLogger {
  return (message, error) => {
    console.warn(
      JSON.stringify({
        level: 'WARN',
        target,
        message,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  };
}
