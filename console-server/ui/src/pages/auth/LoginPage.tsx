import { Button, Divider, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import { useDocumentTitle, useSiteName } from '../../api/site';
import { useAuth } from '../../auth/AuthProvider';
import { rememberAfterSignIn } from '../../auth/after-sign-in';
import { HOME_PATH } from '../../pages';
import { AuthCard } from './AuthCard';

export function LoginPage() {
  const { session, signIn } = useAuth();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from ?? HOME_PATH;
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm({ mode: 'uncontrolled', initialValues: { email: '', password: '' } });
  const login = useMutation({
    mutationFn: (body: { email: string; password: string }) => unwrap(api.POST('/api/auth/login', { body })),
    onSuccess: (tokens) => {
      signIn(tokens);
      navigate(from, { replace: true });
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  // Offered only when the console says OIDC is enabled and complete; the provider comes back to /sso.
  const sso = useQuery({
    queryKey: ['sso-status'],
    queryFn: () => unwrap(api.GET('/api/auth/sso/status')),
    staleTime: 60_000,
  });
  const siteName = useSiteName();
  useDocumentTitle('Sign in');
  if (session) return <Navigate to={from} replace />;
  return (
    <AuthCard title={siteName} subtitle="Sign in to the management console">
      <form
        onSubmit={form.onSubmit((values) => {
          setAlert(null);
          login.mutate(values);
        })}
      >
        <Stack>
          <FormAlert message={alert} />
          <TextInput
            label="Email"
            autoComplete="username"
            {...form.getInputProps('email')}
            key={form.key('email')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            {...form.getInputProps('password')}
            key={form.key('password')}
          />
          <Button type="submit" loading={login.isPending}>
            Sign in
          </Button>
          {sso.data?.enabled && (
            <>
              <Divider label="or" labelPosition="center" />
              <Button
                component="a"
                variant="default"
                href="/api/auth/sso/authorize?return_to=/sso"
                onClick={() => rememberAfterSignIn(from)}
              >
                Sign in with single sign-on
              </Button>
            </>
          )}
        </Stack>
      </form>
    </AuthCard>
  );
}
