// A tenant's endpoints, each named by its description or URL, and a form to add one.
import { Button, Flex } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { api, messageOf, unwrap } from '../api.ts';
import { Field } from '../components/field.tsx';
import { Badge, Loading, Page, Reason, ScrollTable, Section, Status } from '../components/page.tsx';
import { TableHead } from '../components/table-head.tsx';
import { endpointName } from '../names.ts';
import { go, tenantHref } from '../router.ts';
import { useLoad } from '../use-load.ts';

export function EndpointsPage({ tenant }: { tenant: string }) {
  const loaded = useLoad(
    () =>
      api.GET('/v1/tenants/{tenant}/endpoints', { params: { path: { tenant }, query: { limit: 200 } } }).then(unwrap),
    [tenant],
  );
  return (
    <Loading loaded={loaded}>
      {(page) => (
        <Page title="Endpoints">
          <ScrollTable>
            <table id="endpoints">
              <TableHead columns={['Endpoint', 'URL', 'Status', 'Policy', 'Cap']} />
              <tbody>
                {page.items.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <a href={tenantHref(tenant, 'endpoints', e.id)}>{endpointName(e)}</a>
                    </td>
                    <td className="wrap">{e.url}</td>
                    <td>
                      <Badge status={e.status} />
                      {e.pause_reason ? ` (${e.pause_reason})` : ''}
                    </td>
                    <td>{e.policy}</td>
                    <td>{e.max_concurrency}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
          <Section id="new-endpoint" title="Add an endpoint">
            <CreateEndpoint tenant={tenant} />
          </Section>
        </Page>
      )}
    </Loading>
  );
}

function CreateEndpoint({ tenant }: { tenant: string }) {
  const [v, setV] = useState({ url: '', description: '', types: '' });
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const set = (k: keyof typeof v) => (ev: { target: { value: string } }) => setV({ ...v, [k]: ev.target.value });
  const blocked = v.url.trim() === '' ? 'Give the endpoint a URL to add it.' : null;
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    try {
      const e = await api
        .POST('/v1/tenants/{tenant}/endpoints', {
          params: { path: { tenant } },
          body: {
            url: v.url.trim(),
            description: v.description.trim(),
            event_types: v.types
              .split(',')
              .map((x) => x.trim())
              .filter(Boolean),
          },
        })
        .then(unwrap);
      go(tenantHref(tenant, 'endpoints', e.id));
    } catch (err) {
      setMessage({ text: messageOf(err), error: true });
    }
  };
  return (
    <form onSubmit={submit} aria-label="Add an endpoint">
      <Flex direction="column" gap="3" maxWidth="40rem">
        <Field id="new-url" label="URL" type="url" required value={v.url} onChange={set('url')} />
        <Field id="new-description" label="Description" value={v.description} onChange={set('description')} />
        <Field
          id="new-event-types"
          label="Event types"
          help="Comma-separated; empty for every type; a trailing .* matches a family."
          value={v.types}
          onChange={set('types')}
        />
        <div>
          <Button
            type="submit"
            id="create-endpoint"
            disabled={blocked !== null}
            aria-describedby={blocked ? 'create-endpoint-reason' : undefined}
          >
            Add endpoint
          </Button>
        </div>
      </Flex>
      {blocked ? <Reason id="create-endpoint-reason">{blocked}</Reason> : null}
      <Status id="create-endpoint-status" message={message} />
    </form>
  );
}
