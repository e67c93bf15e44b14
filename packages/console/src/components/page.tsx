// A page's frame: its <h1>, the document title, and what to show while loading or when the API refused.
import { type ReactNode, useEffect } from 'react';
import { HooklineApiError, isStatus, messageOf } from '../api.ts';
import { go } from '../router.ts';
import type { Loaded } from '../use-load.ts';

export function Page({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Hookline console`;
  }, [title]);
  return (
    <>
      <h1>{title}</h1>
      {children}
    </>
  );
}

export function ErrorPage({ error }: { error: unknown }) {
  useEffect(() => {
    if (isStatus(error, 401)) go('#/signin');
  }, [error]);
  const notFound = isStatus(error, 404);
  return (
    <Page title={notFound ? 'Not found' : 'Something went wrong'}>
      <p className="error" role="alert">
        {messageOf(error)}
      </p>
      {error instanceof HooklineApiError ? (
        <p>
          <code>{error.code}</code>
        </p>
      ) : null}
    </Page>
  );
}

/** Renders `children(data)` once loaded; the error page if the load failed; "Loading…" meanwhile. */
export function Loading<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ReactNode }) {
  if (loaded.error) return <ErrorPage error={loaded.error} />;
  if (loaded.data === null) return <p aria-busy="true">Loading…</p>;
  return <>{children(loaded.data)}</>;
}

export function Badge({ status }: { status: string }) {
  return <span className={`badge ${status}`}>{status}</span>;
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/** A message line that screen readers announce (role=status), red when it reports an error. */
export function Status({ id, message }: { id: string; message: { text: string; error?: boolean } | null }) {
  return (
    <p role="status" id={id} className={message?.error ? 'error' : undefined}>
      {message?.text ?? ''}
    </p>
  );
}

export function ScrollTable({ children }: { children: ReactNode }) {
  return <div className="table-wrap">{children}</div>;
}
