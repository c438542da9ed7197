import { AppShell, Burger, Button, Group, NavLink, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet, NavLink as RouterLink, useLocation } from 'react-router';
import { useDocumentTitle, useSiteName } from '../api/site';
import { useAuth, useUser } from '../auth/AuthProvider';
import { isAdmin } from '../auth/session';
import { NAV_GROUPS, PAGES } from '../pages';

/** Header, role-aware navigation and the current page. */
export function AppLayout() {
  const [opened, { toggle }] = useDisclosure();
  const user = useUser();
  const { signOut } = useAuth();
  const { pathname } = useLocation();
  const visible = PAGES.filter((p) => !p.hidden && (!p.admin || isAdmin(user)));
  const siteName = useSiteName();
  useDocumentTitle(PAGES.find((p) => pathname === `/${p.path}`)?.label);
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Title order={4} data-testid="site-name">
              {siteName}
            </Title>
          </Group>
          <Group gap="sm">
            <Stack gap={0} align="flex-end" visibleFrom="xs">
              <Text size="sm" data-testid="user-email">
                {user.email}
              </Text>
              <Text size="xs" c="dimmed">
                {user.role}
              </Text>
            </Stack>
            <Button variant="default" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <ScrollArea>
          {NAV_GROUPS.map((group) => {
            const pages = visible.filter((p) => p.group === group);
            if (pages.length === 0) return null;
            return (
              <Stack key={group} gap={0} mb="sm">
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={4}>
                  {group}
                </Text>
                {pages.map((p) => (
                  <NavLink
                    key={p.path}
                    component={RouterLink}
                    to={`/${p.path}`}
                    end
                    label={p.label}
                    active={pathname === `/${p.path}`}
                  />
                ))}
              </Stack>
            );
          })}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
