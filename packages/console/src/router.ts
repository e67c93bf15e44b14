// Hash routes (#/t/<tenant>/deliveries?status=failed): the server serves one index.html for every console page.
import { useEffect, useState } from 'react';

export interface Route {
  readonly parts: readonly string[];
  readonly query: URLSearchParams;
}

export function parseHash(hash: string): Route {
  const [path = '', qs = ''] = hash.replace(/^#/, '').split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(qs) };
}

export function useRoute(): Route {
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return parseHash(hash);
}

export const go = (hash: string) => {
  location.hash = hash;
};

/** `#/t/<tenant>/<rest>` with each part encoded. */
export const tenantHref = (tenant: string, ...rest: string[]) =>
  `#/t/${[tenant, ...rest].map(encodeURIComponent).join('/')}`;
