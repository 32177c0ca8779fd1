// The part of autocannon's API the HTTP and cluster benchmarks use (the package ships no types).
declare module "autocannon" {
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Record<string, unknown>) => Record<string, unknown>;
  }
  interface Options {
    /** Several URLs: connections are spread over them in turn (the cluster benchmark). */
    url: string | string[];
    connections?: number;
    duration?: number;
    requests?: Request[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    /** Responses with a 2xx status. */
    "2xx": number;
    /** Seconds the run lasted. */
    duration: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
