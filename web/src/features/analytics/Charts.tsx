/**
 * The /analytics charts on uPlot (a small canvas chart library; loaded with this module only, as
 * its own chunk). Colours come from the theme's tokens, resolved to rgb() at draw time: the tokens
 * are `light-dark(…)`, which a canvas cannot parse (it kept its default grey, issue 49 §1).
 * The per-day x axis is ranged and ticked by day (chart-axes.ts).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dayRange, daySplits } from './chart-axes.ts';

/** Day ticks as the spec's 'DD MMM' (the rows are by day; UTC midnights). */
const dayLabel = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', timeZone: 'UTC' });

/**
 * A colour token as the browser resolves it where the chart sits (`rgb(…)`/`rgba(…)`): a probe
 * element styled with `color: var(--token)` lets CSS resolve `light-dark()` for the page's scheme.
 */
function tokenColour(el: HTMLElement, name: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${name})`;
  probe.style.display = 'none';
  el.appendChild(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour || 'currentColor';
}

type Token = (name: string) => string;

const showLast = (u: uPlot) => {
  const n = u.data[0].length;
  if (n > 0) u.setLegend({ idx: n - 1 });
};

/** y-axis steps for counts (no 0.5 messages). */
const COUNT_INCRS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000];

function useUPlot(make: (width: number, token: Token, el: HTMLDivElement) => { opts: uPlot.Options; data: uPlot.AlignedData }, deps: unknown[]) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const { opts, data } = make(el.clientWidth || 600, (name) => tokenColour(el, name), el);
    const plot = new uPlot(opts, data, el);
    const ro = new ResizeObserver(() => plot.setSize({ width: el.clientWidth || 600, height: opts.height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.destroy();
    };
  }, deps);
  return ref;
}

/** Messages in and out per day (lines). `days` are 'YYYY-MM-DD' (UTC midnight on the x axis). */
export function TrafficChart({ days, inbound, outbound }: { days: string[]; inbound: number[]; outbound: number[] }) {
  const ref = useUPlot(
    (width, token, el) => {
      const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
      return {
        opts: {
          width,
          height: 220,
          tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          scales: { x: { time: true, range: () => dayRange(xs) }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
          axes: [
            {
              stroke: token('--text-2'),
              grid: { stroke: token('--divider') },
              ticks: { stroke: token('--divider') },
              // ~56 px per 'DD MMM' label
              splits: (u) => daySplits(xs, u.bbox.width / uPlot.pxRatio / 56),
              values: (_u, v) => {
                const labels = v.map((s) => dayLabel.format(s * 1000));
                el.dataset.xTicks = labels.join('|'); // what the axis shows, for tests and debugging (the canvas has no text)
                return labels;
              },
            },
            // whole messages only
            { stroke: token('--text-2'), grid: { stroke: token('--divider') }, ticks: { stroke: token('--divider') }, incrs: COUNT_INCRS },
          ],
          // away from the chart the legend shows the last day's figures (not '--')
          hooks: { ready: [showLast], setCursor: [(u) => u.cursor.idx == null && showLast(u)] },
          series: [
            { label: 'Day', value: (_u, s) => (s == null ? '--' : dayLabel.format(s * 1000)) },
            { label: 'In', stroke: token('--accent'), width: 2, points: { show: true, size: 6, fill: token('--accent') } },
            { label: 'Out', stroke: token('--info'), width: 2, points: { show: true, size: 6, fill: token('--info') } },
          ],
        },
        data: [xs, inbound, outbound],
      };
    },
    [days.join(), inbound.join(), outbound.join()],
  );
  return <div ref={ref} className="an-chart" data-testid="traffic-chart" role="img" aria-label="Messages in and out per day" />;
}

/** Messages by hour of day (bars, 0–23, the org's hours). */
export function HoursChart({ hours }: { hours: number[] }) {
  const ref = useUPlot(
    (width, token) => ({
      opts: {
        width,
        height: 180,
        // half an hour of margin so the first and last bars are whole
        scales: { x: { time: false, range: [-0.5, 23.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          { stroke: token('--text-2'), grid: { show: false }, ticks: { stroke: token('--divider') }, incrs: [1, 2, 3, 4, 6, 12], values: (_u, v) => v.map((h) => `${h}h`) },
          { stroke: token('--text-2'), grid: { stroke: token('--divider') }, ticks: { stroke: token('--divider') }, incrs: COUNT_INCRS },
        ],
        series: [{}, { label: 'Messages', fill: token('--accent-soft'), stroke: token('--accent'), paths: uPlot.paths.bars!({ size: [0.8, 40] }), points: { show: false } }],
        legend: { show: false },
      },
      data: [hours.map((_, h) => h), hours],
    }),
    [hours.join()],
  );
  return <div ref={ref} className="an-chart" data-testid="hours-chart" role="img" aria-label="Messages by hour of day" />;
}
