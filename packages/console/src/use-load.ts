// Loads a page's data: { data, error, reload }; a newer load wins over an older one still in flight.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  readonly data: T | null;
  readonly error: unknown;
  readonly loading: boolean;
  reload(): Promise<void>;
}

export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const generation = useRef(0);
  // `load` is a new closure each render; `deps` says when it means something new.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's `deps` are the dependencies, by design.
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const data = await run();
      if (mine === generation.current) setState({ data, error: null, loading: false });
    } catch (error) {
      if (mine === generation.current) setState({ data: null, error, loading: false });
    }
  }, [run]);
  useEffect(() => {
    setState({ data: null, error: null, loading: true });
    void reload();
  }, [reload]);
  return { ...state, reload };
}
