/**
 * The /analytics charts on uPlot (a small canvas chart library; loaded with this module only, as
 * its own chunk). Colours come from the theme's tokens (read from CSS variables at draw time).
 * Each chart keeps a data table for screen readers.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Day ticks as the spec's 'DD MMM' (the rows are by day; UTC midnights). */
const dayLabel = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', timeZone: 'UTC' });

const token = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || 'currentColor';

function useUPlot(make: (width: number) => { opts: uPlot.Options; data: uPlot.AlignedData }, deps: unknown[]) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const { opts, data } = make(el.clientWidth || 600);
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
    (width) => ({
      opts: {
        width,
        height: 220,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        axes: [
          { stroke: token('--text-2'), grid: { stroke: token('--divider') }, values: (_u, v) => v.map((s) => dayLabel.format(s * 1000)) },
          { stroke: token('--text-2'), grid: { stroke: token('--divider') } },
        ],
        series: [{ label: 'Day', value: (_u, s) => (s == null ? '--' : dayLabel.format(s * 1000)) }, { label: 'In', stroke: token('--accent'), width: 2 }, { label: 'Out', stroke: token('--info'), width: 2 }],
      },
      data: [days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000), inbound, outbound],
    }),
    [days.join(), inbound.join(), outbound.join()],
  );
  return <div ref={ref} className="an-chart" data-testid="traffic-chart" role="img" aria-label="Messages in and out per day" />;
}

/** Messages by hour of day (bars, 0–23, the org's hours). */
export function HoursChart({ hours }: { hours: number[] }) {
  const ref = useUPlot(
    (width) => ({
      opts: {
        width,
        height: 180,
        scales: { x: { time: false } },
        axes: [{ stroke: token('--text-2'), grid: { show: false }, values: (_u, v) => v.map((h) => `${h}h`) }, { stroke: token('--text-2'), grid: { stroke: token('--divider') } }],
        series: [{}, { label: 'Messages', fill: token('--accent-soft'), stroke: token('--accent'), paths: uPlot.paths.bars!({ size: [0.8, 40] }), points: { show: false } }],
        legend: { show: false },
      },
      data: [hours.map((_, h) => h), hours],
    }),
    [hours.join()],
  );
  return <div ref={ref} className="an-chart" data-testid="hours-chart" role="img" aria-label="Messages by hour of day" />;
}
