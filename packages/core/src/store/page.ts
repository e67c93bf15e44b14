// One page of a listing, as every store part that lists pages it (tenants, endpoints, deliveries, notices).

export interface Page<T> {
  items: T[];
  /** Opaque; pass back to get the next page. Null on the last page. */
  nextCursor: string | null;
}
