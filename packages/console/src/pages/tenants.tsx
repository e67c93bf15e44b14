// Every tenant (admin), the queue's figures, and a form to create a tenant.
import { Button, Flex, Text } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { api, messageOf, unwrap } from '../api.ts';
import { Field } from '../components/field.tsx';
import { Loading, Page, Reason, ScrollTable, Section, Status } from '../components/page.tsx';
import { TableHead } from '../components/table-head.tsx';
import { oldestDue } from '../names.ts';
import { go, tenantHref } from '../router.ts';
import { useLoad } from '../use-load.ts';

export function TenantsPage() {
  const loaded = useLoad(async () => {
    const [page, stats] = await Promise.all([
      api.GET('/v1/tenants', { params: { query: { limit: 200 } } }).then(unwrap),
      api.GET('/v1/stats').then(unwrap),
    ]);
    return { page, stats };
  }, []);
  return (
    <Loading loaded={loaded}>
      {({ page, stats }) => (
        <Page title="Tenants">
          <Text as="p" id="queue-line">
            Queue: {stats.queue.pending ?? 0} pending · {oldestDue(stats.oldest_due_age_ms)}
          </Text>
          <ScrollTable>
            <table id="tenants">
              <TableHead columns={['Tenant', 'Environment', 'Id']} />
              <tbody>
                {page.items.map((x) => (
                  <tr key={x.id}>
                    <td>
                      <a href={tenantHref(x.id)}>{x.name}</a>
                    </td>
                    <td>{x.environment}</td>
                    <td>
                      <code>{x.id}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
          <Section id="new-tenant" title="Create a tenant">
            <CreateTenant />
          </Section>
        </Page>
      )}
    </Loading>
  );
}

function CreateTenant() {
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<'live' | 'test'>('live');
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    try {
      const t = await api.POST('/v1/tenants', { body: { name: name.trim(), environment } }).then(unwrap);
      go(tenantHref(t.id));
    } catch (err) {
      setMessage({ text: messageOf(err), error: true });
    }
  };
  return (
    <form onSubmit={submit} aria-label="Create a tenant">
      <Flex gap="3" wrap="wrap" align="end">
        <Field id="tenant-name-input" label="Name" required value={name} onChange={(e) => setName(e.target.value)} />
        <div className="field">
          <Text as="label" htmlFor="tenant-environment" size="2" weight="bold">
            Environment
          </Text>
          <select
            id="tenant-environment"
            value={environment}
            onChange={(e) => setEnvironment(e.target.value as 'live' | 'test')}
          >
            <option value="live">live</option>
            <option value="test">test</option>
          </select>
        </div>
        <Button
          type="submit"
          id="create-tenant"
          disabled={name.trim() === ''}
          aria-describedby={name.trim() === '' ? 'create-tenant-reason' : undefined}
        >
          Create tenant
        </Button>
      </Flex>
      {name.trim() === '' ? <Reason id="create-tenant-reason">Give the tenant a name to create it.</Reason> : null}
      <Status id="create-tenant-status" message={message} />
    </form>
  );
}
