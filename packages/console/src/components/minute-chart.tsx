// Deliveries per minute over 24 h as stacked bars (succeeded / retrying / failed), one column per minute, to scale.

import type { components } from '@hookline/client';
import type { ReactElement } from 'react';

type Minutes = components['schemas']['GetTenantMinuteStatsResponse'];
const KINDS = ['succeeded', 'retrying', 'failed'] as const;
const WIDTH = 1440;
const HEIGHT = 120;

export function MinuteChart({ data }: { data: Minutes }) {
  const since = Date.parse(data.since);
  const max = Math.max(1, ...data.minutes.map((m) => m.succeeded + m.retrying + m.failed));
  const totals = { succeeded: 0, retrying: 0, failed: 0 };
  const bars: ReactElement[] = [];
  for (const m of data.minutes) {
    const x = Math.floor((Date.parse(m.at) - since) / 60_000);
    let y = HEIGHT;
    for (const k of KINDS) {
      totals[k] += m[k];
      if (m[k] === 0) continue;
      const h = (m[k] / max) * HEIGHT;
      y -= h;
      bars.push(
        <rect key={`${m.at}-${k}`} x={x} y={y} width={1} height={h} className={`bar ${k}`}>
          <title>{`${new Date(m.at).toLocaleTimeString()}: ${m[k]} ${k}`}</title>
        </rect>,
      );
    }
  }
  const summary = `Last 24 hours: ${totals.succeeded} succeeded, ${totals.retrying} retrying, ${totals.failed} failed (busiest minute: ${bars.length === 0 ? 0 : max})`;
  return (
    <figure id="minute-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={summary}
        className="chart"
      >
        <line x1={0} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="axis" />
        {[6, 12, 18].map((h) => (
          <line key={h} x1={h * 60} y1={0} x2={h * 60} y2={HEIGHT} className="grid" />
        ))}
        {bars}
      </svg>
      <div className="chart-scale" aria-hidden="true">
        <span>24 h ago</span>
        <span>18 h</span>
        <span>12 h</span>
        <span>6 h</span>
        <span>now</span>
      </div>
      <figcaption id="chart-summary">
        {summary}
        <br />
        <span className="legend succeeded">■ succeeded</span> <span className="legend retrying">■ retrying</span>{' '}
        <span className="legend failed">■ failed</span>
      </figcaption>
    </figure>
  );
}
