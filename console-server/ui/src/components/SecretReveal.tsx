import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A secret the API shows only once: the value, a copy button and a clear warning. */
export function SecretReveal({ secret, children }: { secret: string; children?: ReactNode }) {
  return (
    <Stack>
      <Alert color="yellow" title="Copy this key now">
        This is the only time the full key is shown. Store it somewhere safe: it cannot be retrieved later.
      </Alert>
      <Group wrap="nowrap" align="center">
        <Code data-testid="secret-value" style={{ wordBreak: 'break-all', flex: 1, fontSize: 14 }} p="sm">
          {secret}
        </Code>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button color={copied ? 'teal' : undefined} onClick={copy} w={100}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {children && (
        <Text size="sm" component="div">
          {children}
        </Text>
      )}
    </Stack>
  );
}
