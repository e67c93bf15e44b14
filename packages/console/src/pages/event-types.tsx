import { api, unwrap } from '../api.ts';
import { Loading, Page } from '../components/page.tsx';
import { useLoad } from '../use-load.ts';

interface Version {
  schema?: unknown;
  example?: unknown;
}

export function EventTypesPage() {
  const loaded = useLoad(() => api.GET('/v1/event-types').then(unwrap), []);
  return (
    <Loading loaded={loaded}>
      {(list) => (
        <Page title="Event types">
          {list.items.length === 0 ? <p>No event types are registered.</p> : null}
          {list.items.map((et) => (
            <section className="event-type" key={et.name}>
              <h2>{et.name}</h2>
              <p>{et.description || '—'}</p>
              {et.money ? (
                <p>
                  <span className="badge">money event</span>
                </p>
              ) : null}
              {Object.entries(et.versions as Record<string, Version | null>).map(([v, def]) => (
                <div key={v}>
                  <h3>version {v}</h3>
                  {def?.schema ? (
                    <>
                      <h4>JSON Schema</h4>
                      <pre>{JSON.stringify(def.schema, null, 2)}</pre>
                    </>
                  ) : null}
                  {def && def.example !== undefined ? (
                    <>
                      <h4>Example payload</h4>
                      <pre>{JSON.stringify(def.example, null, 2)}</pre>
                    </>
                  ) : null}
                </div>
              ))}
            </section>
          ))}
        </Page>
      )}
    </Loading>
  );
}
