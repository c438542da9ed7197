import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useSetupStatus } from './api/site';
import { useAuth } from './auth/AuthProvider';
import { isAdmin } from './auth/session';
import { QueryError } from './components/QueryError';
import { AppLayout } from './layout/AppLayout';
import { HOME_PATH, PAGES } from './pages';
import { LoginPage } from './pages/auth/LoginPage';
import { SetupWizard } from './pages/auth/SetupWizard';
import { SsoReturnPage } from './pages/auth/SsoReturnPage';
import { OAuthConsentPage } from './pages/oauth/OAuthConsentPage';

function RequireSession({ children }: { children: ReactNode }) {
  const { session } = useAuth();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return children;
}

function AdminOnly({ children }: { children: ReactNode }) {
  const { session } = useAuth();
  return isAdmin(session?.user) ? children : <Navigate to={HOME_PATH} replace />;
}

/** First run sends everyone to the setup wizard; afterwards /setup is gone. */
export function App() {
  const status = useSetupStatus();
  const { pathname } = useLocation();
  if (status.isPending) {
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  }
  if (status.error) return <QueryError error={status.error} />;
  const needsSetup = status.data.needs_setup;
  if (needsSetup && pathname !== '/setup') return <Navigate to="/setup" replace />;
  return (
    <Routes>
      <Route path="/setup" element={needsSetup ? <SetupWizard /> : <Navigate to="/login" replace />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/sso" element={<SsoReturnPage />} />
      <Route
        path="/oauth/consent"
        element={
          <RequireSession>
            <OAuthConsentPage />
          </RequireSession>
        }
      />
      <Route
        element={
          <RequireSession>
            <AppLayout />
          </RequireSession>
        }
      >
        <Route index element={<Navigate to={HOME_PATH} replace />} />
        {PAGES.map((p) => (
          <Route
            key={p.path}
            path={p.path}
            element={p.admin ? <AdminOnly>{p.element}</AdminOnly> : p.element}
          />
        ))}
        <Route path="*" element={<Navigate to={HOME_PATH} replace />} />
      </Route>
    </Routes>
  );
}
