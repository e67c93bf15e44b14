// The window replay form of an endpoint's page (since, until, include skipped) and the replay's progress, read until
// it is done.
import type { components } from '@hookline/client';
import { Button } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { api, messageOf, unwrap } from '../api.ts';
import { Status } from './page.tsx';

type Message = { text: string; error?: boolean } | null;
type Replay = components['schemas']['Replay'];

export function WindowReplay({ tenant, id }: { tenant: string; id: string }) {
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [skipped, setSkipped] = useState(false);
  const [progress, setProgress] = useState<Message>(null);
  const show = (r: Replay) =>
    setProgress({
      text: `Replay ${r.id}: ${r.attempted} of ${r.selected} attempted, ${r.succeeded} succeeded, ${r.failed} failed${r.done ? ' — done' : '…'}`,
    });
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    try {
      let r = (
        await api
          .POST('/v1/tenants/{tenant}/endpoints/{endpoint}/replays', {
            params: { path: { tenant, endpoint: id } },
            body: { since: since.trim(), until: until.trim(), include_skipped: skipped },
          })
          .then(unwrap)
      ).replay;
      // Bounded: 120 reads, half a second apart.
      for (let i = 0; ; i++) {
        show(r);
        if (r.done || i >= 120) return;
        await new Promise((res) => setTimeout(res, 500));
        r = await api
          .GET('/v1/tenants/{tenant}/replays/{replay}', { params: { path: { tenant, replay: r.id } } })
          .then(unwrap);
      }
    } catch (err) {
      setProgress({ text: messageOf(err), error: true });
    }
  };
  return (
    <>
      <form className="filters" onSubmit={submit} aria-label="Replay a window">
        <div>
          <label htmlFor="since">Since (ISO-8601)</label>
          <input
            id="since"
            name="since"
            required
            placeholder="2026-01-01T00:00:00Z"
            value={since}
            onChange={(e) => setSince(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="until">Until (ISO-8601)</label>
          <input
            id="until"
            name="until"
            required
            placeholder="2026-01-02T00:00:00Z"
            value={until}
            onChange={(e) => setUntil(e.target.value)}
          />
        </div>
        <div className="check">
          <input
            id="include_skipped"
            type="checkbox"
            checked={skipped}
            onChange={(e) => setSkipped(e.target.checked)}
          />
          <label htmlFor="include_skipped">Include skipped</label>
        </div>
        <div>
          <Button type="submit">Replay window</Button>
        </div>
      </form>
      <Status id="replay-progress" message={progress} />
    </>
  );
}
