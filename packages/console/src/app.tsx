// The console's shell: the session (read once from /console/session), the header with the tenant's name and
// navigation, and the page the hash route names. Every page fetches through @hookline/client (api.ts).
import { Button, Flex, Strong, Text } from '@radix-ui/themes';
import { useEffect, useRef, useState } from 'react';
import { api, type ConsoleSession, currentSession, signOut, unwrap } from './api.ts';
import { Page } from './components/page.tsx';
import { AuditLogPage } from './pages/audit-log.tsx';
import { DeliveriesPage } from './pages/deliveries.tsx';
import { DeliveryPage } from './pages/delivery.tsx';
import { EndpointPage } from './pages/endpoint.tsx';
import { EndpointsPage } from './pages/endpoints.tsx';
import { EventTypesPage } from './pages/event-types.tsx';
import { EventsPage } from './pages/events.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { PolicyPreviewPage } from './pages/policy-preview.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { TenantsPage } from './pages/tenants.tsx';
import { go, type Route, tenantHref, useRoute } from './router.ts';

export function App() {
  const route = useRoute();
  const [session, setSession] = useState<ConsoleSession | null | 'unknown'>('unknown');
  const main = useRef<HTMLElement>(null);

  useEffect(() => {
    if (session !== 'unknown') return;
    currentSession().then(setSession, () => setSession(null));
  }, [session]);
  // A new page: move focus to its content (keyboard and screen-reader users start there).
  const key = `${route.parts.join('/')}?${route.query}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the trigger (a new page), not a value the effect reads.
  useEffect(() => {
    main.current?.focus({ preventScroll: true });
  }, [key]);

  const signedIn = session !== 'unknown' && session !== null;
  const tenant = route.parts[0] === 't' && route.parts[1] ? route.parts[1] : null;
  const tenantName = useTenantName(signedIn ? tenant : null);
  return (
    <>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link: it keeps its #main href for no-script and moves focus itself. */}
      <a
        className="skip"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <Flex asChild wrap="wrap" gap="4" align="center" px="4" py="2" className="top">
        <header>
          <Strong className="brand">Hookline</Strong>
          {tenant && tenantName ? (
            <Text id="tenant-name" weight="medium" title={tenant}>
              {tenantName}
            </Text>
          ) : null}
          <nav id="nav" aria-label="Console">
            {signedIn && session.kind === 'admin' ? <a href="#/">Tenants</a> : null}
            {signedIn && session.kind === 'admin' && !tenant ? <a href="#/audit">Audit log</a> : null}
            {signedIn && tenant ? (
              <>
                <a href={tenantHref(tenant)}>Overview</a>
                <a href={tenantHref(tenant, 'events')}>Events</a>
                <a href={tenantHref(tenant, 'deliveries')}>Deliveries</a>
                <a href={tenantHref(tenant, 'endpoints')}>Endpoints</a>
                <a href={tenantHref(tenant, 'event-types')}>Event types</a>
                <a href={tenantHref(tenant, 'policy-preview')}>Policy preview</a>
                <a href={tenantHref(tenant, 'audit')}>Audit log</a>
              </>
            ) : null}
          </nav>
          <Text id="who" color="gray">
            {signedIn ? (
              <>
                {session.kind === 'admin'
                  ? 'admin '
                  : `tenant ${session.tenant_id === tenant && tenantName ? tenantName : session.tenant_id} `}
                <Button
                  type="button"
                  variant="soft"
                  size="1"
                  onClick={async () => {
                    await signOut();
                    setSession(null);
                    go('#/signin');
                  }}
                >
                  Sign out
                </Button>
              </>
            ) : null}
          </Text>
        </header>
      </Flex>
      <main id="main" tabIndex={-1} ref={main}>
        {session === 'unknown' && route.parts[0] !== 'signin' ? (
          <p aria-busy="true">Loading…</p>
        ) : (
          <Routed route={route} session={signedIn ? session : null} onSignIn={(s) => setSession(s)} />
        )}
      </main>
    </>
  );
}

function Routed({
  route,
  session,
  onSignIn,
}: {
  route: Route;
  session: ConsoleSession | null;
  onSignIn: (s: ConsoleSession) => void;
}) {
  const { parts, query } = route;
  if (parts[0] === 'signin' || !session) return <SignInPage onSignIn={onSignIn} />;
  if (parts.length === 0) {
    if (session.kind !== 'admin') return <Redirect to={tenantHref(session.tenant_id!)} />;
    return <TenantsPage />;
  }
  if (parts[0] === 'audit' && session.kind === 'admin') return <AuditLogPage tenant={null} query={query} />;
  if (parts[0] === 't' && parts[1]) {
    const tenant = parts[1];
    if (parts.length === 2) return <OverviewPage key={tenant} tenant={tenant} admin={session.kind === 'admin'} />;
    if (parts[2] === 'deliveries' && parts[3]) return <DeliveryPage key={parts[3]} tenant={tenant} id={parts[3]} />;
    if (parts[2] === 'deliveries') return <DeliveriesPage tenant={tenant} query={query} />;
    if (parts[2] === 'events') return <EventsPage tenant={tenant} query={query} />;
    if (parts[2] === 'endpoints' && parts[3]) return <EndpointPage key={parts[3]} tenant={tenant} id={parts[3]} />;
    if (parts[2] === 'endpoints') return <EndpointsPage tenant={tenant} />;
    if (parts[2] === 'event-types') return <EventTypesPage />;
    if (parts[2] === 'policy-preview') return <PolicyPreviewPage />;
    if (parts[2] === 'audit') return <AuditLogPage key={tenant} tenant={tenant} query={query} />;
  }
  return (
    <Page title="Not found">
      <p>No such page.</p>
    </Page>
  );
}

/** The tenant's name for the header (its id until it is known, or when it cannot be read). */
function useTenantName(tenant: string | null): string | null {
  const [name, setName] = useState<{ tenant: string; name: string } | null>(null);
  useEffect(() => {
    if (!tenant) return;
    let live = true;
    api
      .GET('/v1/tenants/{tenant}', { params: { path: { tenant } } })
      .then(unwrap)
      .then(
        (t) => live && setName({ tenant, name: t.name }),
        () => live && setName(null),
      );
    return () => {
      live = false;
    };
  }, [tenant]);
  return tenant && name?.tenant === tenant ? name.name : null;
}

/** A tenant session has no tenants list: its home is its tenant's overview. */
function Redirect({ to }: { to: string }) {
  useEffect(() => go(to), [to]);
  return null;
}
