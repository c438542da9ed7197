import { Alert, Anchor, Center, Loader } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { useAuth } from '../../auth/AuthProvider';
import { takeAfterSignIn } from '../../auth/after-sign-in';
import { HOME_PATH } from '../../pages';
import { AuthCard } from './AuthCard';

/**
 * Single sign-on comes back here: /api/auth/sso/authorize?return_to=/sso sends the browser
 * to the identity provider, whose callback redirects to /sso?sso_code=<one-time code>.
 */
export function SsoReturnPage() {
  const [params] = useSearchParams();
  const code = params.get('sso_code');
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const exchange = useMutation({
    mutationFn: (c: string) => unwrap(api.POST('/api/auth/sso/exchange', { body: { code: c } })),
    onSuccess: (tokens) => {
      signIn(tokens);
      navigate(takeAfterSignIn() ?? HOME_PATH, { replace: true });
    },
  });
  const { mutate } = exchange;
  useEffect(() => {
    if (code) mutate(code);
  }, [code, mutate]);
  return (
    <AuthCard title="Single sign-on">
      {exchange.isError || !code ? (
        <Alert color="red" title="Sign-in failed">
          {code ? errorMessage(exchange.error) : 'The identity provider did not return a sign-in code.'}{' '}
          <Anchor component={Link} to="/login">
            Back to sign in
          </Anchor>
        </Alert>
      ) : (
        <Center>
          <Loader />
        </Center>
      )}
    </AuthCard>
  );
}
