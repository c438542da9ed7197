import {
  ActionIcon,
  Box,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ModelValues } from './model-form';
import { emptyRoute } from './model-form';
import { RouteHealthBadge } from './RouteHealthBadge';
import type { RouteHealth } from './route-health';

interface Props {
  form: UseFormReturnType<ModelValues>;
  providers: Array<{ value: string; label: string }>;
  /** Health of the stored routes that failed lately, by route id (a stored route's key is its id). */
  health?: Map<string, RouteHealth>;
}

/** The ordered routes of a model: tried top to bottom; up/down reorders, weights split traffic. */
export function RoutesEditor({ form, providers, health }: Props) {
  const routes = form.values.routes;
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={500} size="sm">
          Routes (tried in order)
        </Text>
        <Button size="compact-sm" variant="light" onClick={() => form.insertListItem('routes', emptyRoute())}>
          Add route
        </Button>
      </Group>
      {routes.length === 0 && (
        <Text size="sm" c="dimmed">
          No routes: requests for this model get 404 until a route is added.
        </Text>
      )}
      {routes.map((route, index) => (
        <Card key={route.key} withBorder p="xs" data-testid={`route-${index}`}>
          <Group align="flex-end" gap="xs" wrap="wrap">
            <Text size="sm" fw={700} w={20}>
              {index + 1}.
            </Text>
            <Select
              label="Provider"
              w={180}
              data={providers}
              allowDeselect={false}
              {...form.getInputProps(`routes.${index}.provider_id`)}
            />
            <TextInput
              label="Upstream model"
              w={180}
              {...form.getInputProps(`routes.${index}.upstream_model`)}
            />
            <NumberInput
              label="RPM cap"
              w={90}
              allowDecimal={false}
              {...form.getInputProps(`routes.${index}.rpm_cap`)}
            />
            <NumberInput
              label="TPM cap"
              w={100}
              allowDecimal={false}
              {...form.getInputProps(`routes.${index}.tpm_cap`)}
            />
            <NumberInput
              label="Weight"
              w={80}
              allowDecimal={false}
              {...form.getInputProps(`routes.${index}.weight`)}
            />
            <Switch
              label="Active"
              mb={8}
              {...form.getInputProps(`routes.${index}.is_active`, { type: 'checkbox' })}
            />
            <Group gap={2} mb={4}>
              <ActionIcon
                variant="default"
                aria-label="Move route up"
                disabled={index === 0}
                onClick={() => form.reorderListItem('routes', { from: index, to: index - 1 })}
              >
                ↑
              </ActionIcon>
              <ActionIcon
                variant="default"
                aria-label="Move route down"
                disabled={index === routes.length - 1}
                onClick={() => form.reorderListItem('routes', { from: index, to: index + 1 })}
              >
                ↓
              </ActionIcon>
              <ActionIcon
                color="red"
                variant="light"
                aria-label="Remove route"
                onClick={() => form.removeListItem('routes', index)}
              >
                ×
              </ActionIcon>
            </Group>
            <Box mb={8}>
              <RouteHealthBadge health={health?.get(route.key)} />
            </Box>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
