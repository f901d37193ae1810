/** The types of parse-prometheus-text-format, which ships none: a scrape's metric families as its README describes them. */
declare module 'parse-prometheus-text-format' {
  type Labels = Record<string, string>;
  type Sample = { value: string; labels?: Labels } | { buckets: Record<string, string>; count: string; sum: string; labels?: Labels };
  interface MetricFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: Sample[];
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
