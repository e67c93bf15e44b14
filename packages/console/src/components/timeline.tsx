// A timeline drawn to scale: attempts as marks at their start (width = their duration, at least a hairline), waits
// and held periods as bands between them, a time axis with ticks; the same facts as a list for screen readers.
import { type RefObject, useEffect, useRef, useState } from 'react';
import { duration } from '../format.ts';

export interface TimelineMark {
  readonly atMs: number;
  readonly durationMs: number;
  /** success, delivery_failure, client_error (the attempt's outcome). */
  readonly outcome: string;
  /** Shown above the mark: "#2". */
  readonly label: string;
  /** Shown under the mark: the ladder or trigger. */
  readonly sub?: string;
  readonly detail: string;
}

export interface TimelineBand {
  readonly fromMs: number;
  readonly toMs: number;
  /** wait (until the next scheduled attempt), held (breaker open), paused (endpoint paused). */
  readonly kind: 'wait' | 'held' | 'paused';
  readonly detail: string;
}

const PAD = 24;

/** The figure's width in CSS pixels (1000 until measured), so the drawing's text stays readable from a phone to a laptop. */
function useWidth(): [RefObject<HTMLElement | null>, number] {
  const ref = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(1000);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => setWidth(Math.max(280, Math.round(entry.contentRect.width))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

/** A label's drawn width, estimated: about 7 px a character at the timeline's 12 px type, plus a gap. */
const textWidth = (text: string) => text.length * 7 + 10;

export interface LabelGroup {
  readonly x: number;
  readonly label: string;
  readonly sub: string;
}

/**
 * The marks' labels, merged where they would overlap: attempts seconds apart on a timeline hours long share one label
 * ("#1–#3", their ladders or triggers once each) at the first one's place, so no two labels are drawn over each other.
 */
export function labelGroups(marks: ReadonlyArray<{ x: number; label: string; sub?: string }>): LabelGroup[] {
  const groups: { x: number; members: { label: string; sub?: string }[] }[] = [];
  const draw = (g: (typeof groups)[number]) => {
    const first = g.members[0];
    const last = g.members[g.members.length - 1];
    const subs = [...new Set(g.members.map((m) => m.sub).filter((x): x is string => !!x))];
    return {
      x: g.x,
      label: g.members.length === 1 ? first.label : `${first.label}–${last.label}`,
      sub: subs.join(', '),
    };
  };
  const width = (g: (typeof groups)[number]) => {
    const d = draw(g);
    return Math.max(textWidth(d.label), textWidth(d.sub));
  };
  for (const m of [...marks].sort((a, b) => a.x - b.x)) {
    const prev = groups.at(-1);
    const mine = Math.max(textWidth(m.label), textWidth(m.sub ?? ''));
    if (prev && m.x - prev.x < (width(prev) + mine) / 2) prev.members.push(m);
    else groups.push({ x: m.x, members: [m] });
  }
  return groups.map(draw);
}

/** Tick spacing: the first "nice" step that gives at most `most` ticks. */
function tickStep(total: number, most: number): number {
  const steps = [
    1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 21_600, 43_200, 86_400, 172_800, 604_800,
  ].map((s) => s * 1000);
  return steps.find((s) => total / s <= most) ?? total / 4;
}

export function Timeline({
  id,
  marks,
  bands,
  endMs,
  endLabel,
  label,
}: {
  id: string;
  marks: readonly TimelineMark[];
  bands: readonly TimelineBand[];
  endMs: number;
  endLabel?: string;
  label: string;
}) {
  const [ref, W] = useWidth();
  /** Labels near either end are anchored inward so they are never cut off. */
  const anchor = (px: number) => (px < 60 ? 'start' : px > W - 60 ? 'end' : 'middle');
  const total = Math.max(1, endMs, ...marks.map((m) => m.atMs + m.durationMs), ...bands.map((b) => b.toMs));
  const x = (ms: number) => PAD + (Math.max(0, ms) / total) * (W - 2 * PAD);
  const step = tickStep(total, W < 600 ? 3 : 6);
  const ticks: number[] = [];
  for (let t = 0; t <= total + 1 && ticks.length < 40; t += step) ticks.push(t);
  return (
    <figure className="timeline-figure" id={id} ref={ref}>
      <svg viewBox={`0 0 ${W} 110`} role="img" aria-label={label} className="timeline">
        <line x1={PAD} y1={60} x2={W - PAD} y2={60} className="axis" />
        {ticks.map((t) => (
          <g key={t}>
            <line x1={x(t)} y1={56} x2={x(t)} y2={64} className="axis" />
            <text x={x(t)} y={84} className="tick-label" textAnchor={anchor(x(t))}>
              {t === 0 ? '0' : `+${duration(t)}`}
            </text>
          </g>
        ))}
        {bands.map((b, i) => (
          <rect
            key={`b${i}`}
            x={x(b.fromMs)}
            y={b.kind === 'wait' ? 56 : 44}
            width={Math.max(1, x(b.toMs) - x(b.fromMs))}
            height={b.kind === 'wait' ? 8 : 32}
            className={`band ${b.kind}`}
          >
            <title>{b.detail}</title>
          </rect>
        ))}
        {marks.map((m, i) => (
          <g key={`m${i}`} className={`mark ${m.outcome}`}>
            <rect x={x(m.atMs) - 2} y={40} width={Math.max(4, x(m.atMs + m.durationMs) - x(m.atMs))} height={40}>
              <title>{m.detail}</title>
            </rect>
          </g>
        ))}
        {labelGroups(marks.map((m) => ({ x: x(m.atMs), label: m.label, sub: m.sub }))).map((g) => (
          <g key={`l${g.x}`}>
            <text x={g.x} y={30} textAnchor={anchor(g.x)} className="mark-label">
              {g.label}
            </text>
            {g.sub ? (
              <text x={g.x} y={104} textAnchor={anchor(g.x)} className="mark-sub">
                {g.sub}
              </text>
            ) : null}
          </g>
        ))}
      </svg>
      <figcaption>
        <span className="legend success">■ success</span>{' '}
        <span className="legend delivery_failure">■ failure (retried)</span>{' '}
        <span className="legend client_error">■ client error</span>{' '}
        <span className="legend wait">▬ waiting for the next attempt</span> <span className="legend held">■ held</span>
        {endLabel ? ` · ${endLabel}` : ''}
      </figcaption>
      <ol className="timeline-list">
        {[
          ...marks.map((m) => ({ at: m.atMs, text: m.detail })),
          ...bands.filter((b) => b.kind !== 'wait').map((b) => ({ at: b.fromMs, text: b.detail })),
        ]
          .sort((a, b) => a.at - b.at)
          .map((e, i) => (
            <li key={i}>
              <span className="at">+{duration(e.at)}</span> {e.text}
            </li>
          ))}
      </ol>
    </figure>
  );
}
