// A minimal Prometheus text exposition (format 0.0.4): counters, gauges and histograms with labels, no dependency.

type Labels = Record<string, string>;

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

function num(n: number): string {
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  return String(n);
}

export class Counter {
  readonly #values = new Map<string, { labels: Labels; value: number }>();
  constructor(readonly name: string, readonly help: string) {}
  inc(labels: Labels = {}, by = 1): void {
    const key = labelText(labels);
    const cur = this.#values.get(key);
    if (cur) cur.value += by;
    else this.#values.set(key, { labels, value: by });
  }
  get(labels: Labels = {}): number {
    return this.#values.get(labelText(labels))?.value ?? 0;
  }
  render(): string {
    let out = `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} counter\n`;
    for (const { labels, value } of this.#values.values()) out += `${this.name}${labelText(labels)} ${num(value)}\n`;
    return out;
  }
}

export class Histogram {
  readonly #series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(readonly name: string, readonly help: string, readonly buckets: readonly number[]) {}
  observe(value: number, labels: Labels = {}): void {
    const key = labelText(labels);
    let s = this.#series.get(key);
    if (!s) {
      s = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, s);
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]) s.counts[i]++;
    s.sum += value;
    s.count++;
  }
  render(): string {
    let out = `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} histogram\n`;
    for (const s of this.#series.values()) {
      this.buckets.forEach((le, i) => {
        out += `${this.name}_bucket${labelText({ ...s.labels, le: num(le) })} ${s.counts[i]}\n`;
      });
      out += `${this.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}\n`;
      out += `${this.name}_sum${labelText(s.labels)} ${num(s.sum)}\n`;
      out += `${this.name}_count${labelText(s.labels)} ${s.count}\n`;
    }
    return out;
  }
}

/** A gauge whose values are read when scraped. */
export function renderGauge(name: string, help: string, values: Array<{ labels: Labels; value: number }>): string {
  let out = `# HELP ${name} ${help}\n# TYPE ${name} gauge\n`;
  for (const { labels, value } of values) out += `${name}${labelText(labels)} ${num(value)}\n`;
  return out;
}
